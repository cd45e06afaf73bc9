//! `--salt-buckets N [--salt-mode fast|phoenix]` for the native formats
//! (hex, base64, decimal, binary): the library's [`Salter`] on the command
//! line.
//!
//! - `encode` puts the salt in front of the key: one byte for `binary`
//!   (printed as two hex digits like the rest of the key), two UPPERCASE hex
//!   digits and `#` for the text formats (`0A#events#…`);
//! - `decode` checks that the salt is the key's own bucket and decodes the
//!   rest (error offsets count from the start of the salted key);
//! - `range` prints the N physical ranges of the logical range, one per
//!   bucket, bucket 0 first.
//!
//! N is 1 to 255 (the bucket is one byte). `--format phoenix` has its own
//! `--salt-buckets` (1 to 256, as Phoenix's `SALT_BUCKETS`; always Phoenix's
//! hash).

use anyhow::{anyhow, bail, Result};
use lexikey::store::salt::Salter;
use lexikey::Format;

use crate::args::SaltArgs;

/// The salter of `--salt-buckets N [--salt-mode M]` for keys of `format`,
/// or `None` without `--salt-buckets`.
///
/// # Errors
/// N outside 1–255, `--salt-mode` without `--salt-buckets`.
pub(crate) fn salter(args: &SaltArgs, format: Format) -> Result<Option<Salter>> {
    let Some(v) = args.salt_buckets.as_deref() else {
        if args.salt_mode.is_some() {
            bail!("--salt-mode needs --salt-buckets N");
        }
        return Ok(None);
    };
    let n = match v.parse::<u32>() {
        Ok(n @ 1..=255) => n,
        _ => bail!(
            "invalid --salt-buckets {v:?}: expected a number from 1 to 255 (the salt is one \
             bucket byte; --format phoenix takes up to 256)"
        ),
    };
    let s =
        Salter::with_count(n, args.salt_mode.unwrap_or_default()).map_err(|e| anyhow!("{e}"))?;
    Ok(Some(s.for_format(format)))
}
