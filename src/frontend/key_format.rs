//! [`KeyFormat`]: every name a `format` option takes — the native
//! [`Format`]s and the interop [`Profile`]s — parsed and printed in one
//! place, for every front end.

use std::fmt;

use super::profile::Profile;
use crate::Format;

/// A key format by name: a native [`Format`] or an interop [`Profile`] —
/// the one name type of every front end's `format` option.
///
/// ```
/// use lexikey::frontend::key_format::KeyFormat;
/// use lexikey::frontend::profile::Profile;
/// use lexikey::Format;
/// assert_eq!(KeyFormat::parse("base64")?, KeyFormat::Native(Format::Base64));
/// assert_eq!(KeyFormat::parse("phoenix")?, KeyFormat::Profile(Profile::Phoenix));
/// assert!(KeyFormat::parse("phoenix")?.is_binary());
/// assert!(KeyFormat::parse("hexx").unwrap_err().contains("or an interop profile"));
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyFormat {
    /// hex, base64, decimal, binary.
    Native(Format),
    /// fdb-tuple, hbase-ordered, phoenix.
    Profile(Profile),
}

impl KeyFormat {
    /// Every name, native formats first.
    pub const NAMES: &'static [&'static str] = &[
        "hex",
        "base64",
        "decimal",
        "binary",
        "fdb-tuple",
        "hbase-ordered",
        "phoenix",
    ];

    /// Parses a format name.
    ///
    /// # Errors
    /// An unknown name: the message lists the formats and the profiles.
    pub fn parse(s: &str) -> Result<KeyFormat, String> {
        if let Some(p) = Profile::parse(s) {
            return Ok(KeyFormat::Profile(p));
        }
        Format::parse(s)
            .map(KeyFormat::Native)
            .map_err(|e| format!("{e}, or an interop profile: {}", Profile::NAMES))
    }

    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            KeyFormat::Native(f) => f.name(),
            KeyFormat::Profile(p) => p.name(),
        }
    }

    /// Whether keys are text (`hex`, `base64`, `decimal`).
    pub fn is_text(self) -> bool {
        matches!(self, KeyFormat::Native(f) if f.is_text())
    }

    /// Whether keys are bytes (`binary` and the profiles).
    pub fn is_binary(self) -> bool {
        !self.is_text()
    }

    /// The native format that lays out keys of this name: the profiles'
    /// keys are bytes, like [`Format::Binary`]'s.
    pub fn native(self) -> Format {
        match self {
            KeyFormat::Native(f) => f,
            KeyFormat::Profile(_) => Format::Binary,
        }
    }

    /// The profile, if this is one.
    pub fn profile(self) -> Option<Profile> {
        match self {
            KeyFormat::Profile(p) => Some(p),
            KeyFormat::Native(_) => None,
        }
    }
}

impl fmt::Display for KeyFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
