//! The key layout of the command line's options, built once: `--format`,
//! `--width`, `--salt-buckets`/`--salt-mode`, `--hbase-numeric`, `--round`,
//! `--curve`/`--bits` (and `range`'s `--bbox`, `--max-ranges`) become one
//! [`KeySpec`]. Which format takes which option, and which numbers, is the
//! library's rule ([`lexikey::frontend::layout`]); this module words a refusal in the
//! command line's spelling.
//!
//! Salting on the command line: `encode` puts the salt in front of the key
//! (one byte for `binary`, printed as two hex digits like the rest of the
//! key; two UPPERCASE hex digits and `#` for the text formats:
//! `0A#events#…`); `decode` checks that the salt is the key's own bucket
//! and decodes the rest; `range` prints the N physical ranges of the
//! logical range, one per bucket, bucket 0 first. `--format phoenix` has
//! its own `--salt-buckets` (Phoenix's `SALT_BUCKETS`, always Phoenix's
//! hash).

use anyhow::{anyhow, bail, Result};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::layout::{
    expected_names, hbase_numeric, native_names, LayoutOption as O, OptionError,
};
use lexikey::frontend::profile::Options;
use lexikey::frontend::spec::KeySpec;
use lexikey::interop::{hbase, phoenix};
use lexikey::store::salt::{SaltMode, Salter};
use lexikey::Format;

use crate::args::{GeoArgs, KeyFormatArgs, SaltArgs};
use crate::kinds;

/// The layout options of `encode`, `decode` and `range`.
pub(crate) struct LayoutArgs<'a> {
    /// `--format`, `--width`.
    pub(crate) format: &'a KeyFormatArgs,
    /// `--salt-buckets`, `--salt-mode`.
    pub(crate) salt: &'a SaltArgs,
    /// `--curve`, `--bits`.
    pub(crate) geo: &'a GeoArgs,
    /// `--hbase-numeric`.
    pub(crate) hbase_numeric: Option<&'a str>,
    /// `--round`.
    pub(crate) round: bool,
    /// `range`'s `--bbox` and `--max-ranges`, whether given.
    pub(crate) bbox: (bool, bool),
}

/// The format of `--format` (default hex).
pub(crate) fn key_format(args: &KeyFormatArgs) -> KeyFormat {
    args.format.unwrap_or(KeyFormat::Native(Format::Hex))
}

/// The key layout of the options, each checked against the format (in the
/// order the command line has always checked them: a native format's
/// interop options first, an interop profile's native options first).
///
/// # Errors
/// An option the format does not take, a value out of range, a bad grid.
pub(crate) fn key_spec(a: &LayoutArgs<'_>) -> Result<KeySpec> {
    let format = key_format(a.format);
    let spec = match format {
        KeyFormat::Native(f) => {
            if a.hbase_numeric.is_some() {
                O::HbaseNumeric.check(format).map_err(refusal)?;
            }
            if a.round {
                O::Round.check(format).map_err(refusal)?;
            }
            let width = width(a.format.width.as_deref(), f)?;
            let salter = salter(a.salt, f)?;
            KeySpec::new(format)
                .with_width(width)?
                .with_salter(salter)?
                .with_geo(kinds::geo_opts(a.geo)?)
        }
        KeyFormat::Profile(_) => {
            let given = [
                (O::Width, a.format.width.is_some()),
                (O::Curve, a.geo.curve.is_some()),
                (O::Bits, a.geo.bits.is_some()),
                (O::Bbox, a.bbox.0),
                (O::MaxRanges, a.bbox.1),
            ];
            for (o, _) in given.iter().filter(|(_, given)| *given) {
                o.check(format).map_err(refusal)?;
            }
            let opts = Options {
                salt: phoenix_salt(a.salt, format)?,
                hbase: hbase_codec(a.hbase_numeric, format)?,
                rounding: if a.round {
                    O::Round.check(format).map_err(refusal)?;
                    phoenix::DecimalRounding::HalfUp
                } else {
                    phoenix::DecimalRounding::default()
                },
            };
            KeySpec::new(format).with_profile_options(opts)?
        }
    };
    Ok(spec)
}

/// The `--width N` option: the decimal width of integer components
/// ([`LayoutOption::Width`](lexikey::frontend::layout::LayoutOption::Width)).
///
/// # Errors
/// A width given with another format, or not a number it takes.
pub(crate) fn width(width: Option<&str>, format: Format) -> Result<Option<u8>> {
    let Some(w) = width else {
        return Ok(None);
    };
    let format = KeyFormat::Native(format);
    O::Width.check(format).map_err(refusal)?;
    match w.parse::<u32>().map(|n| O::Width.check_value(format, n)) {
        Ok(Ok(n)) => Ok(u8::try_from(n).ok()),
        _ => {
            let r = O::Width.values(format).unwrap_or(0..=0);
            bail!(
                "invalid width {w:?}: expected a number of decimal digits from {} to {}",
                r.start(),
                r.end()
            )
        }
    }
}

/// The salter of `--salt-buckets N [--salt-mode M]` for keys of a native
/// format, or `None` without `--salt-buckets`.
///
/// # Errors
/// N not a number the format takes, `--salt-mode` without
/// `--salt-buckets`.
pub(crate) fn salter(args: &SaltArgs, format: Format) -> Result<Option<Salter>> {
    let Some(n) = salt_buckets(args, KeyFormat::Native(format))? else {
        return Ok(None);
    };
    let s =
        Salter::with_count(n, args.salt_mode.unwrap_or_default()).map_err(|e| anyhow!("{e}"))?;
    Ok(Some(s.for_format(format)))
}

/// `--salt-buckets N` of an interop profile (Phoenix's `SALT_BUCKETS`;
/// `--salt-mode` may only say `phoenix`).
fn phoenix_salt(args: &SaltArgs, format: KeyFormat) -> Result<Option<u16>> {
    if args.salt_buckets.is_some() {
        O::SaltBuckets.check(format).map_err(refusal)?;
        if args.salt_mode == Some(SaltMode::Fast) {
            O::FastSalt.check(format).map_err(refusal)?;
        }
    }
    Ok(salt_buckets(args, format)?.and_then(|n| u16::try_from(n).ok()))
}

/// The number of `--salt-buckets`, checked against the format.
fn salt_buckets(args: &SaltArgs, format: KeyFormat) -> Result<Option<u32>> {
    let Some(v) = args.salt_buckets.as_deref() else {
        if args.salt_mode.is_some() {
            bail!("--salt-mode needs --salt-buckets N");
        }
        return Ok(None);
    };
    if let Ok(Ok(n)) = v
        .parse::<u32>()
        .map(|n| O::SaltBuckets.check_value(format, n))
    {
        return Ok(Some(n));
    }
    let r = O::SaltBuckets.values(format).unwrap_or(0..=0);
    let why = match format {
        KeyFormat::Native(_) => {
            let phoenix = O::SaltBuckets
                .profiles()
                .filter_map(|p| O::SaltBuckets.values(KeyFormat::Profile(p)))
                .map(|r| *r.end())
                .max()
                .unwrap_or_default();
            format!("the salt is one bucket byte; --format phoenix takes up to {phoenix}")
        }
        KeyFormat::Profile(_) => "Phoenix's SALT_BUCKETS".to_string(),
    };
    bail!(
        "invalid --salt-buckets {v:?}: expected a number from {} to {} ({why})",
        r.start(),
        r.end()
    )
}

/// `--hbase-numeric current|legacy` of an interop profile.
fn hbase_codec(given: Option<&str>, format: KeyFormat) -> Result<hbase::Codec> {
    let Some(v) = given else {
        return Ok(hbase::Codec::default());
    };
    O::HbaseNumeric.check(format).map_err(refusal)?;
    let n = hbase_numeric(format, v).map_err(|e| {
        anyhow!(
            "invalid --hbase-numeric {v:?}: expected {}",
            expected_names(e.option(), str::to_string)
        )
    })?;
    Ok(hbase::Codec::new(n))
}

/// `range --schema` with an interop profile.
///
/// # Errors
/// Always, for a profile: its components and predicates name their types.
pub(crate) fn check_range_schema(format: KeyFormat) -> Result<()> {
    O::RangeSchema.check(format).map_err(refusal)
}

/// The formats an option applies to, as `--format` names them (`--format
/// decimal`); `profiles`: only the interop profiles among them.
fn only(o: O, profiles: bool) -> String {
    let names: Vec<&str> = o
        .formats()
        .iter()
        .filter(|f| !profiles || f.profile().is_some())
        .map(|f| f.name())
        .collect();
    format!("--format {}", names.join("|"))
}

/// A refused option in the command line's words.
pub(crate) fn refusal(e: OptionError) -> anyhow::Error {
    let (option, format) = match e {
        OptionError::NotApplicable { option, format } => (option, format),
        OptionError::Missing { format, .. } => return missing_schema(format),
        OptionError::Needs {
            option: O::Width,
            needs: O::DecodeSchema,
            ..
        } => return anyhow!("--width needs --schema (it applies to the schema's integer fields)"),
        OptionError::OutOfRange { .. } | OptionError::Needs { .. } => return anyhow!("{e}"),
        OptionError::UnknownName { .. } => return anyhow!("{e}"),
    };
    let native = format.profile().is_none();
    anyhow!(match option {
        O::Width if native => format!(
            "--width applies only to {} (the {format} format has fixed widths)",
            only(option, false)
        ),
        O::Width => format!(
            "--width applies only to {} (the {format} profile fixes its own widths)",
            only(option, false)
        ),
        O::HbaseNumeric if native => {
            format!("--hbase-numeric applies only to {}", only(option, false))
        }
        O::HbaseNumeric => format!(
            "--hbase-numeric applies only to {}, not {format}",
            only(option, false)
        ),
        O::Round if native => format!(
            "--round applies only to {} (a DECIMAL of more than 38 digits)",
            only(option, false)
        ),
        O::Round => format!(
            "--round applies only to {} (a DECIMAL of more than 38 digits), not {format}",
            only(option, false)
        ),
        O::SaltBuckets => format!(
            "--salt-buckets applies only to {} (a SALT_BUCKETS table) among the interop \
             profiles, not {format} (the native formats take it too)",
            only(option, true)
        ),
        O::FastSalt => format!(
            "--salt-mode fast does not apply to --format {format}, whose salt is always \
             Phoenix's hash"
        ),
        O::Curve | O::Bits | O::Bbox | O::MaxRanges => format!(
            "--{} applies to geo components of the native formats ({}), not --format {format}",
            match option {
                O::Curve => "curve",
                O::Bits => "bits",
                O::Bbox => "bbox",
                _ => "max-ranges",
            },
            native_names()
        ),
        O::RangeSchema => format!(
            "--schema applies to range with the native formats; --format {format} components \
             and predicates name their own types, and the predicates must agree with each other"
        ),
        O::DecodeSchema => format!(
            "{format} keys are self-describing (each element has its type code): decode takes \
             no --schema"
        ),
        O::Salter => e.to_string(),
    })
}

/// `decode` without the `--schema` that keys of `format` need.
fn missing_schema(format: KeyFormat) -> anyhow::Error {
    match format {
        KeyFormat::Native(f) => anyhow!(
            "{f} keys carry no type tags: pass --schema TYPE[.desc],... (e.g. --schema str,i64)"
        ),
        KeyFormat::Profile(p) => {
            let (what, e_g) = if p == lexikey::frontend::profile::Profile::Hbase {
                ("fields", "numeric,text.desc")
            } else {
                ("columns", "varchar,bigint.desc")
            };
            anyhow!(
                "{p} keys do not name their {what}: pass --schema TYPE[.desc],... (e.g. --schema \
                 {e_g})"
            )
        }
    }
}

/// `decode --schema` checked against the format: refused for `fdb-tuple`
/// (self-describing keys), needed where keys do not name their types.
///
/// # Errors
/// As said.
pub(crate) fn check_decode_schema(format: KeyFormat, given: bool) -> Result<()> {
    O::DecodeSchema.check_given(format, given).map_err(refusal)
}

#[cfg(test)]
mod tests {
    use lexikey::frontend::key_format::KeyFormat;
    use lexikey::frontend::layout::LayoutOption as O;

    #[test]
    fn refusals_name_the_option_as_the_command_line_spells_it() {
        let fdb = KeyFormat::parse("fdb-tuple").unwrap();
        let hex = KeyFormat::parse("hex").unwrap();
        let msg = |o: O, f| super::refusal(o.check(f).unwrap_err()).to_string();
        assert_eq!(
            msg(O::Width, hex),
            "--width applies only to --format decimal (the hex format has fixed widths)"
        );
        assert_eq!(
            msg(O::Width, fdb),
            "--width applies only to --format decimal (the fdb-tuple profile fixes its own widths)"
        );
        assert_eq!(
            msg(O::SaltBuckets, fdb),
            "--salt-buckets applies only to --format phoenix (a SALT_BUCKETS table) among the \
             interop profiles, not fdb-tuple (the native formats take it too)"
        );
        assert_eq!(
            msg(O::Bits, fdb),
            "--bits applies to geo components of the native formats (hex, base64, decimal, \
             binary), not --format fdb-tuple"
        );
        assert_eq!(
            msg(O::HbaseNumeric, hex),
            "--hbase-numeric applies only to --format hbase-ordered"
        );
    }
}
