//! Which options of a key layout each format takes, and the values each
//! option takes: the rules written once, for [`KeySpec`](crate::frontend::spec::KeySpec)
//! and every front end. A rule that is broken is an [`OptionError`] that
//! says which option and which format; each front end words it in its own
//! spelling (the command line's `--width`, Python's `width=`, Java's
//! `withWidth`), naming the formats the option applies to from
//! [`LayoutOption::formats`] and the values it takes from
//! [`LayoutOption::values`].
//!
//! ```
//! use lexikey::frontend::layout::{LayoutOption, OptionError};
//! use lexikey::frontend::key_format::KeyFormat;
//! let hex = KeyFormat::parse("hex")?;
//! let err = LayoutOption::Width.check(hex).unwrap_err();
//! assert_eq!(err, OptionError::NotApplicable { option: LayoutOption::Width, format: hex });
//! assert_eq!(LayoutOption::Width.formats(), [KeyFormat::parse("decimal")?]);
//! let decimal = KeyFormat::parse("decimal")?;
//! assert_eq!(LayoutOption::Width.check_value(decimal, 20), Ok(20));
//! assert!(LayoutOption::Width.check_value(decimal, 21).is_err());
//! # Ok::<(), String>(())
//! ```

use std::fmt;
use std::ops::RangeInclusive;

use crate::frontend::key_format::KeyFormat;
use crate::frontend::profile::Profile;
use crate::interop::hbase::NumericEncoding;
use crate::Format;

/// An option of a key layout that some formats take and others do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LayoutOption {
    /// The decimal width of integer components (`decimal`).
    Width,
    /// The salt buckets: a [`Salter`](crate::store::salt::Salter) of the native
    /// formats, or Phoenix's `SALT_BUCKETS` (`phoenix`).
    SaltBuckets,
    /// A [`Salter`](crate::store::salt::Salter) (either hash): the native formats
    /// (Phoenix's salt is its own buckets, always Phoenix's hash).
    Salter,
    /// The fast salt hash: the native formats.
    FastSalt,
    /// The numeric encoding of HBase 2.4.x and older (`hbase-ordered`).
    HbaseNumeric,
    /// A `DECIMAL` of more than 38 digits rounded half up (`phoenix`).
    Round,
    /// The geo grid's curve: the native formats' `geo` components.
    Curve,
    /// The geo grid's bits per axis: the native formats' `geo` components.
    Bits,
    /// A range over a latitude/longitude box: the native formats' `geo`
    /// components.
    Bbox,
    /// The most ranges of a box: the native formats' `geo` components.
    MaxRanges,
    /// The schema of a range query: the native formats (a profile's
    /// components and predicates name their own types).
    RangeSchema,
    /// The schema of keys to decode: every format but `fdb-tuple`, whose
    /// keys are self-describing; needed by those whose keys do not name
    /// their fields' types ([`LayoutOption::needed_by`]).
    DecodeSchema,
}

/// The names of [`LayoutOption::HbaseNumeric`] and what each means.
const HBASE_NUMERIC_NAMES: &[(&str, &str)] = &[
    (
        NumericEncoding::Current.name(),
        "HBase 2.5.0 and later, the default",
    ),
    (
        NumericEncoding::Legacy.name(),
        "HBase 2.4.x and older, before HBASE-26566",
    ),
];

/// The HBase numeric encoding named `name` ([`LayoutOption::names`] of
/// [`LayoutOption::HbaseNumeric`]), given with `format`. Only the name is
/// checked: [`LayoutOption::check`] says whether `format` takes the
/// option, so that a front end chooses which it reports first.
///
/// ```
/// use lexikey::frontend::key_format::KeyFormat;
/// use lexikey::frontend::layout::{hbase_numeric, LayoutOption, OptionError};
/// use lexikey::interop::hbase::NumericEncoding;
/// let hbase = KeyFormat::parse("hbase-ordered")?;
/// assert_eq!(hbase_numeric(hbase, "legacy"), Ok(NumericEncoding::Legacy));
/// assert_eq!(
///     hbase_numeric(hbase, "old"),
///     Err(OptionError::UnknownName { option: LayoutOption::HbaseNumeric, format: hbase })
/// );
/// # Ok::<(), String>(())
/// ```
///
/// # Errors
/// [`OptionError::UnknownName`].
pub fn hbase_numeric(format: KeyFormat, name: &str) -> Result<NumericEncoding, OptionError> {
    NumericEncoding::from_name(name).ok_or(OptionError::UnknownName {
        option: LayoutOption::HbaseNumeric,
        format,
    })
}

/// The native formats.
const NATIVE: &[KeyFormat] = &[
    KeyFormat::Native(Format::Hex),
    KeyFormat::Native(Format::Base64),
    KeyFormat::Native(Format::Decimal),
    KeyFormat::Native(Format::Binary),
];

impl LayoutOption {
    /// The formats that take the option.
    pub fn formats(self) -> &'static [KeyFormat] {
        use LayoutOption as O;
        match self {
            O::Width => &[KeyFormat::Native(Format::Decimal)],
            O::SaltBuckets => &[
                KeyFormat::Native(Format::Hex),
                KeyFormat::Native(Format::Base64),
                KeyFormat::Native(Format::Decimal),
                KeyFormat::Native(Format::Binary),
                KeyFormat::Profile(Profile::Phoenix),
            ],
            O::HbaseNumeric => &[KeyFormat::Profile(Profile::Hbase)],
            O::DecodeSchema => &[
                KeyFormat::Native(Format::Hex),
                KeyFormat::Native(Format::Base64),
                KeyFormat::Native(Format::Decimal),
                KeyFormat::Native(Format::Binary),
                KeyFormat::Profile(Profile::Hbase),
                KeyFormat::Profile(Profile::Phoenix),
            ],
            O::Round => &[KeyFormat::Profile(Profile::Phoenix)],
            O::Salter
            | O::FastSalt
            | O::Curve
            | O::Bits
            | O::Bbox
            | O::MaxRanges
            | O::RangeSchema => NATIVE,
        }
    }

    /// The formats that cannot do without the option: the keys of
    /// `decimal`, `binary`, `hbase-ordered` and `phoenix` do not name
    /// their fields' types, so decoding them needs a schema.
    pub fn needed_by(self) -> &'static [KeyFormat] {
        match self {
            LayoutOption::DecodeSchema => &[
                KeyFormat::Native(Format::Decimal),
                KeyFormat::Native(Format::Binary),
                KeyFormat::Profile(Profile::Hbase),
                KeyFormat::Profile(Profile::Phoenix),
            ],
            _ => &[],
        }
    }

    /// Checks that the option is given where `format` needs it and not
    /// given where it does not apply.
    ///
    /// # Errors
    /// [`OptionError::Missing`], [`OptionError::NotApplicable`].
    pub fn check_given(self, format: KeyFormat, given: bool) -> Result<(), OptionError> {
        if given {
            self.check(format)
        } else if self.needed_by().contains(&format) {
            Err(OptionError::Missing {
                option: self,
                format,
            })
        } else {
            Ok(())
        }
    }

    /// The option this one needs given with it when decoding: a width
    /// needs the schema, whose integer fields it applies to.
    pub fn decode_needs(self) -> Option<LayoutOption> {
        match self {
            LayoutOption::Width => Some(LayoutOption::DecodeSchema),
            _ => None,
        }
    }

    /// Checks, when decoding, that the option (if `given`) comes with the
    /// option it needs ([`LayoutOption::decode_needs`]; `needed_given`
    /// whether that one was given).
    ///
    /// # Errors
    /// [`OptionError::Needs`].
    pub fn check_decode_needs(
        self,
        format: KeyFormat,
        given: bool,
        needed_given: bool,
    ) -> Result<(), OptionError> {
        match self.decode_needs() {
            Some(needs) if given && !needed_given => Err(OptionError::Needs {
                option: self,
                needs,
                format,
            }),
            _ => Ok(()),
        }
    }

    /// The names the option takes, each with what it means (the HBase
    /// numeric encoding: `current`, `legacy`); empty for an option that
    /// does not take a name.
    pub fn names(self) -> &'static [(&'static str, &'static str)] {
        match self {
            LayoutOption::HbaseNumeric => HBASE_NUMERIC_NAMES,
            _ => &[],
        }
    }

    /// The interop profiles that take the option.
    pub fn profiles(self) -> impl Iterator<Item = Profile> {
        self.formats().iter().filter_map(|f| f.profile())
    }

    /// Whether `format` takes the option.
    pub fn applies_to(self, format: KeyFormat) -> bool {
        self.formats().contains(&format)
    }

    /// Refuses the option for a format that does not take it.
    ///
    /// # Errors
    /// [`OptionError::NotApplicable`].
    pub fn check(self, format: KeyFormat) -> Result<(), OptionError> {
        if self.applies_to(format) {
            Ok(())
        } else {
            Err(OptionError::NotApplicable {
                option: self,
                format,
            })
        }
    }

    /// The numbers the option takes in `format` (`None` for an option
    /// that is not a number, or a format that does not take it): a width
    /// of 1 to 20 digits; 1 to 255 salt buckets in the native formats (one
    /// bucket byte), 1 to 256 in `phoenix` (its `SALT_BUCKETS`).
    pub fn values(self, format: KeyFormat) -> Option<RangeInclusive<u32>> {
        if !self.applies_to(format) {
            return None;
        }
        match (self, format) {
            (LayoutOption::Width, _) => Some(1..=20),
            (LayoutOption::SaltBuckets, KeyFormat::Native(_)) => Some(1..=255),
            (LayoutOption::SaltBuckets, KeyFormat::Profile(_)) => Some(1..=256),
            _ => None,
        }
    }

    /// `value` checked: the option applies to `format` and takes it.
    ///
    /// # Errors
    /// [`OptionError::NotApplicable`], [`OptionError::OutOfRange`].
    pub fn check_value(self, format: KeyFormat, value: u32) -> Result<u32, OptionError> {
        self.check(format)?;
        match self.values(format) {
            Some(r) if !r.contains(&value) => Err(OptionError::OutOfRange {
                option: self,
                format,
                value,
            }),
            _ => Ok(value),
        }
    }
}

/// A layout option broken: given with a format that does not take it, or
/// a number it does not take. Front ends word it in their own spelling;
/// the message here is the library's own (Rust callers of
/// [`KeySpec`](crate::frontend::spec::KeySpec)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// The option does not apply to the format.
    #[error("{}", not_applicable(*.option, *.format))]
    NotApplicable {
        /// The option.
        option: LayoutOption,
        /// The format it was given with.
        format: KeyFormat,
    },
    /// The format needs the option ([`LayoutOption::needed_by`]).
    #[error("{} keys need a schema to decode: they do not name their fields' types", .format)]
    Missing {
        /// The option.
        option: LayoutOption,
        /// The format.
        format: KeyFormat,
    },
    /// The option given without the one it needs when decoding
    /// ([`LayoutOption::decode_needs`]).
    #[error("{}", needs_message(*.option, *.needs))]
    Needs {
        /// The option given.
        option: LayoutOption,
        /// The option it needs.
        needs: LayoutOption,
        /// The format.
        format: KeyFormat,
    },
    /// A name the option does not take ([`LayoutOption::names`]).
    #[error("{}", unknown_name(*.option))]
    UnknownName {
        /// The option.
        option: LayoutOption,
        /// The format it was given with.
        format: KeyFormat,
    },
    /// A number outside the option's [`LayoutOption::values`].
    #[error("{}", out_of_range(*.option, *.format, *.value))]
    OutOfRange {
        /// The option.
        option: LayoutOption,
        /// The format.
        format: KeyFormat,
        /// The number given.
        value: u32,
    },
}

impl OptionError {
    /// The option at fault.
    pub fn option(&self) -> LayoutOption {
        match self {
            OptionError::NotApplicable { option, .. }
            | OptionError::Missing { option, .. }
            | OptionError::Needs { option, .. }
            | OptionError::UnknownName { option, .. }
            | OptionError::OutOfRange { option, .. } => *option,
        }
    }

    /// The format it was given with.
    pub fn format(&self) -> KeyFormat {
        match self {
            OptionError::NotApplicable { format, .. }
            | OptionError::Missing { format, .. }
            | OptionError::Needs { format, .. }
            | OptionError::UnknownName { format, .. }
            | OptionError::OutOfRange { format, .. } => *format,
        }
    }
}

fn not_applicable(option: LayoutOption, format: KeyFormat) -> String {
    use LayoutOption as O;
    match option {
        O::Width => format!(
            "a width applies only to the decimal format (the {format} format has fixed widths)"
        ),
        O::SaltBuckets => format!("salt buckets of a profile apply only to phoenix, not {format}"),
        O::Salter => format!(
            "salting by a salter applies to the native formats, not {format} (phoenix: its own \
             salt buckets)"
        ),
        O::FastSalt => format!(
            "the fast salt applies to the native formats, not {format} (phoenix's salt is always \
             Phoenix's hash)"
        ),
        O::HbaseNumeric => {
            format!("the HBase numeric encoding applies only to hbase-ordered, not {format}")
        }
        O::Round => format!("decimal rounding applies only to phoenix, not {format}"),
        O::Curve | O::Bits | O::Bbox | O::MaxRanges => format!(
            "the geo {} applies to geo components of the native formats ({}), not {format}",
            match option {
                O::Curve => "curve",
                O::Bits => "bits",
                O::Bbox => "box",
                _ => "most ranges",
            },
            native_names()
        ),
        O::RangeSchema => format!(
            "a range's schema applies to the native formats; {format} components name their own \
             types"
        ),
        O::DecodeSchema => format!(
            "{format} keys are self-describing (each element has its type code): decoding takes \
             no schema"
        ),
    }
}

fn needs_message(option: LayoutOption, needs: LayoutOption) -> String {
    match (option, needs) {
        (LayoutOption::Width, LayoutOption::DecodeSchema) => {
            "a width needs a schema (it applies to the schema's integer fields)".to_string()
        }
        _ => format!("the {option} needs the {needs}"),
    }
}

fn unknown_name(option: LayoutOption) -> String {
    format!(
        "invalid {option}: expected {}",
        expected_names(option, |n| n.to_string())
    )
}

/// The names [`LayoutOption::names`] of `option` as a front end words
/// them: each written by `name` (quoted, say) with its meaning in
/// parentheses, joined by `or` (`current (HBase 2.5.0 and later, the
/// default) or legacy (…)`).
pub fn expected_names(option: LayoutOption, name: impl Fn(&str) -> String) -> String {
    option
        .names()
        .iter()
        .map(|(n, meaning)| format!("{} ({meaning})", name(n)))
        .collect::<Vec<_>>()
        .join(" or ")
}

fn out_of_range(option: LayoutOption, format: KeyFormat, value: u32) -> String {
    let r = option.values(format).unwrap_or(0..=0);
    let (lo, hi) = (r.start(), r.end());
    match (option, format) {
        (LayoutOption::Width, _) => {
            format!("invalid width {value}: expected a number of decimal digits from {lo} to {hi}")
        }
        (LayoutOption::SaltBuckets, KeyFormat::Profile(_)) => format!(
            "invalid salt buckets {value}: expected a number from {lo} to {hi} (Phoenix's \
             SALT_BUCKETS)"
        ),
        (LayoutOption::SaltBuckets, KeyFormat::Native(_)) => {
            crate::store::salt::BucketsError { buckets: value }.to_string()
        }
        _ => format!("invalid {option:?} {value}"),
    }
}

/// The native formats' names, `hex, base64, decimal, binary`.
pub fn native_names() -> String {
    NATIVE
        .iter()
        .map(|f| f.name())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for LayoutOption {
    /// The option as the library names it in messages (`width`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LayoutOption::Width => "width",
            LayoutOption::SaltBuckets => "salt buckets",
            LayoutOption::Salter => "salter",
            LayoutOption::FastSalt => "fast salt",
            LayoutOption::HbaseNumeric => "HBase numeric encoding",
            LayoutOption::Round => "decimal rounding",
            LayoutOption::Curve => "geo curve",
            LayoutOption::Bits => "geo bits",
            LayoutOption::Bbox => "geo box",
            LayoutOption::MaxRanges => "most ranges",
            LayoutOption::RangeSchema => "range schema",
            LayoutOption::DecodeSchema => "decode schema",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{LayoutOption as O, OptionError};
    use crate::frontend::key_format::KeyFormat;
    use crate::frontend::profile::Profile;
    use crate::Format;

    const ALL: [O; 12] = [
        O::Width,
        O::SaltBuckets,
        O::Salter,
        O::FastSalt,
        O::HbaseNumeric,
        O::Round,
        O::Curve,
        O::Bits,
        O::Bbox,
        O::MaxRanges,
        O::RangeSchema,
        O::DecodeSchema,
    ];

    fn every_format() -> Vec<KeyFormat> {
        KeyFormat::NAMES
            .iter()
            .map(|n| KeyFormat::parse(n).expect("a format"))
            .collect()
    }

    #[test]
    fn each_option_applies_to_its_formats_only() {
        let phoenix = KeyFormat::Profile(Profile::Phoenix);
        for o in ALL {
            for f in every_format() {
                let applies = match o {
                    O::Width => f == KeyFormat::Native(Format::Decimal),
                    O::SaltBuckets => f.profile().is_none() || f == phoenix,
                    O::HbaseNumeric => f == KeyFormat::Profile(Profile::Hbase),
                    O::Round => f == phoenix,
                    O::DecodeSchema => f != KeyFormat::Profile(Profile::Fdb),
                    _ => f.profile().is_none(),
                };
                assert_eq!(o.applies_to(f), applies, "{o} with {f}");
                assert_eq!(o.check(f).is_ok(), applies, "{o} with {f}");
                if !applies {
                    let e = o.check(f).unwrap_err();
                    assert_eq!((e.option(), e.format()), (o, f));
                    assert!(e.to_string().contains(f.name()), "{e}");
                    assert_eq!(o.check_value(f, 1), Err(e));
                }
            }
        }
        assert_eq!(
            O::SaltBuckets.profiles().collect::<Vec<_>>(),
            [Profile::Phoenix]
        );
    }

    #[test]
    fn width_needs_a_schema_to_decode_and_hbase_numeric_a_name() {
        let decimal = KeyFormat::Native(Format::Decimal);
        let hbase = KeyFormat::Profile(Profile::Hbase);
        for o in ALL {
            assert_eq!(o.check_decode_needs(decimal, false, false), Ok(()));
            assert_eq!(o.check_decode_needs(decimal, true, true), Ok(()));
            let needed = o.check_decode_needs(decimal, true, false);
            assert_eq!(needed.is_err(), o == O::Width, "{o}");
            assert_eq!(o.names().is_empty(), o != O::HbaseNumeric, "{o}");
        }
        let e = O::Width
            .check_decode_needs(decimal, true, false)
            .unwrap_err();
        assert_eq!(
            e,
            OptionError::Needs {
                option: O::Width,
                needs: O::DecodeSchema,
                format: decimal
            }
        );
        assert_eq!((e.option(), e.format()), (O::Width, decimal));
        assert_eq!(
            e.to_string(),
            "a width needs a schema (it applies to the schema's integer fields)"
        );
        for (name, _) in O::HbaseNumeric.names() {
            let n = super::hbase_numeric(hbase, name).unwrap();
            assert_eq!(n.name(), *name);
        }
        let e = super::hbase_numeric(hbase, "Legacy").unwrap_err();
        assert_eq!((e.option(), e.format()), (O::HbaseNumeric, hbase));
        assert_eq!(
            e.to_string(),
            "invalid HBase numeric encoding: expected current (HBase 2.5.0 and later, the \
             default) or legacy (HBase 2.4.x and older, before HBASE-26566)"
        );
        assert_eq!(
            super::expected_names(O::HbaseNumeric, |n| format!("{n:?}")),
            "\"current\" (HBase 2.5.0 and later, the default) or \"legacy\" (HBase 2.4.x and \
             older, before HBASE-26566)"
        );
    }

    #[test]
    fn numbers_are_checked_against_the_format() {
        let hex = KeyFormat::Native(Format::Hex);
        let phoenix = KeyFormat::Profile(Profile::Phoenix);
        let decimal = KeyFormat::Native(Format::Decimal);
        assert_eq!(O::SaltBuckets.values(hex), Some(1..=255));
        assert_eq!(O::SaltBuckets.values(phoenix), Some(1..=256));
        assert_eq!(O::Width.values(decimal), Some(1..=20));
        assert_eq!(O::Width.values(hex), None);
        assert_eq!(O::SaltBuckets.check_value(phoenix, 256), Ok(256));
        let e = O::SaltBuckets.check_value(hex, 256).unwrap_err();
        assert_eq!(
            e,
            OptionError::OutOfRange {
                option: O::SaltBuckets,
                format: hex,
                value: 256
            }
        );
        assert_eq!(e.to_string(), "salt buckets must be 1 to 255, got 256");
        assert_eq!(
            O::Width.check_value(decimal, 0).unwrap_err().to_string(),
            "invalid width 0: expected a number of decimal digits from 1 to 20"
        );
        assert_eq!(
            O::SaltBuckets
                .check_value(phoenix, 0)
                .unwrap_err()
                .to_string(),
            "invalid salt buckets 0: expected a number from 1 to 256 (Phoenix's SALT_BUCKETS)"
        );
    }
}
