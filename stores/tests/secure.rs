//! The secure servers of `scripts/stores.sh` (TLS only, passwords on):
//! what must work and what must fail, and that no failure shows a secret.
//!
//! The conformance suite runs over these servers too
//! (`stores/tests/conformance.rs`, `*_tls`); this file covers the rest:
//! a wrong password, a server certificate from a CA the client does not
//! trust, and a plain-text client against a TLS-only server each fail with
//! one clear line that shows neither the password nor the wrong one; the
//! stores' own environment variables (`REDISCLI_AUTH`, `PGPASSWORD`,
//! `ETCDCTL_USER`, …) stand in for the URL's credentials; an etcd token
//! that expired is replaced without the caller noticing.
//!
//! ```text
//! scripts/with-stores.sh cargo test -p lexikey-stores --features all-servers --test secure
//! ```
//!
//! Like the conformance suite, a test whose variable is missing fails.

#![allow(missing_docs)]
#![cfg(any(feature = "redis", feature = "postgres", feature = "etcd"))]

use lexikey::store::{Store, StoreError};
use lexikey::KeyRange;

fn var(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| {
        panic!("{name} is not set: run these tests through scripts/with-stores.sh")
    })
}

/// The run's password (every secure server has it).
fn password() -> String {
    var("LEXIKEY_TLS_PASSWORD")
}

/// A password no server has, recognisable in any output.
const WRONG: &str = "Wr0ngPassw0rd-lexikey-test";

/// A namespace of its own for `test`.
fn ns(test: &str) -> String {
    format!("t_{test}_{}", std::process::id())
}

fn with_ns(url: &str, test: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}ns={}&timeout_ms=3000", ns(test))
}

/// Opens `url`, which must fail: returns the error after checking that its
/// message is one line, names the store, and shows no secret.
fn open_fails(url: &str, what: &str) -> StoreError {
    let e = match lexikey_stores::open(url) {
        Ok(_) => panic!("{what}: {} opened", lexikey_stores::redact_url(url)),
        Err(e) => e,
    };
    let msg = e.to_string();
    assert!(!msg.contains('\n'), "{what}: not one line: {msg}");
    assert!(!msg.is_empty(), "{what}");
    for secret in [password(), WRONG.to_string()] {
        assert!(!msg.contains(&secret), "{what}: the password shows: {msg}");
        assert!(
            !format!("{e:?}").contains(&secret),
            "{what}: Debug shows it: {e:?}"
        );
    }
    e
}

/// `url` with its password replaced by [`WRONG`].
fn wrong_password(url: &str) -> String {
    let pw = password();
    assert!(url.contains(&pw), "the URL has the run's password");
    url.replace(&pw, WRONG)
}

/// `url` with the CA swapped for one that signed nothing of ours.
fn untrusted(url: &str) -> String {
    let (ca, other) = (var("LEXIKEY_TLS_CA"), var("LEXIKEY_TLS_OTHER_CA"));
    assert!(url.contains(&ca), "the URL names the CA");
    url.replace(&ca, &other)
}

/// Puts, reads back and deletes a key: the store works.
fn works(s: &dyn Store) {
    assert!(s.put_if_absent(b"k", b"v").unwrap());
    assert_eq!(s.get(b"k").unwrap(), Some(b"v".to_vec()));
    assert_eq!(s.first_key(&KeyRange::all()).unwrap(), Some(b"k".to_vec()));
    assert!(s.delete(b"k").unwrap());
}

fn open(url: &str) -> Box<dyn Store> {
    lexikey_stores::open(url)
        .unwrap_or_else(|e| panic!("open {}: {e}", lexikey_stores::redact_url(url)))
}

/// A certificate from a CA not in the CA file: one readable line that
/// names the file and says what to give instead, never a Debug dump.
fn assert_untrusted_issuer(e: &StoreError) {
    assert!(!e.retryable, "{e}");
    let other = var("LEXIKEY_TLS_OTHER_CA");
    assert!(
        e.message.contains("signed by no CA of the CA file")
            && e.message.contains("(untrusted issuer)")
            && e.message.contains(&other),
        "{e}"
    );
    assert_no_debug(&e.message);
}

/// No Debug output of rustls or webpki in a message.
fn assert_no_debug(m: &str) {
    for debris in [
        "UnknownIssuer",
        "CaUsedAsEndEntity",
        "OtherError",
        "Other(",
        "{ ",
    ] {
        assert!(!m.contains(debris), "Debug noise {debris:?} in: {m}");
    }
}

fn contains_any(msg: &str, words: &[&str]) -> bool {
    let m = msg.to_lowercase();
    words.iter().any(|w| m.contains(&w.to_lowercase()))
}

#[cfg(feature = "redis")]
mod redis {
    use super::*;

    fn url(test: &str) -> String {
        with_ns(&var("LEXIKEY_REDIS_TLS_URL"), test)
    }

    #[test]
    fn acl_user_and_requirepass_over_tls() {
        let acl = url("acl");
        assert!(acl.starts_with("rediss://lexikey:"), "an ACL user");
        works(&*open(&acl));
        // requirepass: the default user, password only.
        let default_user = acl.replacen("rediss://lexikey:", "rediss://:", 1);
        works(&*open(&default_user));
    }

    #[test]
    fn wrong_password_fails_in_one_line() {
        let e = open_fails(&wrong_password(&url("wrongpw")), "redis wrong password");
        assert!(!e.retryable, "{e}");
        assert!(contains_any(&e.message, &["WRONGPASS", "password"]), "{e}");
    }

    #[test]
    fn untrusted_certificate_fails_in_one_line() {
        let e = open_fails(&untrusted(&url("untrusted")), "redis untrusted CA");
        assert_untrusted_issuer(&e);
    }

    #[test]
    fn plain_text_against_tls_only_fails_in_one_line() {
        // redis:// to the TLS port, no TLS options.
        let tls = url("plain");
        let base = tls
            .split('?')
            .next()
            .unwrap()
            .replacen("rediss://", "redis://", 1);
        let e = open_fails(&with_ns(&base, "plain"), "redis plain text");
        assert!(contains_any(&e.message, &["rediss://"]), "{e}");
    }
}

#[cfg(feature = "postgres")]
mod postgres {
    use super::*;

    fn url(test: &str) -> String {
        with_ns(&var("LEXIKEY_POSTGRES_TLS_URL"), test)
    }

    #[test]
    fn scram_over_verified_tls() {
        let u = url("scram");
        assert!(u.contains("sslmode=verify-full"));
        works(&*open(&u));
        // require without a root certificate: encrypted, not verified.
        let base = u.split('?').next().unwrap().to_string();
        works(&*open(&with_ns(
            &format!("{base}?sslmode=require"),
            "require",
        )));
        // verify-ca passes a certificate whatever its name; verify-full
        // checks the name: "localhost" is in the certificate too.
        let ca = var("LEXIKEY_TLS_CA");
        works(&*open(&with_ns(
            &format!("{base}?sslmode=verify-ca&sslrootcert={ca}"),
            "verifyca",
        )));
        let localhost = base.replacen("@127.0.0.1:", "@localhost:", 1);
        works(&*open(&with_ns(
            &format!("{localhost}?sslmode=verify-full&sslrootcert={ca}"),
            "localhost",
        )));
    }

    #[test]
    fn wrong_password_fails_in_one_line() {
        let e = open_fails(&wrong_password(&url("wrongpw")), "postgres wrong password");
        assert!(!e.retryable, "{e}");
        assert!(
            contains_any(&e.message, &["password authentication failed"]),
            "{e}"
        );
    }

    #[test]
    fn untrusted_certificate_fails_in_one_line() {
        let e = open_fails(&untrusted(&url("untrusted")), "postgres untrusted CA");
        assert_untrusted_issuer(&e);
    }

    #[test]
    fn plain_text_against_tls_only_fails_in_one_line() {
        let base = url("plain").split('?').next().unwrap().to_string();
        let e = open_fails(
            &with_ns(&format!("{base}?sslmode=disable"), "plain"),
            "postgres plain text",
        );
        // pg_hba.conf has hostssl lines only.
        assert!(
            contains_any(&e.message, &["no encryption", "pg_hba"]),
            "{e}"
        );
    }
}

#[cfg(feature = "etcd")]
mod etcd {
    use super::*;

    fn url(test: &str) -> String {
        with_ns(&var("LEXIKEY_ETCD_TLS_URL"), test)
    }

    #[test]
    fn wrong_password_fails_in_one_line() {
        let e = open_fails(&wrong_password(&url("wrongpw")), "etcd wrong password");
        assert!(!e.retryable, "{e}");
        assert!(contains_any(&e.message, &["authentication failed"]), "{e}");
    }

    #[test]
    fn untrusted_certificate_fails_in_one_line() {
        let e = open_fails(&untrusted(&url("untrusted")), "etcd untrusted CA");
        assert_untrusted_issuer(&e);
    }

    #[test]
    fn plain_text_against_tls_only_fails_in_one_line() {
        let u = url("plain").replacen("etcd+https://", "etcd://", 1);
        let base = u.split('?').next().unwrap();
        let e = open_fails(&with_ns(base, "plain"), "etcd plain text");
        assert!(contains_any(&e.message, &["etcd+https://"]), "{e}");
    }

    #[test]
    fn no_client_certificate_fails_in_one_line() {
        // --client-cert-auth: the server wants a client certificate.
        let u = url("nocert");
        let (base, _) = u.split_once('?').unwrap();
        let ca = var("LEXIKEY_TLS_CA");
        let _ = open_fails(
            &with_ns(&format!("{base}?cacert={ca}"), "nocert"),
            "etcd without a client certificate",
        );
    }

    #[test]
    fn expired_token_is_replaced() {
        // scripts/stores.sh runs this node with --auth-token-ttl 2: after
        // 3 idle seconds the token is gone, and requests still succeed.
        let s = open(&url("ttl"));
        assert!(s.put_if_absent(b"before", b"1").unwrap());
        std::thread::sleep(std::time::Duration::from_secs(3));
        assert_eq!(s.get(b"before").unwrap(), Some(b"1".to_vec()));
        assert!(s.put_if_absent(b"after", b"2").unwrap());
        assert_eq!(s.scan(&KeyRange::all(), 10).unwrap().len(), 2);
    }

    #[test]
    fn cluster_members_each_accept_the_store() {
        // Simple tokens are per member: failing over to another member
        // means a new token. Open once per member order.
        let u = with_ns(&var("LEXIKEY_ETCD_CLUSTER_TLS_URL"), "members");
        let s = open(&u);
        works(&*s);
        let (head, query) = u.split_once('?').unwrap();
        let (auth, hosts) = head.rsplit_once('@').unwrap();
        let mut eps: Vec<&str> = hosts.split(',').collect();
        for _ in 0..eps.len() {
            eps.rotate_left(1);
            let one = format!("{auth}@{}?{query}", eps[0]);
            assert!(open(&one).get(b"nothing").unwrap().is_none());
        }
    }
}

/// The stores' own variables stand in for the URL's credentials. One test,
/// because it sets process-wide variables; no other test of this file
/// opens a URL without credentials.
#[test]
fn credentials_from_the_environment() {
    let pw = password();
    #[cfg(feature = "redis")]
    {
        // REDISCLI_AUTH, as redis-cli reads it: the default user's password.
        let u = var("LEXIKEY_REDIS_TLS_URL").replacen(&format!("lexikey:{pw}@"), "", 1);
        assert!(!u.contains(&pw));
        let u = with_ns(&u, "env");
        let _ = open_fails(&u, "redis without a password");
        std::env::set_var("REDISCLI_AUTH", &pw);
        works(&*open(&u));
        std::env::remove_var("REDISCLI_AUTH");
    }
    #[cfg(feature = "postgres")]
    {
        let u = var("LEXIKEY_POSTGRES_TLS_URL").replacen(&format!(":{pw}@"), "@", 1);
        assert!(!u.contains(&pw));
        let base = u.split('?').next().unwrap().to_string();
        let u = with_ns(&base, "env");
        let _ = open_fails(&u, "postgres without a password");
        std::env::set_var("PGPASSWORD", &pw);
        std::env::set_var("PGSSLMODE", "verify-full");
        std::env::set_var("PGSSLROOTCERT", var("LEXIKEY_TLS_CA"));
        works(&*open(&u));
        // PGSSLMODE is a default: the URL's sslmode wins.
        std::env::set_var("PGSSLROOTCERT", var("LEXIKEY_TLS_OTHER_CA"));
        let _ = open_fails(&u, "postgres, untrusted CA from PGSSLROOTCERT");
        works(&*open(&with_ns(
            &format!(
                "{base}?sslmode=require&sslrootcert={}",
                var("LEXIKEY_TLS_CA")
            ),
            "env2",
        )));
        for v in ["PGPASSWORD", "PGSSLMODE", "PGSSLROOTCERT"] {
            std::env::remove_var(v);
        }
    }
    #[cfg(feature = "etcd")]
    {
        // ETCDCTL_USER=USER:PASSWORD and ETCDCTL_CACERT/CERT/KEY.
        let full = var("LEXIKEY_ETCD_TLS_URL");
        let hosts = full.split_once('@').unwrap().1.split('?').next().unwrap();
        let u = with_ns(&format!("etcd+https://{hosts}"), "env");
        assert!(!u.contains(&pw));
        std::env::set_var("ETCDCTL_CACERT", var("LEXIKEY_TLS_CA"));
        std::env::set_var("ETCDCTL_CERT", var("LEXIKEY_TLS_CERT"));
        std::env::set_var("ETCDCTL_KEY", var("LEXIKEY_TLS_KEY"));
        let _ = open_fails(&u, "etcd without a user");
        std::env::set_var("ETCDCTL_USER", format!("root:{pw}"));
        works(&*open(&u));
        std::env::set_var("ETCDCTL_USER", "root");
        std::env::set_var("ETCDCTL_PASSWORD", &pw);
        works(&*open(&u));
        for v in [
            "ETCDCTL_USER",
            "ETCDCTL_PASSWORD",
            "ETCDCTL_CACERT",
            "ETCDCTL_CERT",
            "ETCDCTL_KEY",
        ] {
            std::env::remove_var(v);
        }
    }
}

/// The common small set-up (issue 23): one self-signed certificate made by
/// `openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -addext
/// subjectAltName=IP:127.0.0.1`, given to the server and, as the CA file,
/// to the client — as redis-cli, psql and etcdctl take it
/// (`scripts/stores.sh` checks each server's readiness with them). It
/// works; another self-signed certificate as the CA file, a name the
/// certificate does not hold, and a TLS client against a plain-text server
/// each fail with one line that says what to do.
mod self_signed {
    use super::*;

    fn cert() -> String {
        var("LEXIKEY_SELF_SIGNED_CERT")
    }

    fn other() -> String {
        var("LEXIKEY_SELF_SIGNED_OTHER")
    }

    /// `url` (no query) with the CA option `opt=file` and a namespace.
    fn with_ca(url: &str, opt: &str, file: &str, test: &str) -> String {
        with_ns(&format!("{url}?{opt}={file}"), test)
    }

    /// Another self-signed certificate as the CA file: refused, one line.
    fn refused(url: &str, what: &str) {
        let e = open_fails(url, what);
        eprintln!("{what}: {e}");
        assert!(!e.retryable, "{what}: {e}");
        assert!(
            e.message
                .contains("the server presents a CA certificate as its own, and that certificate is not in the CA file")
                && e.message.contains(&other()),
            "{what}: {e}"
        );
        assert_no_debug(&e.message);
    }

    /// By `localhost`, which the certificate does not name: refused.
    fn wrong_name(url: &str, what: &str) {
        let e = open_fails(url, what);
        eprintln!("{what}: {e}");
        assert!(!e.retryable, "{what}: {e}");
        assert!(
            e.message
                .contains("the server's certificate is for 127.0.0.1, not localhost"),
            "{what}: {e}"
        );
        assert_no_debug(&e.message);
    }

    /// TLS to a plain-text server: one line naming the plain scheme.
    /// (Retryable or not: a server that closes the connection or says
    /// nothing during the handshake may only be restarting.)
    fn plain(url: &str, what: &str, hint: &str) {
        let e = open_fails(url, what);
        eprintln!("{what}: {e}");
        assert!(e.message.contains(hint), "{what}: {e}");
        assert_no_debug(&e.message);
    }

    #[cfg(feature = "redis")]
    #[test]
    fn redis() {
        let u = var("LEXIKEY_REDIS_SELF_SIGNED_URL");
        works(&*open(&with_ca(&u, "cacert", &cert(), "self")));
        refused(&with_ca(&u, "cacert", &other(), "other"), "redis other");
        let localhost = u.replacen("//127.0.0.1:", "//localhost:", 1);
        wrong_name(
            &with_ca(&localhost, "cacert", &cert(), "name"),
            "redis localhost",
        );
        let plain_server = var("LEXIKEY_REDIS_URL").replacen("redis://", "rediss://", 1);
        plain(
            &with_ca(&plain_server, "cacert", &cert(), "plain"),
            "redis plain-text server",
            "(a plain-text server?): use redis:// for a server without TLS",
        );
    }

    #[cfg(feature = "postgres")]
    #[test]
    fn postgres() {
        let u = var("LEXIKEY_POSTGRES_SELF_SIGNED_URL");
        let c = cert();
        for mode in ["verify-full", "verify-ca", "require"] {
            let url = with_ns(&format!("{u}?sslmode={mode}&sslrootcert={c}"), "self");
            works(&*open(&url));
        }
        for mode in ["verify-full", "verify-ca", "require"] {
            let url = with_ns(
                &format!("{u}?sslmode={mode}&sslrootcert={}", other()),
                "other",
            );
            refused(&url, &format!("postgres {mode} other"));
        }
        // verify-ca does not check the name; verify-full does.
        let localhost = u.replacen("@127.0.0.1:", "@localhost:", 1);
        works(&*open(&with_ns(
            &format!("{localhost}?sslmode=verify-ca&sslrootcert={c}"),
            "ca",
        )));
        wrong_name(
            &with_ns(
                &format!("{localhost}?sslmode=verify-full&sslrootcert={c}"),
                "name",
            ),
            "postgres localhost",
        );
        let plain_server = var("LEXIKEY_POSTGRES_URL");
        plain(
            &with_ns(
                &format!("{plain_server}?sslmode=verify-full&sslrootcert={c}"),
                "plain",
            ),
            "postgres plain-text server",
            "the server does not offer TLS (ssl=off): use sslmode=disable",
        );
    }

    #[cfg(feature = "etcd")]
    #[test]
    fn etcd() {
        let u = var("LEXIKEY_ETCD_SELF_SIGNED_URL");
        works(&*open(&with_ca(&u, "cacert", &cert(), "self")));
        refused(&with_ca(&u, "cacert", &other(), "other"), "etcd other");
        let localhost = u.replacen("//127.0.0.1:", "//localhost:", 1);
        wrong_name(
            &with_ca(&localhost, "cacert", &cert(), "name"),
            "etcd localhost",
        );
        let plain_server = var("LEXIKEY_ETCD_URL").replacen("etcd://", "etcd+https://", 1);
        plain(
            &with_ca(&plain_server, "cacert", &cert(), "plain"),
            "etcd plain-text server",
            "(a plain-text server?): use etcd:// for an endpoint without TLS",
        );
    }
}
