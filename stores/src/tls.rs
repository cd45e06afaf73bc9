//! What the server adapters share for TLS and credentials: reading PEM
//! files, the environment variables of the stores' own tools, and the
//! rustls crypto provider (`ring`: no cmake, no nasm, no OpenSSL).

#![allow(dead_code)] // each adapter uses a part

use lexikey::store::StoreError;

/// A non-empty environment variable.
pub(crate) fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The bytes of a PEM file named by a URL option or variable (`what`, for
/// the message).
pub(crate) fn read_pem(store: &'static str, what: &str, path: &str) -> Result<Vec<u8>, StoreError> {
    std::fs::read(path)
        .map_err(|e| StoreError::fatal(store, format!("cannot read the {what} file {path:?}: {e}")))
}

/// Makes `ring` the process's rustls provider unless one is set already
/// (the `redis` crate builds its TLS configuration from the default, and
/// so does reqwest, `object_store`'s HTTP client, for SlateDB on S3).
#[cfg(any(
    feature = "redis",
    feature = "postgres",
    feature = "etcd",
    feature = "slatedb"
))]
pub(crate) fn install_ring() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Another thread may win the race: either way one provider is set.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}

#[cfg(any(feature = "redis", feature = "postgres", feature = "etcd"))]
pub(crate) use verify::{explain, explain_handshake_io, tls_error_in, Verifier};

/// The trust store the environment names, as OpenSSL-based clients
/// (redis-cli, psql with `sslrootcert=system`) and Go's read it:
/// `SSL_CERT_FILE` and/or `SSL_CERT_DIR`, as `VAR=VALUE` for messages;
/// `None` when neither is set (the platform's store).
pub(crate) fn env_trust_store() -> Option<String> {
    let vars: Vec<String> = ["SSL_CERT_FILE", "SSL_CERT_DIR"]
        .iter()
        .filter_map(|v| env(v).map(|x| format!("{v}={x}")))
        .collect();
    (!vars.is_empty()).then(|| vars.join(" "))
}

/// The system's trusted roots (`SSL_CERT_FILE` / `SSL_CERT_DIR` when set,
/// else the platform's store), and the certificates to pin (see
/// [`Verifier`]): every certificate of a store the environment names, so a
/// self-signed server certificate put there passes as it does for
/// redis-cli and psql, exactly as one given as `cacert=`; none from the
/// platform's store.
#[cfg(any(feature = "redis", feature = "postgres", feature = "etcd"))]
pub(crate) fn system_roots() -> (
    rustls::RootCertStore,
    Vec<rustls::pki_types::CertificateDer<'static>>,
) {
    let found = rustls_native_certs::load_native_certs();
    let mut roots = rustls::RootCertStore::empty();
    let pinned = if env_trust_store().is_some() {
        found.certs.clone()
    } else {
        Vec::new()
    };
    let _ = roots.add_parsable_certificates(found.certs);
    (roots, pinned)
}

/// Server-certificate checks shared by the adapters (rustls, `ring`):
/// webpki's, plus the one case OpenSSL- and Go-based clients (redis-cli,
/// psql, etcdctl) accept that webpki refuses — a server certificate that is
/// byte for byte one of the certificates of the configured CA file (the
/// common self-signed set-up). And one readable line per TLS failure.
#[cfg(any(feature = "redis", feature = "postgres", feature = "etcd"))]
mod verify {
    use std::net::IpAddr;
    use std::sync::Arc;

    use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
    use rustls::client::WebPkiServerVerifier;
    use rustls::crypto::CryptoProvider;
    use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
    use rustls::{
        CertificateError, DigitallySignedStruct, Error, OtherError, RootCertStore, SignatureScheme,
    };

    /// A [`ServerCertVerifier`]:
    ///
    /// - no `webpki`: no check (PostgreSQL `sslmode=prefer|require` without
    ///   a root file, as libpq);
    /// - otherwise webpki's chain check against the roots, then the name
    ///   check unless `check_name` is off (PostgreSQL `verify-ca`);
    /// - a presented certificate byte-identical to one of `pinned` (the CA
    ///   file's certificates) that webpki refuses only for its issuer (a
    ///   CA certificate used as the server's own, or an issuer not in the
    ///   file) is accepted if it is valid now, is for TLS servers (its
    ///   extendedKeyUsage, if any, allows serverAuth) and, with
    ///   `check_name`, names the server. Everything else is as strict as
    ///   webpki alone.
    ///
    /// Handshake signatures are always checked.
    #[derive(Debug)]
    pub(crate) struct Verifier {
        webpki: Option<Arc<WebPkiServerVerifier>>,
        pinned: Vec<CertificateDer<'static>>,
        check_name: bool,
        provider: Arc<CryptoProvider>,
    }

    impl Verifier {
        /// Checks against `roots` (and the certificates of the CA file,
        /// `pinned`); `check_name`: the server name too.
        pub(crate) fn new(
            roots: RootCertStore,
            pinned: Vec<CertificateDer<'static>>,
            check_name: bool,
            provider: Arc<CryptoProvider>,
        ) -> Result<Verifier, Error> {
            let webpki =
                WebPkiServerVerifier::builder_with_provider(Arc::new(roots), Arc::clone(&provider))
                    .build()
                    .map_err(|e| Error::General(e.to_string()))?;
            Ok(Verifier {
                webpki: Some(webpki),
                pinned,
                check_name,
                provider,
            })
        }

        /// No certificate check (handshake signatures only).
        pub(crate) fn none(provider: Arc<CryptoProvider>) -> Verifier {
            Verifier {
                webpki: None,
                pinned: Vec::new(),
                check_name: false,
                provider,
            }
        }

        fn verify_pinned(
            &self,
            ee: &CertificateDer<'_>,
            name: &ServerName<'_>,
            now: UnixTime,
        ) -> Result<ServerCertVerified, Error> {
            let facts = der::facts(ee).ok_or(CertificateError::BadEncoding)?;
            let t = now.as_secs() as i64;
            if t < facts.not_before {
                return Err(CertificateError::NotValidYetContext {
                    time: now,
                    not_before: unix(facts.not_before),
                }
                .into());
            }
            if t > facts.not_after {
                return Err(CertificateError::ExpiredContext {
                    time: now,
                    not_after: unix(facts.not_after),
                }
                .into());
            }
            if !facts.server_auth {
                return Err(CertificateError::InvalidPurpose.into());
            }
            if self.check_name {
                let cert = webpki::EndEntityCert::try_from(ee)
                    .map_err(|_| CertificateError::BadEncoding)?;
                cert.verify_is_valid_for_subject_name(name)
                    .map_err(|e| match e {
                        webpki::Error::CertNotValidForName(c) => {
                            CertificateError::NotValidForNameContext {
                                expected: c.expected,
                                presented: c.presented,
                            }
                        }
                        _ => CertificateError::NotValidForName,
                    })?;
            }
            Ok(ServerCertVerified::assertion())
        }
    }

    fn unix(secs: i64) -> UnixTime {
        UnixTime::since_unix_epoch(std::time::Duration::from_secs(secs.max(0) as u64))
    }

    /// webpki's error for a CA certificate presented as the server's own.
    fn ca_as_end_entity(e: &CertificateError) -> bool {
        matches!(e, CertificateError::Other(OtherError(x))
            if matches!(x.downcast_ref::<webpki::Error>(), Some(webpki::Error::CaUsedAsEndEntity)))
    }

    impl ServerCertVerifier for Verifier {
        fn verify_server_cert(
            &self,
            end_entity: &CertificateDer<'_>,
            intermediates: &[CertificateDer<'_>],
            server_name: &ServerName<'_>,
            ocsp: &[u8],
            now: UnixTime,
        ) -> Result<ServerCertVerified, Error> {
            let Some(webpki) = &self.webpki else {
                return Ok(ServerCertVerified::assertion());
            };
            let r = webpki.verify_server_cert(end_entity, intermediates, server_name, ocsp, now);
            let r = match r {
                Err(Error::InvalidCertificate(e))
                    if (ca_as_end_entity(&e) || e == CertificateError::UnknownIssuer)
                        && self
                            .pinned
                            .iter()
                            .any(|p| p.as_ref() == end_entity.as_ref()) =>
                {
                    self.verify_pinned(end_entity, server_name, now)
                }
                r => r,
            };
            match r {
                Err(Error::InvalidCertificate(
                    CertificateError::NotValidForName
                    | CertificateError::NotValidForNameContext { .. },
                )) if !self.check_name => Ok(ServerCertVerified::assertion()),
                r => r,
            }
        }

        fn verify_tls12_signature(
            &self,
            message: &[u8],
            cert: &CertificateDer<'_>,
            dss: &DigitallySignedStruct,
        ) -> Result<HandshakeSignatureValid, Error> {
            rustls::crypto::verify_tls12_signature(
                message,
                cert,
                dss,
                &self.provider.signature_verification_algorithms,
            )
        }

        fn verify_tls13_signature(
            &self,
            message: &[u8],
            cert: &CertificateDer<'_>,
            dss: &DigitallySignedStruct,
        ) -> Result<HandshakeSignatureValid, Error> {
            rustls::crypto::verify_tls13_signature(
                message,
                cert,
                dss,
                &self.provider.signature_verification_algorithms,
            )
        }

        fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
            self.provider
                .signature_verification_algorithms
                .supported_schemes()
        }
    }

    /// The rustls error somewhere in `e`'s chain of sources (an
    /// `io::Error` wrapping one counts).
    pub(crate) fn tls_error_in<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a Error> {
        let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
        while let Some(x) = cur {
            if let Some(t) = x.downcast_ref::<Error>() {
                return Some(t);
            }
            if let Some(io) = x.downcast_ref::<std::io::Error>() {
                if let Some(t) = io.get_ref().and_then(|i| i.downcast_ref::<Error>()) {
                    return Some(t);
                }
            }
            cur = x.source();
        }
        None
    }

    /// One line for a TLS failure: what is wrong and what to do. `ca`: the
    /// CA option as the user gave it (`cacert=/etc/ca.pem`), or `None` for
    /// the system's roots; `ca_option`: its name (`cacert`,
    /// `sslrootcert`); `plain`: what to use for a server without TLS.
    pub(crate) fn explain(e: &Error, ca: Option<&str>, ca_option: &str, plain: &str) -> String {
        let trusted = match (ca, super::env_trust_store()) {
            (Some(p), _) => format!("the CA file {ca_option}={p}"),
            (None, Some(store)) => format!("the system's trusted roots ({store})"),
            (None, None) => "the system's trusted roots".to_string(),
        };
        match e {
            Error::InvalidCertificate(c) => match c {
                CertificateError::UnknownIssuer => format!(
                    "TLS: the server's certificate is signed by no CA of {trusted} (untrusted \
                     issuer): give the CA that signed it as {ca_option}=FILE — for a \
                     self-signed server, its certificate itself"
                ),
                c if ca_as_end_entity(c) => format!(
                    "TLS: the server presents a CA certificate as its own, and that certificate \
                     is not in {trusted}: for a self-signed server put exactly its certificate \
                     in {ca_option}=FILE; otherwise give the server a certificate signed by a CA"
                ),
                CertificateError::NotValidForNameContext {
                    expected,
                    presented,
                } => format!(
                    "TLS: the server's certificate is for {}, not {}: connect by a name it \
                     holds, or give the server a certificate whose subjectAltName holds {}",
                    if presented.is_empty() {
                        "no name (no subjectAltName)".to_string()
                    } else {
                        presented
                            .iter()
                            .map(|p| presented_name(p))
                            .collect::<Vec<_>>()
                            .join(", ")
                    },
                    name(expected),
                    name(expected)
                ),
                CertificateError::NotValidForName => "TLS: the server's certificate does not \
                     name the host connected to: connect by a name it holds, or give the server \
                     a certificate for this host"
                    .to_string(),
                CertificateError::ExpiredContext { time, not_after } => format!(
                    "TLS: the server's certificate expired at {} (now {}): renew it on the \
                     server",
                    date(not_after.as_secs()),
                    date(time.as_secs())
                ),
                CertificateError::Expired => {
                    "TLS: the server's certificate has expired: renew it on the server".into()
                }
                CertificateError::NotValidYetContext { time, not_before } => format!(
                    "TLS: the server's certificate is valid only from {} (now {}): check the \
                     clocks of client and server",
                    date(not_before.as_secs()),
                    date(time.as_secs())
                ),
                CertificateError::NotValidYet => "TLS: the server's certificate is not valid \
                     yet: check the clocks of client and server"
                    .into(),
                CertificateError::InvalidPurpose
                | CertificateError::InvalidPurposeContext { .. } => {
                    "TLS: the server's certificate is not for TLS servers (its \
                     extendedKeyUsage lacks serverAuth): give the server a server certificate"
                        .into()
                }
                CertificateError::Revoked => {
                    "TLS: the server's certificate is revoked: give the server a new one".into()
                }
                CertificateError::BadSignature => format!(
                    "TLS: the server's certificate chain has a bad signature (it does not come \
                     from the CA it names): check the server's certificate against {trusted}"
                ),
                CertificateError::BadEncoding => {
                    "TLS: the server's certificate is not valid DER: check the server's \
                     certificate file"
                        .into()
                }
                other => format!(
                    "TLS: the server's certificate was refused: {}",
                    short(other)
                ),
            },
            Error::InvalidMessage(_) | Error::InappropriateMessage { .. } => format!(
                "TLS: the server did not answer in TLS (a plain-text server?): {plain}, or \
                 turn TLS on in the server"
            ),
            Error::AlertReceived(a) => format!(
                "TLS: the server refused the handshake ({}): check that it accepts this \
                 client (a client certificate it trusts, a TLS version it speaks)",
                short(a)
            ),
            other => format!("TLS: {other}"),
        }
    }

    /// One line for an I/O failure during the TLS handshake (no TLS error:
    /// the server closed the connection, or said nothing in time — what a
    /// plain-text server does with a TLS hello). `plain`: as for [`explain`].
    pub(crate) fn explain_handshake_io(e: &std::io::Error, plain: &str) -> String {
        use std::io::ErrorKind::*;
        let what = match e.kind() {
            WouldBlock | TimedOut => "the server did not answer the TLS handshake in time",
            UnexpectedEof | ConnectionReset | ConnectionAborted | BrokenPipe => {
                "the server closed the connection during the TLS handshake"
            }
            _ => return format!("TLS handshake: {e}"),
        };
        format!("TLS: {what} (a plain-text server?): {plain}, or turn TLS on in the server")
    }

    /// A Debug name without the struct noise.
    fn short(x: &dyn std::fmt::Debug) -> String {
        format!("{x:?}")
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ')
            .collect()
    }

    /// webpki's presented names (`IpAddress(10.0.0.1)`, `DnsName("a.b")`)
    /// as a user writes them.
    fn presented_name(p: &str) -> String {
        let inner = |pre: &str, post: &str| p.strip_prefix(pre).and_then(|r| r.strip_suffix(post));
        inner("IpAddress(", ")")
            .or_else(|| inner("DnsName(\"", "\")"))
            .or_else(|| inner("DnsName(", ")"))
            .unwrap_or(p)
            .to_string()
    }

    fn name(n: &ServerName<'_>) -> String {
        match n {
            ServerName::DnsName(d) => d.as_ref().to_string(),
            ServerName::IpAddress(ip) => IpAddr::from(*ip).to_string(),
            other => format!("{other:?}"),
        }
    }

    /// `2026-11-26 10:25:00 UTC`.
    pub(crate) fn date(secs: u64) -> String {
        let days = (secs / 86_400) as i64;
        let s = secs % 86_400;
        let (y, m, d) = der::civil_from_days(days);
        format!(
            "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
            s / 3600,
            s / 60 % 60,
            s % 60
        )
    }

    /// Just enough DER to read a certificate's validity and whether its
    /// extendedKeyUsage (if any) allows serverAuth.
    pub(crate) mod der {
        /// What the pinned check needs of a certificate.
        #[derive(Debug, PartialEq, Eq)]
        pub(crate) struct Facts {
            /// notBefore, seconds since the Unix epoch.
            pub(crate) not_before: i64,
            /// notAfter, seconds since the Unix epoch.
            pub(crate) not_after: i64,
            /// No extendedKeyUsage, or one with serverAuth or anyExtendedKeyUsage.
            pub(crate) server_auth: bool,
        }

        /// One TLV: (tag, contents, rest).
        fn tlv(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
            let (&tag, rest) = input.split_first()?;
            let (&first, mut rest) = rest.split_first()?;
            let len = if first < 0x80 {
                usize::from(first)
            } else {
                let n = usize::from(first & 0x7F);
                if n == 0 || n > 4 || rest.len() < n {
                    return None;
                }
                let mut len = 0usize;
                for &b in &rest[..n] {
                    len = (len << 8) | usize::from(b);
                }
                rest = &rest[n..];
                len
            };
            if rest.len() < len {
                return None;
            }
            Some((tag, &rest[..len], &rest[len..]))
        }

        const SEQUENCE: u8 = 0x30;
        const OID_EKU: &[u8] = &[0x55, 0x1D, 0x25];
        const OID_SERVER_AUTH: &[u8] = &[0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01];
        const OID_ANY_EKU: &[u8] = &[0x55, 0x1D, 0x25, 0x00];

        /// The facts of a DER certificate; `None` if it does not parse.
        pub(crate) fn facts(cert: &[u8]) -> Option<Facts> {
            let (SEQUENCE, cert, _) = tlv(cert)? else {
                return None;
            };
            let (SEQUENCE, tbs, _) = tlv(cert)? else {
                return None;
            };
            let mut rest = tbs;
            // [0] EXPLICIT version, optional.
            if rest.first() == Some(&0xA0) {
                rest = tlv(rest)?.2;
            }
            let (_serial, _, r) = tlv(rest)?;
            let (_sig_alg, _, r) = tlv(r)?;
            let (_issuer, _, r) = tlv(r)?;
            let (SEQUENCE, validity, r) = tlv(r)? else {
                return None;
            };
            let (t1, b1, v) = tlv(validity)?;
            let (t2, b2, _) = tlv(v)?;
            let not_before = time(t1, b1)?;
            let not_after = time(t2, b2)?;
            let (_subject, _, r) = tlv(r)?;
            let (_spki, _, mut r) = tlv(r)?;
            let mut server_auth = true;
            while !r.is_empty() {
                let (tag, body, next) = tlv(r)?;
                r = next;
                if tag != 0xA3 {
                    continue;
                }
                let (SEQUENCE, mut exts, _) = tlv(body)? else {
                    return None;
                };
                while !exts.is_empty() {
                    let (_, ext, next) = tlv(exts)?;
                    exts = next;
                    let (0x06, oid, mut e) = tlv(ext)? else {
                        return None;
                    };
                    if oid != OID_EKU {
                        continue;
                    }
                    if e.first() == Some(&0x01) {
                        e = tlv(e)?.2; // critical
                    }
                    let (0x04, value, _) = tlv(e)? else {
                        return None;
                    };
                    let (SEQUENCE, mut purposes, _) = tlv(value)? else {
                        return None;
                    };
                    server_auth = false;
                    while !purposes.is_empty() {
                        let (_, p, next) = tlv(purposes)?;
                        purposes = next;
                        server_auth |= p == OID_SERVER_AUTH || p == OID_ANY_EKU;
                    }
                }
            }
            Some(Facts {
                not_before,
                not_after,
                server_auth,
            })
        }

        /// UTCTime (`YYMMDDHHMMSSZ`, years 1950–2049) or GeneralizedTime
        /// (`YYYYMMDDHHMMSSZ`) in seconds since the epoch.
        fn time(tag: u8, s: &[u8]) -> Option<i64> {
            let digits = |b: &[u8]| -> Option<i64> {
                b.iter().try_fold(0i64, |n, &c| {
                    c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0'))
                })
            };
            let (year, rest) = match (tag, s.len()) {
                (0x17, 13) => {
                    let yy = digits(&s[..2])?;
                    (if yy < 50 { 2000 + yy } else { 1900 + yy }, &s[2..])
                }
                (0x18, 15) => (digits(&s[..4])?, &s[4..]),
                _ => return None,
            };
            if rest[10] != b'Z' {
                return None;
            }
            let f = |i: usize| digits(&rest[i..i + 2]);
            let (mo, d, h, mi, se) = (f(0)?, f(2)?, f(4)?, f(6)?, f(8)?);
            if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || se > 60 {
                return None;
            }
            Some(days_from_civil(year, mo, d) * 86_400 + h * 3600 + mi * 60 + se)
        }

        pub(crate) use lexikey::value::literal::{civil_from_days, days_from_civil};
    }
}

#[cfg(all(test, feature = "redis"))]
#[path = "tls_tests.rs"]
mod tests;
