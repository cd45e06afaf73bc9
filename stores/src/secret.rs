//! Secrets in store URLs — passwords and tokens — are never shown.
//!
//! What this module promises: every text this crate shows a user (error
//! messages, `Display` and `Debug` of [`StoreSpec`](crate::StoreSpec),
//! [`ClientUrl`](crate::ClientUrl) and the adapters) has the password of a
//! URL replaced by `***`:
//!
//! 1. [`redact_url`] rewrites the user-info part `USER:PASSWORD@` of
//!    `SCHEME://…` (and of a server scheme written without `//`) to
//!    `USER:***@`, and the value of every secret option (`password=`,
//!    `sslpassword=`, `token=`, `auth=`) to `***`. It works on text that
//!    does not parse too (that is what error messages echo), and when in
//!    doubt it hides more: the user info ends at the **last** `@` of the
//!    URL, so a password holding an unencoded `/`, `?` or `@` is still
//!    hidden.
//! 2. Messages that may quote a secret some other way (a client library's
//!    error, a percent-decoded password) go through [`Scrub`], which
//!    replaces every occurrence of each secret it knows — as written and
//!    percent-decoded — with `***`. Secrets shorter than
//!    [`MIN_SCRUBBED_LEN`] bytes are not searched for in free text (a
//!    one-letter password would blank out every word holding that letter);
//!    the URL itself is still redacted by step 1.
//!
//! The full URL, password and all, is only ever built for the client
//! library ([`StoreSpec::connect_url`](crate::StoreSpec::connect_url)), and
//! a parsed password is a [`Secret`], whose `Debug` and `Display` print
//! `***`.

use std::borrow::Cow;
use std::fmt;

/// What a hidden password or token is shown as.
pub const REDACTED: &str = "***";

/// Options whose values are secrets (matched without regard to case).
pub(crate) const SECRET_OPTIONS: &[&str] = &["password", "sslpassword", "token", "auth"];

/// Secrets shorter than this are not searched for in free text, such as a
/// client library's error message (a one-letter password would blank out
/// every word holding that letter); the URL itself is still redacted.
pub const MIN_SCRUBBED_LEN: usize = 4;

/// Schemes whose URLs may carry `USER:PASSWORD@` even without `//`.
const SERVER_SCHEMES: &[&str] = &[
    "redis",
    "rediss",
    "postgres",
    "postgresql",
    "etcd",
    "etcd+https",
];

/// A password or token. `Debug` and `Display` print `***`; only
/// [`Secret::expose`] gives the text, for handing it to a server.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret.
    pub fn new(s: impl Into<String>) -> Secret {
        Secret(s.into())
    }

    /// The secret itself — for the server, never for a message.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

/// Whether option `name` holds a secret.
pub(crate) fn is_secret_option(name: &str) -> bool {
    SECRET_OPTIONS.iter().any(|s| s.eq_ignore_ascii_case(name))
}

/// Where the user info `USER[:PASSWORD]` of `url` is: `(start, end)` with
/// `url[end] == '@'`, or `None`. The user info starts after `SCHEME://`
/// (or `SCHEME:` for a server scheme; else after the first `://`) and ends
/// at the last `@`.
fn userinfo_span(url: &str) -> Option<(usize, usize)> {
    let scheme = url.split_once(':').map(|(s, _)| s);
    let start = match scheme {
        Some(s) if url[s.len() + 1..].starts_with("//") => s.len() + 3,
        Some(s) if SERVER_SCHEMES.contains(&s) => s.len() + 1,
        _ => url.find("://")? + 3,
    };
    let end = start + url[start..].rfind('@')?;
    Some((start, end))
}

/// The byte ranges of the values of secret options in `url`: after each
/// `?` or `&` that starts `NAME=` with a secret `NAME`, up to the next `&`
/// or the end (a stray `?` in a value does not hide the next option).
fn secret_value_spans(url: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    for (i, c) in url.char_indices() {
        if c != '?' && c != '&' {
            continue;
        }
        let rest = &url[i + 1..];
        let Some(eq) = rest.find('=') else {
            continue;
        };
        let name = &rest[..eq];
        if name.contains(['&', '?']) || !is_secret_option(name) {
            continue;
        }
        let start = i + 1 + eq + 1;
        let end = url[start..].find('&').map_or(url.len(), |e| start + e);
        spans.push((start, end));
    }
    spans
}

/// The password part of `url`'s user info (`USER:PASSWORD@`), as written.
fn url_password(url: &str) -> Option<&str> {
    let (start, end) = userinfo_span(url)?;
    url[start..end].split_once(':').map(|(_, p)| p)
}

/// `url` with its password and secret option values replaced by `***`.
/// Text that is not a URL comes back unchanged.
///
/// The user info `USER:PASSWORD@` of `SCHEME://…` (or of a server scheme
/// written without `//`) becomes `USER:***@`, and the value of every secret
/// option (`password=`, `sslpassword=`, `token=`, `auth=`, after any `?` or
/// `&`) becomes `***`. It works on text that does not parse (error messages
/// echo such text), and when in doubt it hides more: the user info ends at
/// the **last** `@`, so a password with an unencoded `/`, `?` or `@` is
/// still hidden.
///
/// ```
/// use lexikey_stores::redact_url;
/// assert_eq!(redact_url("postgres://alice:s3cret@db:5432/app"), "postgres://alice:***@db:5432/app");
/// assert_eq!(redact_url("redis://:pw@h:6379?ns=a"), "redis://:***@h:6379?ns=a");
/// assert_eq!(redact_url("postgres://u@h/db?password=pw&ns=a"), "postgres://u@h/db?password=***&ns=a");
/// assert_eq!(redact_url("redb:/tmp/x.redb"), "redb:/tmp/x.redb");
/// ```
pub fn redact_url(url: &str) -> Cow<'_, str> {
    let mut out: Cow<'_, str> = Cow::Borrowed(url);
    if let Some((start, end)) = userinfo_span(url) {
        if let Some(colon) = url[start..end].find(':') {
            out = Cow::Owned(format!(
                "{}{REDACTED}{}",
                &url[..start + colon + 1],
                &url[end..]
            ));
        }
    }
    match redact_options(&out) {
        Cow::Borrowed(_) => out,
        Cow::Owned(s) => Cow::Owned(s),
    }
}

/// The values of secret options (`?password=…&`) in `url` replaced.
pub(crate) fn redact_options(url: &str) -> Cow<'_, str> {
    let spans = secret_value_spans(url);
    if spans.is_empty() {
        return Cow::Borrowed(url);
    }
    let mut out = String::with_capacity(url.len());
    let mut at = 0;
    for (start, end) in spans {
        if start <= at {
            // Inside (or at the very end of) a value already hidden: a
            // `?password=` within another secret's value.
            continue;
        }
        out.push_str(&url[at..start]);
        out.push_str(REDACTED);
        at = end;
    }
    out.push_str(&url[at..]);
    Cow::Owned(out)
}

/// Decodes `%XX` escapes (a malformed escape stays as written); `None`
/// when the result is not UTF-8.
pub(crate) fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).copied().and_then(hex),
            b.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// Percent-encodes every byte but `A–Z a–z 0–9 - . _ ~` (user info).
pub(crate) fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The secrets a set of messages must not show, and the means to hide
/// them there (see the [module docs](self)).
#[derive(Clone, Default, PartialEq, Eq)]
pub(crate) struct Scrub {
    secrets: Vec<String>,
}

impl fmt::Debug for Scrub {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Scrub({} secrets)", self.secrets.len())
    }
}

impl Scrub {
    /// The secrets in `url`: its password and secret option values, each
    /// as written and percent-decoded.
    pub(crate) fn of_url(url: &str) -> Scrub {
        let mut s = Scrub::default();
        if let Some(p) = url_password(url) {
            s.add(p);
            // A password with an unencoded `@`, `/`, `?`, `&` or `#` runs
            // (as `redact_url` reads it) up to the last `@`, but a parser
            // that splits at the first of them can echo a piece of it (a
            // garbled `bigtable://u:pw@x://p/i` has the project
            // `u:pw@x:`): each piece is a secret too.
            for piece in p.split(['@', '/', '?', '&', '#']) {
                s.add(piece);
            }
        }
        for (start, end) in secret_value_spans(url) {
            s.add(&url[start..end]);
        }
        s
    }

    /// Adds a secret (and its percent-decoded form).
    pub(crate) fn add(&mut self, secret: &str) {
        let decoded = percent_decode(secret);
        for v in std::iter::once(secret).chain(decoded.as_deref()) {
            if v.len() >= MIN_SCRUBBED_LEN && !self.secrets.iter().any(|s| s == v) {
                self.secrets.push(v.to_string());
            }
        }
        // Longest first, so a secret holding another is replaced whole.
        self.secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    }

    /// `msg` with every secret replaced by `***`.
    pub(crate) fn scrub(&self, msg: &str) -> String {
        let mut out = msg.to_string();
        for s in &self.secrets {
            if out.contains(s.as_str()) {
                out = out.replace(s.as_str(), REDACTED);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_of_a_password_with_delimiters_are_scrubbed() {
        // The fuzz target parse_store_url found a project that held the
        // first piece of such a password.
        let url = "bigtable://u:FuzzS3cret-pw@igtable://p/i?cret-pw@h";
        let scrub = Scrub::of_url(url);
        assert_eq!(
            scrub.scrub("bad project `u:FuzzS3cret-pw@igtable:`"),
            "bad project `u:***@***`"
        );
    }

    #[test]
    fn urls_lose_their_passwords() {
        for (url, shown) in [
            (
                "postgres://alice:pw1234@h:1/db",
                "postgres://alice:***@h:1/db",
            ),
            ("postgresql://alice@h:1/db", "postgresql://alice@h:1/db"),
            ("redis://u:p%40ss@h:1/0?ns=a", "redis://u:***@h:1/0?ns=a"),
            ("rediss://:pw@h:1", "rediss://:***@h:1"),
            // Unencoded `/`, `?`, `@` in the password: still hidden.
            ("postgres://a:x/y?z@w@h/db", "postgres://a:***@h/db"),
            (
                "etcd+https://root:pw@a:1,b:2?ns=x",
                "etcd+https://root:***@a:1,b:2?ns=x",
            ),
            ("redis:u:pw@h", "redis:u:***@h"),
            ("redb:/a:b@c", "redb:/a:b@c"),
            (
                "postgres://u@h/d?PassWord=x&sslmode=require",
                "postgres://u@h/d?PassWord=***&sslmode=require",
            ),
            ("", ""),
            ("::@", "::@"),
            ("a://:@", "a://:***@"),
            ("redis:u:pw@x://y", "redis:u:***@x://y"),
            ("x:y://u:pw@h", "x:y://u:***@h"),
            (
                "postgres://a@h?a=b?password=pw&c=d",
                "postgres://a@h?a=b?password=***&c=d",
            ),
            (
                "postgres://a@h?password?password=pw",
                "postgres://a@h?password?password=***",
            ),
            ("postgres://a@h?token=&x=1", "postgres://a@h?token=***&x=1"),
            // A `?password=` at the end of another secret's value: one
            // `***`, not two (found by fuzz target parse_store_url).
            (
                "redis:u:pw@h?password=s+://r?password=",
                "redis:u:***@h?password=***",
            ),
        ] {
            assert_eq!(redact_url(url), shown, "{url}");
        }
    }

    #[test]
    fn scrub_hides_written_and_decoded_forms() {
        let s = Scrub::of_url("postgres://alice:p%40ssw0rd@h/db?token=tok12345");
        let msg = "auth p%40ssw0rd / p@ssw0rd / tok12345 failed";
        assert_eq!(s.scrub(msg), "auth *** / *** / *** failed");
        // Short secrets are not searched for.
        let s = Scrub::of_url("redis://u:pw@h");
        assert_eq!(s.scrub("pw"), "pw");
        assert_eq!(
            format!("{:?} {}", Secret::new("x"), Secret::new("x")),
            "*** ***"
        );
    }

    #[test]
    fn percent_coding_round_trips() {
        for s in ["", "plain", "p@ss:w/rd?&=%", "é"] {
            assert_eq!(percent_decode(&percent_encode(s)).as_deref(), Some(s));
        }
        assert_eq!(percent_decode("%4").as_deref(), Some("%4"));
        assert_eq!(percent_decode("%ff"), None);
    }
}
