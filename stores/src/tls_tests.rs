//! Unit tests of the certificate check and its messages (`tls::verify`),
//! on the self-signed fixtures of `stores/tests/fixtures/` (see its
//! README: made by the issue 23 `openssl req -x509` command).

use std::sync::Arc;
use std::time::Duration;

use rustls::client::danger::ServerCertVerifier;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::RootCertStore;

use super::verify::der::{civil_from_days, days_from_civil, facts};
use super::verify::{date, explain, Verifier};

const SELF_SIGNED: &[u8] = include_bytes!("../tests/fixtures/self-signed.pem");
const CLIENT_ONLY: &[u8] = include_bytes!("../tests/fixtures/self-signed-client-only.pem");
/// 2026-11-26 10:38:15 UTC and 2126-11-02 10:38:15 UTC.
const NOT_BEFORE: u64 = 1_795_689_495;
const NOT_AFTER: u64 = 4_949_289_495;

fn cert(pem: &[u8]) -> CertificateDer<'static> {
    CertificateDer::from_pem_slice(pem).expect("fixture")
}

/// A verifier whose CA file holds `ca` (`pinned`: as the adapters do).
fn verifier(ca: &[CertificateDer<'static>], pinned: bool, check_name: bool) -> Verifier {
    let mut roots = RootCertStore::empty();
    for c in ca {
        roots.add(c.clone()).expect("root");
    }
    let pins = if pinned { ca.to_vec() } else { Vec::new() };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Verifier::new(roots, pins, check_name, provider).expect("verifier")
}

fn at(secs: u64) -> UnixTime {
    UnixTime::since_unix_epoch(Duration::from_secs(secs))
}

fn name(n: &str) -> ServerName<'static> {
    ServerName::try_from(n.to_string()).expect("name")
}

fn check(
    v: &Verifier,
    c: &CertificateDer<'_>,
    host: &str,
    now: UnixTime,
) -> Result<(), rustls::Error> {
    v.verify_server_cert(c, &[], &name(host), &[], now)
        .map(|_| ())
}

fn line(e: &rustls::Error) -> String {
    explain(e, Some("/etc/ca.pem"), "cacert", "use redis://")
}

#[test]
fn the_fixture_facts_are_read_from_der() {
    let f = facts(&cert(SELF_SIGNED)).expect("parses");
    assert_eq!(
        (f.not_before, f.not_after),
        (NOT_BEFORE as i64, NOT_AFTER as i64)
    );
    assert!(f.server_auth, "no extendedKeyUsage: any purpose");
    assert!(!facts(&cert(CLIENT_ONLY)).expect("parses").server_auth);
    assert_eq!(date(NOT_BEFORE), "2026-11-26 10:38:15 UTC");
    assert_eq!(date(NOT_AFTER), "2126-11-02 10:38:15 UTC");
    // Cut short anywhere: no facts, never a panic.
    let der = cert(SELF_SIGNED);
    for n in 0..der.len() {
        let _ = facts(&der[..n]);
    }
    assert_eq!(facts(&der[..der.len() / 2]), None);
}

#[test]
fn civil_dates_round_trip() {
    for days in (-800_000i64..800_000).step_by(97) {
        let (y, m, d) = civil_from_days(days);
        assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
        assert!((1..=12).contains(&m) && (1..=31).contains(&d));
    }
    assert_eq!(days_from_civil(1970, 1, 1), 0);
    assert_eq!(days_from_civil(2000, 3, 1), 11_017);
}

#[test]
fn a_server_certificate_that_is_in_the_ca_file_is_accepted() {
    let c = cert(SELF_SIGNED);
    let v = verifier(std::slice::from_ref(&c), true, true);
    check(&v, &c, "127.0.0.1", at(NOT_BEFORE + 86_400)).expect("accepted");
    // Without the pin it is webpki's refusal: a CA used as a server's own.
    let strict = verifier(std::slice::from_ref(&c), false, true);
    let e = check(&strict, &c, "127.0.0.1", at(NOT_BEFORE + 86_400)).unwrap_err();
    let l = line(&e);
    assert!(l.contains("presents a CA certificate as its own"), "{l}");
    assert!(l.contains("cacert=/etc/ca.pem"), "{l}");
}

#[test]
fn a_pinned_certificate_is_still_checked_for_name_time_and_purpose() {
    let c = cert(SELF_SIGNED);
    let v = verifier(std::slice::from_ref(&c), true, true);
    let now = at(NOT_BEFORE + 86_400);
    let l = line(&check(&v, &c, "localhost", now).unwrap_err());
    assert_eq!(
        l,
        "TLS: the server's certificate is for 127.0.0.1, not localhost: connect by a name it \
         holds, or give the server a certificate whose subjectAltName holds localhost"
    );
    let l = line(&check(&v, &c, "127.0.0.2", now).unwrap_err());
    assert!(l.contains("is for 127.0.0.1, not 127.0.0.2"), "{l}");
    // Without the name check (PostgreSQL verify-ca) the name does not matter.
    let ca_only = verifier(std::slice::from_ref(&c), true, false);
    check(&ca_only, &c, "localhost", now).expect("verify-ca");
    let l = line(&check(&v, &c, "127.0.0.1", at(NOT_AFTER + 1)).unwrap_err());
    assert!(
        l.starts_with("TLS: the server's certificate expired at 2126-11-02 10:38:15 UTC (now "),
        "{l}"
    );
    let l = line(&check(&v, &c, "127.0.0.1", at(NOT_BEFORE - 60)).unwrap_err());
    assert!(
        l.contains("is valid only from 2026-11-26 10:38:15 UTC") && l.contains("clocks"),
        "{l}"
    );
    let client_only = cert(CLIENT_ONLY);
    let v = verifier(std::slice::from_ref(&client_only), true, true);
    let l = line(&check(&v, &client_only, "127.0.0.1", now).unwrap_err());
    assert!(l.contains("not for TLS servers"), "{l}");
}

#[test]
fn another_self_signed_certificate_is_refused_in_one_line() {
    let (c, other) = (cert(SELF_SIGNED), cert(CLIENT_ONLY));
    // The CA file holds another certificate: the server's is not in it.
    let v = verifier(std::slice::from_ref(&other), true, true);
    let e = check(&v, &c, "127.0.0.1", at(NOT_BEFORE + 86_400)).unwrap_err();
    let l = line(&e);
    assert!(
        l.contains("is not in the CA file cacert=/etc/ca.pem"),
        "{l}"
    );
    for debris in ["Other(", "OtherError", "CaUsedAsEndEntity", "\n"] {
        assert!(!l.contains(debris), "{l}");
    }
}

#[test]
fn every_message_is_one_line_without_debug_noise() {
    use rustls::{CertificateError, Error, InvalidMessage};
    let cases = [
        Error::InvalidCertificate(CertificateError::UnknownIssuer),
        Error::InvalidCertificate(CertificateError::NotValidForName),
        Error::InvalidCertificate(CertificateError::Expired),
        Error::InvalidCertificate(CertificateError::NotValidYet),
        Error::InvalidCertificate(CertificateError::Revoked),
        Error::InvalidCertificate(CertificateError::BadSignature),
        Error::InvalidCertificate(CertificateError::BadEncoding),
        Error::InvalidCertificate(CertificateError::InvalidPurpose),
        Error::InvalidMessage(InvalidMessage::InvalidContentType),
        Error::AlertReceived(rustls::AlertDescription::HandshakeFailure),
    ];
    for e in &cases {
        let l = line(e);
        assert!(l.starts_with("TLS: "), "{l}");
        assert!(
            !l.contains('\n')
                && !l.contains('{')
                && !l.contains('('.to_string().repeat(2).as_str()),
            "{l}"
        );
        assert!(l.contains(':'), "says what to do: {l}");
    }
    let l = line(&Error::InvalidCertificate(CertificateError::UnknownIssuer));
    assert!(
        l.contains("untrusted issuer") && l.contains("cacert=FILE"),
        "{l}"
    );
    let l = explain(
        &Error::InvalidCertificate(CertificateError::UnknownIssuer),
        None,
        "sslrootcert",
        "",
    );
    assert!(l.contains("the system's trusted roots"), "{l}");
    let l = line(&Error::InvalidMessage(InvalidMessage::InvalidContentType));
    assert!(
        l.contains("plain-text server") && l.contains("use redis://"),
        "{l}"
    );
}
