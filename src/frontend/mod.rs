//! What every front end (the `lexikey` command, the Python and the Java
//! bindings) shares, written once: the layer between a front end's own
//! arguments and the key codec.
//!
//! - [`spec`]: [`KeySpec`](spec::KeySpec), a whole key layout in one value,
//!   and the one path from components to keys and from predicates to
//!   ranges.
//! - [`key_format`]: [`KeyFormat`](key_format::KeyFormat), every name a
//!   `format` option takes (a native format or an interop profile).
//! - [`layout`]: which option each format takes
//!   ([`LayoutOption`](layout::LayoutOption)), as a structured
//!   [`OptionError`](layout::OptionError) each front end words in its own
//!   spelling (`--width`, `width=`, `withWidth`).
//! - [`native`]: the component and schema text of the native formats
//!   (`TYPE[.desc]:VALUE`, and the kinds `ulid`, `uuid7`, `geo`).
//! - [`profile`]: the component and schema text of the interop profiles,
//!   rows encoded and decoded, exact ranges.
//! - [`host`]: host-language values (a Python `int`, a Java `Instant`, …)
//!   to typed components and back, with no text in between.
//!
//! Nothing below this module depends on it; a front end depends on it and
//! on the codec, and on nothing of another front end.

pub mod host;
pub mod key_format;
pub mod layout;
pub mod native;
pub mod profile;
pub mod spec;
