//! A self-signed server certificate given through the trust store the
//! environment names (`SSL_CERT_FILE`, `SSL_CERT_DIR`, as redis-cli, psql
//! with `sslrootcert=system` and etcdctl read them) is accepted exactly as
//! one given as `cacert=`; another self-signed certificate there is still
//! refused, with a line that names the variable.
//!
//! The servers are the `self-signed` set of `scripts/stores.sh`:
//!
//! ```text
//! scripts/with-stores.sh cargo test -p lexikey-stores --features all-servers --test ssl_cert_file
//! ```
//!
//! The variables are process-wide, so each case runs in a child process
//! (this test binary again, running only [`child`]) with its own
//! environment; no test here sets a variable in its own process.

#![allow(missing_docs)]
#![cfg(any(feature = "redis", feature = "postgres", feature = "etcd"))]

use std::process::Command;

use lexikey::KeyRange;

fn var(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| {
        panic!("{name} is not set: run these tests through scripts/with-stores.sh")
    })
}

/// The URL the child opens (set only for the child).
const CHILD_URL: &str = "LEXIKEY_TEST_CHILD_URL";

/// Run as a child by [`open_with`]: opens `$LEXIKEY_TEST_CHILD_URL`, does
/// one write, read and delete, and prints `OK` or `ERR <message>` on a line
/// of its own. Without the variable (a normal test run) it does nothing.
#[test]
fn child() {
    let Ok(url) = std::env::var(CHILD_URL) else {
        return;
    };
    let r = lexikey_stores::open(&url).and_then(|s| {
        assert!(s.put_if_absent(b"k", b"v")?);
        assert_eq!(s.get(b"k")?, Some(b"v".to_vec()));
        assert_eq!(s.first_key(&KeyRange::all())?, Some(b"k".to_vec()));
        assert!(s.delete(b"k")?);
        Ok(())
    });
    match r {
        Ok(()) => println!("\nLEXIKEY-CHILD OK"),
        Err(e) => println!("\nLEXIKEY-CHILD ERR {e}"),
    }
}

/// Opens `url` in a child process whose environment holds only the trust
/// store `env` names (no other CA variable): `Ok(())` or the error line.
fn open_with(url: &str, env: &[(&str, &str)]) -> Result<(), String> {
    let exe = std::env::current_exe().expect("current_exe");
    let mut c = Command::new(exe);
    c.args(["child", "--exact", "--nocapture", "--test-threads=1"]);
    for v in [
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
        "ETCDCTL_CACERT",
        "PGSSLROOTCERT",
    ] {
        c.env_remove(v);
    }
    c.env(CHILD_URL, url);
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().expect("run the child test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("LEXIKEY-CHILD "))
        .unwrap_or_else(|| {
            panic!(
                "the child printed no result ({}):\n{stdout}\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            )
        });
    match line.strip_prefix("ERR ") {
        Some(e) => Err(e.to_string()),
        None if line == "OK" => Ok(()),
        None => panic!("child: {line}"),
    }
}

fn with_ns(url: &str, test: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!(
        "{url}{sep}ns=t_sslcertfile_{test}_{}&timeout_ms=3000",
        std::process::id()
    )
}

/// The self-signed certificate in `SSL_CERT_FILE` and (a directory holding
/// a copy of it) in `SSL_CERT_DIR`: `url` works; the other self-signed
/// certificate there: refused, one line naming the variable.
fn check(url: &str, what: &str) {
    let cert = var("LEXIKEY_SELF_SIGNED_CERT");
    let other = var("LEXIKEY_SELF_SIGNED_OTHER");
    if let Err(e) = open_with(url, &[("SSL_CERT_FILE", &cert)]) {
        panic!("{what}: SSL_CERT_FILE holding the server's certificate: {e}");
    }
    let dir = std::env::temp_dir().join(format!(
        "lexikey-ssl-cert-dir-{}-{}",
        std::process::id(),
        what.replace(' ', "-")
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(&cert, dir.join("server.pem")).unwrap();
    let dir_s = dir.to_str().unwrap();
    let r = open_with(url, &[("SSL_CERT_DIR", dir_s)]);
    std::fs::remove_dir_all(&dir).unwrap();
    if let Err(e) = r {
        panic!("{what}: SSL_CERT_DIR holding the server's certificate: {e}");
    }
    let e = open_with(url, &[("SSL_CERT_FILE", &other)])
        .err()
        .unwrap_or_else(|| panic!("{what}: SSL_CERT_FILE with another certificate: opened"));
    eprintln!("{what}: {e}");
    assert!(
        e.contains("the server presents a CA certificate as its own, and that certificate is not in the system's trusted roots")
            && e.contains(&format!("SSL_CERT_FILE={other}")),
        "{what}: {e}"
    );
    assert!(!e.contains('\n'), "{what}: {e}");
}

#[cfg(feature = "redis")]
#[test]
fn redis() {
    let u = var("LEXIKEY_REDIS_SELF_SIGNED_URL");
    check(&with_ns(&u, "redis"), "redis");
}

/// `sslrootcert=system`: the system's store, which the variables name (as
/// libpq's OpenSSL reads them).
#[cfg(feature = "postgres")]
#[test]
fn postgres() {
    let u = var("LEXIKEY_POSTGRES_SELF_SIGNED_URL");
    for mode in ["verify-full", "verify-ca"] {
        let url = with_ns(&format!("{u}?sslmode={mode}&sslrootcert=system"), "pg");
        check(&url, &format!("postgres {mode}"));
    }
}

/// No `cacert=` and no `ETCDCTL_CACERT`: the variables (as etcdctl reads
/// them).
#[cfg(feature = "etcd")]
#[test]
fn etcd() {
    let u = var("LEXIKEY_ETCD_SELF_SIGNED_URL");
    check(&with_ns(&u, "etcd"), "etcd");
}
