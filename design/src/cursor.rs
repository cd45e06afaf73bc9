//! Page cursors: an opaque, URL-safe token that says where the next page of
//! a range read starts.
//!
//! A [`Cursor`] holds a format version, the schema's [`Fingerprint`], the
//! ranges read (one per salt bucket for a salted table) and, for each range,
//! the last key read in it. The next page reads [`Cursor::next_ranges`]:
//! each range from just after its last key, so no row is read twice and
//! none is skipped, even when rows are inserted or deleted between pages.
//! A salted read merges its buckets in the order of the keys without the
//! salt; after a page ending at key `b ‖ k`, every bucket `c` resumes after
//! `c ‖ k` ([`Cursor::advance`]), so the merge continues exactly where it
//! stopped.
//!
//! The token ([`Cursor::to_token`]) is base64url without padding over
//! `version (1) ‖ flags ‖ fingerprint (8) ‖ ranges ‖ check`. The check is
//! the first 4 bytes of the SHA-256 of what precedes it (a damaged token is
//! an error), or with a secret an HMAC-SHA256 of it (32 bytes), so a client
//! cannot forge one: a reader that holds the secret refuses a token without
//! it or with another one.
//!
//! ```
//! use lexikey::KeyRange;
//! use lexikey_design::cursor::{Cursor, Fingerprint};
//! let fp = Fingerprint::of(b"hex str,i64");
//! let range = KeyRange { start: Some(b"events#".to_vec()), end: Some(b"events$".to_vec()) };
//! let first = Cursor::new(fp, vec![range.clone()]);
//! // A page read up to events#l8000000000000007: the next starts just after it.
//! let cursor = first.advance(b"events#l8000000000000007", 0)?;
//! let token = cursor.to_token(Some(b"s3cret"));
//! let again = Cursor::resume(&token, fp, &[range], Some(b"s3cret"))?;
//! assert_eq!(again.next_ranges(false)[0].start.as_deref(), Some(&b"events#l8000000000000007\0"[..]));
//! assert!(Cursor::resume(&token, Fingerprint::of(b"other"), &again.ranges(), Some(b"s3cret")).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use hmac::{Hmac, KeyInit, Mac};
use lexikey::frontend::spec::KeySpec;
use lexikey::store::alloc::Allocator;
use lexikey::store::salt::Salter;
use lexikey::store::Store;
use lexikey::KeyRange;
use sha2::{Digest, Sha256};

/// The token format this crate writes and reads.
pub const CURSOR_VERSION: u8 = 1;

/// Flag bit: the check is an HMAC-SHA256 (made with a secret).
const SIGNED: u8 = 1;
/// Bytes of the unsigned check (a SHA-256 prefix).
const CHECKSUM_LEN: usize = 4;
/// Bytes of the signed check (HMAC-SHA256).
const MAC_LEN: usize = 32;

/// The first 8 bytes of the SHA-256 of a schema's description: a cursor
/// made under one schema is refused under another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint(pub [u8; 8]);

impl Fingerprint {
    /// The fingerprint of `description`: any text that names the layout
    /// completely (format, fields, salt), the same for every reader.
    pub fn of(description: &[u8]) -> Fingerprint {
        let digest = Sha256::digest(description);
        let mut fp = [0u8; 8];
        fp.copy_from_slice(&digest[..8]);
        Fingerprint(fp)
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// Why a token is not a cursor for this read: one readable line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CursorError {
    /// Not base64url (the character's offset in the token).
    Base64(usize),
    /// The token's bytes end early or run on (the byte offset).
    Damaged(usize),
    /// The checksum does not match: the token was changed.
    Checksum,
    /// A format version this crate does not read.
    Version(u8),
    /// The token is signed but no secret was given.
    NeedSecret,
    /// A secret was given but the token is not signed.
    Unsigned,
    /// The signature does not match the secret (forged, or another secret).
    Forged,
    /// The cursor is for another schema.
    OtherSchema {
        /// The token's fingerprint.
        token: Fingerprint,
        /// This schema's.
        schema: Fingerprint,
    },
    /// The cursor is for other ranges than the read's.
    OtherRange,
    /// A last key outside every range, or no bucket to put it in.
    KeyOutside,
}

impl fmt::Display for CursorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CursorError::Base64(at) => {
                write!(f, "invalid cursor: not base64url at character {at}")
            }
            CursorError::Damaged(at) => write!(f, "invalid cursor: damaged at byte {at}"),
            CursorError::Checksum => {
                write!(f, "invalid cursor: checksum mismatch (the token was changed)")
            }
            CursorError::Version(v) => write!(
                f,
                "invalid cursor: format version {v} (this lexikey reads version {CURSOR_VERSION})"
            ),
            CursorError::NeedSecret => {
                write!(f, "invalid cursor: it is signed; pass the secret it was made with")
            }
            CursorError::Unsigned => write!(
                f,
                "invalid cursor: it is not signed, but a secret was given (refusing an unsigned cursor)"
            ),
            CursorError::Forged => write!(
                f,
                "invalid cursor: the signature does not match the secret (forged, or made with another secret)"
            ),
            CursorError::OtherSchema { token, schema } => write!(
                f,
                "invalid cursor: it is for another schema (fingerprint {token}, this schema's {schema})"
            ),
            CursorError::OtherRange => {
                write!(f, "invalid cursor: it is for another range than this read's")
            }
            CursorError::KeyOutside => {
                write!(f, "the last key read is in none of the cursor's ranges")
            }
        }
    }
}

impl std::error::Error for CursorError {}

/// Where the next page of a range read starts: the schema's fingerprint,
/// the ranges read and the last key read in each (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    fingerprint: Fingerprint,
    ranges: Vec<KeyRange>,
    after: Vec<Option<Vec<u8>>>,
}

impl Cursor {
    /// The cursor before the first page: nothing read in any range.
    pub fn new(fingerprint: Fingerprint, ranges: Vec<KeyRange>) -> Cursor {
        let after = vec![None; ranges.len()];
        Cursor {
            fingerprint,
            ranges,
            after,
        }
    }

    /// The cursor after a page whose last row has key `last` (as stored:
    /// with its `salt_len` bytes of salt in front in a salted table, `0`
    /// without). The ranges are read as one sequence in the order of the
    /// keys without their salt (a salted read merges its buckets): every
    /// range resumes after its own salt ‖ the rest of `last` (each range's
    /// salt: its start's first `salt_len` bytes), and a range that starts
    /// above that place is still unread.
    ///
    /// # Errors
    /// [`CursorError::KeyOutside`]: `last` is in none of the ranges, or a
    /// salted range has no start of `salt_len` bytes.
    pub fn advance(&self, last: &[u8], salt_len: usize) -> Result<Cursor, CursorError> {
        if !self.ranges.iter().any(|r| r.contains(last)) {
            return Err(CursorError::KeyOutside);
        }
        let rest = last.get(salt_len..).ok_or(CursorError::KeyOutside)?;
        let mut next = self.clone();
        for (r, a) in next.ranges.iter().zip(&mut next.after) {
            let start = r.start.as_deref().unwrap_or_default();
            let salt = start.get(..salt_len).ok_or(CursorError::KeyOutside)?;
            let mut key = Vec::with_capacity(last.len());
            key.extend_from_slice(salt);
            key.extend_from_slice(rest);
            if start <= key.as_slice() && a.as_ref().is_none_or(|a| *a < key) {
                *a = Some(key);
            }
        }
        Ok(next)
    }

    /// The ranges of the next page, in the cursor's order: each range from
    /// just after its last key read, the smallest key above it: `last ‖
    /// 00`, or for `text` keys (a text format's: no byte below 0x20)
    /// `last ‖ 20`, which every store syntax can print. A range read to
    /// its end is left out.
    pub fn next_ranges(&self, text: bool) -> Vec<KeyRange> {
        self.ranges
            .iter()
            .zip(&self.after)
            .filter_map(|(r, a)| {
                let Some(last) = a else {
                    return Some(r.clone());
                };
                let mut start = last.clone();
                start.push(if text { 0x20 } else { 0 });
                if r.end.as_deref().is_some_and(|e| start.as_slice() >= e) {
                    return None;
                }
                Some(KeyRange {
                    start: Some(start),
                    end: r.end.clone(),
                })
            })
            .collect()
    }

    /// The ranges read (as given to [`Cursor::new`]).
    pub fn ranges(&self) -> Vec<KeyRange> {
        self.ranges.clone()
    }

    /// The place of the last key read in each range (`None`: nothing read
    /// in it yet; at or above the range's end: read to its end).
    pub fn after(&self) -> &[Option<Vec<u8>>] {
        &self.after
    }

    /// The schema's fingerprint.
    pub fn fingerprint(&self) -> Fingerprint {
        self.fingerprint
    }

    /// The token: base64url without padding; with `secret`, signed.
    pub fn to_token(&self, secret: Option<&[u8]>) -> String {
        let mut b = vec![CURSOR_VERSION, if secret.is_some() { SIGNED } else { 0 }];
        b.extend_from_slice(&self.fingerprint.0);
        push_len(self.ranges.len(), &mut b);
        for (r, a) in self.ranges.iter().zip(&self.after) {
            for side in [&r.start, &r.end, a] {
                match side {
                    None => b.push(0),
                    Some(k) => {
                        b.push(1);
                        push_len(k.len(), &mut b);
                        b.extend_from_slice(k);
                    }
                }
            }
        }
        let check = check(&b, secret);
        b.extend_from_slice(&check);
        URL_SAFE_NO_PAD.encode(b)
    }

    /// Reads a token made by [`Cursor::to_token`], checking its integrity
    /// (or, with `secret`, its signature) and that it was made under
    /// `fingerprint`.
    ///
    /// # Errors
    /// Every [`CursorError`] but [`CursorError::OtherRange`] and
    /// [`CursorError::KeyOutside`].
    pub fn from_token(
        token: &str,
        fingerprint: Fingerprint,
        secret: Option<&[u8]>,
    ) -> Result<Cursor, CursorError> {
        if let Some(at) = token
            .bytes()
            .position(|c| !(c.is_ascii_alphanumeric() || c == b'-' || c == b'_'))
        {
            return Err(CursorError::Base64(at));
        }
        let b = URL_SAFE_NO_PAD
            .decode(token)
            .map_err(|_| CursorError::Base64(token.len().saturating_sub(1)))?;
        match b.first() {
            None => return Err(CursorError::Damaged(0)),
            Some(&v) if v != CURSOR_VERSION => return Err(CursorError::Version(v)),
            Some(_) => {}
        }
        let flags = *b.get(1).ok_or(CursorError::Damaged(1))?;
        if flags & !SIGNED != 0 {
            return Err(CursorError::Damaged(1));
        }
        let signed = flags & SIGNED != 0;
        let check_len = if signed { MAC_LEN } else { CHECKSUM_LEN };
        let body_len = b
            .len()
            .checked_sub(check_len)
            .filter(|&n| n >= 10)
            .ok_or(CursorError::Damaged(b.len()))?;
        let (body, tag) = b.split_at(body_len);
        match (signed, secret) {
            (false, None) => {
                if check(body, None) != tag {
                    return Err(CursorError::Checksum);
                }
            }
            (false, Some(_)) => return Err(CursorError::Unsigned),
            (true, None) => return Err(CursorError::NeedSecret),
            (true, Some(s)) => {
                let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(s)
                    .expect("HMAC takes a key of any length");
                mac.update(body);
                mac.verify_slice(tag).map_err(|_| CursorError::Forged)?;
            }
        }
        let mut fp = [0u8; 8];
        fp.copy_from_slice(&body[2..10]);
        let fp = Fingerprint(fp);
        if fp != fingerprint {
            return Err(CursorError::OtherSchema {
                token: fp,
                schema: fingerprint,
            });
        }
        let mut r = Reader { b: body, at: 10 };
        let n = r.len()?;
        // Every range takes at least 3 bytes: a count beyond that is damage.
        if n > body.len() / 3 {
            return Err(CursorError::Damaged(10));
        }
        let mut ranges = Vec::with_capacity(n);
        let mut after = Vec::with_capacity(n);
        for _ in 0..n {
            let start = r.side()?;
            let end = r.side()?;
            let last = r.side()?;
            let range = KeyRange { start, end };
            let start = range.start.as_deref().unwrap_or_default();
            if last.as_deref().is_some_and(|k| k < start) {
                return Err(CursorError::Damaged(r.at));
            }
            ranges.push(range);
            after.push(last);
        }
        if r.at != body.len() {
            return Err(CursorError::Damaged(r.at));
        }
        Ok(Cursor {
            fingerprint,
            ranges,
            after,
        })
    }

    /// [`Cursor::from_token`], then checks that the cursor is for `ranges`
    /// (the read's ranges, recomputed by the reader).
    ///
    /// # Errors
    /// As [`Cursor::from_token`]; [`CursorError::OtherRange`].
    pub fn resume(
        token: &str,
        fingerprint: Fingerprint,
        ranges: &[KeyRange],
        secret: Option<&[u8]>,
    ) -> Result<Cursor, CursorError> {
        let c = Cursor::from_token(token, fingerprint, secret)?;
        if c.ranges != ranges {
            return Err(CursorError::OtherRange);
        }
        Ok(c)
    }
}

/// The check after a token's body: a SHA-256 prefix, or with `secret` its
/// HMAC-SHA256.
fn check(body: &[u8], secret: Option<&[u8]>) -> Vec<u8> {
    match secret {
        None => Sha256::digest(body)[..CHECKSUM_LEN].to_vec(),
        Some(s) => {
            let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(s)
                .expect("HMAC takes a key of any length");
            mac.update(body);
            mac.finalize().into_bytes().to_vec()
        }
    }
}

/// Appends `n` as LEB128.
fn push_len(mut n: usize, out: &mut Vec<u8>) {
    loop {
        let byte = (n & 0x7F) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Reads a token's body.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, CursorError> {
        let v = *self.b.get(self.at).ok_or(CursorError::Damaged(self.at))?;
        self.at += 1;
        Ok(v)
    }

    fn len(&mut self) -> Result<usize, CursorError> {
        let start = self.at;
        let mut n: usize = 0;
        for shift in (0..35).step_by(7) {
            let byte = self.byte()?;
            n |= usize::from(byte & 0x7F) << shift;
            if byte & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(CursorError::Damaged(start))
    }

    fn side(&mut self) -> Result<Option<Vec<u8>>, CursorError> {
        let at = self.at;
        match self.byte()? {
            0 => Ok(None),
            1 => {
                let n = self.len()?;
                let end = self
                    .at
                    .checked_add(n)
                    .filter(|&e| e <= self.b.len())
                    .ok_or(CursorError::Damaged(self.at))?;
                let k = self.b[self.at..end].to_vec();
                self.at = end;
                Ok(Some(k))
            }
            _ => Err(CursorError::Damaged(at)),
        }
    }
}

/// The version of [`layout_spelling`]'s text: a change of the spelling
/// changes every fingerprint, and takes a new version.
pub const LAYOUT_SPELLING_VERSION: u8 = 1;

/// The canonical spelling of a layout ([`KeySpec`]): how its keys are
/// written, in one line that every front end makes the same way from the
/// same layout, and that does not change with this crate's internals
/// (unlike a `Debug` text). [`spec_fingerprint`] hashes it:
///
/// `lexikey layout 1; format F; width W; salt S; hbase-numeric H; geo C/B`
///
/// - `F`: the format's name (`hex`, `base64`, `decimal`, `binary`,
///   `fdb-tuple`, `hbase-ordered`, `phoenix`);
/// - `W`: the decimal width of integers, or `-`;
/// - `S`: `N/MODE`, the salt bucket count and hash (`fast` or `phoenix`;
///   Phoenix's `SALT_BUCKETS` N is `N/phoenix`), or `-` unsalted;
/// - `H`: the HBase numeric encoding (`current` or `legacy`);
/// - `C/B`: the geo grid's curve (`hilbert` or `morton`) and bits per axis.
///
/// The fields of the schema are not in it: a cursor holds its query's
/// ranges, which a reader must recompute byte for byte
/// ([`Cursor::resume`]), so the layout and the ranges together pin what
/// was read; and a reader of a range need not know the fields (`lexikey
/// range` takes no schema for the interop profiles). Nor is the key length
/// limit, nor Phoenix's decimal rounding (they change which keys can be
/// written, not how a written key is laid out).
///
/// ```
/// use lexikey::frontend::key_format::KeyFormat;
/// use lexikey::frontend::spec::KeySpec;
/// use lexikey::store::salt::{SaltMode, Salter};
/// use lexikey_design::cursor::{layout_spelling, spec_fingerprint};
/// let spec = KeySpec::new(KeyFormat::parse("hex")?)
///     .with_salter(Some(Salter::new(4, SaltMode::Fast)?))?
///     .with_schema("str,i64")?;
/// assert_eq!(
///     layout_spelling(&spec),
///     "lexikey layout 1; format hex; width -; salt 4/fast; hbase-numeric current; geo hilbert/32"
/// );
/// assert_eq!(spec_fingerprint(&spec).to_string(), "f083a01ec60479a4");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn layout_spelling(spec: &KeySpec) -> String {
    let width = spec.width().map_or("-".to_owned(), |w| w.to_string());
    let salt = match (spec.salter(), spec.profile_options().salt) {
        (Some(s), _) => format!("{}/{}", s.buckets(), s.mode().name()),
        (None, Some(n)) => format!("{n}/phoenix"),
        (None, None) => "-".to_owned(),
    };
    let grid = spec.geo().grid;
    format!(
        "lexikey layout {LAYOUT_SPELLING_VERSION}; format {}; width {width}; salt {salt}; \
         hbase-numeric {}; geo {}/{}",
        spec.format().name(),
        spec.profile_options().hbase.numeric.name(),
        grid.curve().name(),
        grid.bits()
    )
}

/// The fingerprint of a layout ([`KeySpec`]): of its canonical spelling
/// ([`layout_spelling`]). The front ends (`lexikey range --after` and
/// `--last`, Python's `Schema.page_ranges` and `Schema.cursor`) make and
/// read range cursors under it, so a cursor made by one is read by the
/// others.
pub fn spec_fingerprint(spec: &KeySpec) -> Fingerprint {
    Fingerprint::of(layout_spelling(spec).as_bytes())
}

/// The canonical spelling of an upside-down table's layout, what
/// [`table_fingerprint`] hashes: `lexikey upside-down table; format F;
/// salt S` with `F` the key format's name (`hex`, `base64`, `decimal`,
/// `binary`) and `S` `N buckets, MODE` (`fast` or `phoenix`) or `none`.
/// The table's prefix is in the cursor's ranges.
///
/// ```
/// use lexikey::store::salt::{SaltMode, Salter};
/// use lexikey::Format;
/// use lexikey_design::cursor::table_spelling;
/// let s = Salter::new(3, SaltMode::Fast)?;
/// assert_eq!(
///     table_spelling(Format::Hex, Some(&s)),
///     "lexikey upside-down table; format hex; salt 3 buckets, fast"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn table_spelling(format: lexikey::Format, salter: Option<&Salter>) -> String {
    let salt = match salter {
        Some(s) => format!("{} buckets, {}", s.buckets(), s.mode().name()),
        None => "none".to_owned(),
    };
    format!(
        "lexikey upside-down table; format {}; salt {salt}",
        format.name()
    )
}

/// The fingerprint of an upside-down table's layout (its format and salt;
/// the prefix is in the cursor's ranges): of [`table_spelling`]. What
/// `lexikey scan` cursors are made under.
pub fn table_fingerprint<S: Store>(alloc: &Allocator<S>) -> Fingerprint {
    Fingerprint::of(table_spelling(alloc.config().format, alloc.salter()).as_bytes())
}

/// The cursor of an upside-down table after the page whose last row is
/// `last_id`: over the table's ranges ([`Allocator::ranges`], one per
/// bucket when salted), each bucket after the place of `last_id`.
///
/// # Errors
/// [`CursorError::KeyOutside`] (a key the table cannot hold).
pub fn scan_cursor<S: Store>(alloc: &Allocator<S>, last_id: u64) -> Result<Cursor, CursorError> {
    let salt_len = alloc.salter().map_or(0, |s| s.salt_len());
    Cursor::new(table_fingerprint(alloc), alloc.ranges().to_vec())
        .advance(&alloc.key(last_id), salt_len)
}

/// The ID a table's next page starts after ([`Allocator::scan_after`]),
/// read from a token of [`scan_cursor`] (`None`: from the first row).
///
/// # Errors
/// Every [`CursorError`]: a damaged or forged token, one for another
/// table or layout.
pub fn scan_resume<S: Store>(
    alloc: &Allocator<S>,
    token: &str,
    secret: Option<&[u8]>,
) -> Result<Option<u64>, CursorError> {
    let cursor = Cursor::resume(token, table_fingerprint(alloc), alloc.ranges(), secret)?;
    if cursor.after.iter().all(Option::is_none) {
        return Ok(None);
    }
    // The row's own key is the one in its bucket (the others carry the
    // salts of the other buckets, which no row of that ID has).
    let id = cursor
        .after
        .iter()
        .flatten()
        .find_map(|k| alloc.decode_id(k).ok())
        .ok_or(CursorError::KeyOutside)?;
    // Every bucket's key must be this ID's place in it.
    if scan_cursor(alloc, id)? != cursor {
        return Err(CursorError::KeyOutside);
    }
    Ok(Some(id))
}
