//! The component and schema syntax of the native formats: what a
//! `TYPE[.desc]` names and how a `TYPE[.desc]:VALUE` component is read and
//! written — the syntax the `lexikey` command, the Python and the Java
//! bindings all take, parsed here once.
//!
//! Most names are core types ([`Type`], parsed by [`Field::parse`]), so a
//! type the core gains later reaches every front end with no change here.
//! A few names are *kinds*: a core type with its own input validation and
//! output text.
//!
//! | kind | stored as | input (`KIND:VALUE`) | output |
//! |---|---|---|---|
//! | `ulid` | `uuid` (tag `g`, 16 bytes) | 26 Crockford base32 symbols, read leniently as the ULID spec asks ([`Ulid::parse`]: either case, `I`/`L` → `1`, `O` → `0`; a first symbol above `7` is refused) | the canonical ULID (uppercase) |
//! | `uuid7` | `uuid` | a hyphenated UUID with version 7 and the RFC 9562 variant (`10`); any other UUID is refused (use `uuid:`) | hyphenated lowercase; a decoded UUID that is not a v7 is an error |
//! | `geo` | `u64` | `LAT,LON` in degrees (Rust float syntax, no spaces) | the shortest `LAT,LON` inside the code's cell (nearest its center) |
//!
//! The key of `ulid:X` and `uuid7:X` is the key of `uuid:` of the same 128
//! bits; `geo:LAT,LON` is the key of `u64:CODE`, CODE the cell's code on
//! the grid of a [`GeoOpts`] (default: Hilbert curve, 32 bits per axis,
//! the whole `u64`). All take `.desc`.
//!
//! ```
//! use lexikey::frontend::native::{parse_component, GeoOpts};
//! use lexikey::{tuple, Format};
//!
//! let geo = GeoOpts::new(None, Some(16))?;
//! let (col, place) = parse_component("geo:37.7749,-122.4194", &geo)?;
//! assert_eq!(col.to_string(), "geo");
//! let (_, event) = parse_component("ulid:01ARZ3NDEKTSV4RRFFQ69G5FAV", &geo)?;
//! let key = tuple::encode(Format::Hex, &[place, event])?;
//! assert_eq!(&*key, b"u000000004B71B06D#g01563E3AB5D3D6764C61EFB99302BD5B");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt::Write as _;

use std::borrow::Cow;

use crate::kinds::geo::{Curve, Grid};
use crate::kinds::timeid::{is_uuid7, Ulid};
use crate::value::literal;
use crate::value::{Component, Field, ParseError, Type, Value};

/// The result of this module's parsers: the error is a one-line message.
pub type Result<T, E = ParseError> = std::result::Result<T, E>;

macro_rules! anyhow {
    ($($t:tt)*) => { ParseError::new(format!($($t)*)) };
}
macro_rules! bail {
    ($($t:tt)*) => { return Err(ParseError::new(format!($($t)*))) };
}

/// The kind of a column: a core type or a command-line kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A core type, read and written as the core does.
    Core(Type),
    /// A ULID, stored as a `uuid`.
    Ulid,
    /// A UUIDv7, stored as a `uuid`.
    Uuid7,
    /// A (lat, lon) point, stored as the `u64` code of its grid cell.
    Geo,
}

/// The kinds' names, for messages.
pub const CLI_KINDS: &str = "ulid, uuid7, geo";

impl Kind {
    /// The name written in components and schemas.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Core(t) => t.name(),
            Kind::Ulid => "ulid",
            Kind::Uuid7 => "uuid7",
            Kind::Geo => "geo",
        }
    }

    /// The core type that stores it.
    pub fn core(self) -> Type {
        match self {
            Kind::Core(t) => t,
            Kind::Ulid | Kind::Uuid7 => Type::Uuid,
            Kind::Geo => Type::U64,
        }
    }

    fn from_cli_name(name: &str) -> Option<Kind> {
        match name {
            "ulid" => Some(Kind::Ulid),
            "uuid7" => Some(Kind::Uuid7),
            "geo" => Some(Kind::Geo),
            _ => None,
        }
    }
}

/// A column: its kind and the core field (type, direction, decimal width)
/// that stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Col {
    /// The kind.
    pub kind: Kind,
    /// The core field: `kind.core()`, the direction, the width.
    pub field: Field,
}

impl Col {
    /// Parses `TYPE[?][.desc][.nulls_last]` (also `.asc`, `.nulls_first`;
    /// see [`Field::parse`]).
    ///
    /// # Errors
    /// An unknown type or direction.
    pub fn parse(spec: &str) -> Result<Col> {
        if spec.starts_with("list<") {
            // A list of a core type (kinds are not list elements).
            return Ok(Col::core(Field::parse(spec)?));
        }
        let (name, dir) = match spec.split_once('.') {
            None => (spec, None),
            Some((n, d)) => (n, Some(d)),
        };
        let (bare, nullable) = match name.strip_suffix('?') {
            Some(n) => (n, true),
            None => (name, false),
        };
        if let Some(kind) = Kind::from_cli_name(bare) {
            let (dir, nulls) = crate::value::parse_suffix(spec, dir, nullable)?;
            return Ok(Col {
                kind,
                field: Field {
                    ty: kind.core(),
                    dir,
                    width: None,
                    nulls,
                    list: 0,
                },
            });
        }
        let name = bare;
        let field = Field::parse(spec).map_err(|e| {
            if Type::from_name(name).is_none() {
                anyhow!("{e}, or {CLI_KINDS}")
            } else {
                e
            }
        })?;
        Ok(Col {
            kind: Kind::Core(field.ty),
            field,
        })
    }

    /// The column of a core field.
    pub fn core(field: Field) -> Col {
        Col {
            kind: Kind::Core(field.ty),
            field,
        }
    }

    /// Sets the decimal width when the stored type takes one (integers,
    /// `ts`, and `geo` as the `u64` it is).
    pub fn apply_width(&mut self, width: Option<u8>) {
        if width.is_some() && takes_width(self.field.ty) && self.field.list == 0 {
            self.field.width = width;
        }
    }

    /// Parses the text of a value of this column (borrowing strings).
    ///
    /// # Errors
    /// Text that is not a value of the kind.
    #[inline]
    pub fn parse_value<'t>(&self, text: &'t str, geo: &GeoOpts) -> Result<Value<'t>> {
        Ok(match self.kind {
            Kind::Core(ty) if self.field.list > 0 => {
                literal::parse_list(ty, self.field.list, text)?
            }
            Kind::Core(ty) => parse_field(ty, text)?,
            Kind::Ulid => Value::Uuid(
                Ulid::parse(text)
                    .map_err(|e| anyhow!("invalid ulid {text:?}: {e}"))?
                    .0,
            ),
            Kind::Uuid7 => {
                let u = literal::parse_uuid(text).map_err(|_| {
                    anyhow!(
                        "invalid uuid7 {text:?}: expected 8-4-4-4-12 hex digits with version 7, \
                         e.g. 017f22e2-79b0-7cc3-98c4-dc0c0c07398f"
                    )
                })?;
                if !is_uuid7(u) {
                    bail!(
                        "invalid uuid7 {text:?}: {} (use uuid: for other UUIDs)",
                        why_not_v7(u)
                    );
                }
                Value::Uuid(u)
            }
            Kind::Geo => Value::U64(geo.encode(text)?),
        })
    }

    /// A component of this column holding `text`.
    ///
    /// # Errors
    /// As [`Col::parse_value`].
    #[inline]
    pub fn component<'t>(&self, text: &'t str, geo: &GeoOpts) -> Result<Component<'t>> {
        Ok(Component {
            value: self.parse_value(text, geo)?,
            dir: self.field.dir,
            width: self.field.width,
            nulls: self.field.nulls,
            list: self.field.list,
        })
    }

    /// Writes the text of a decoded value of this column (what
    /// [`Col::parse_value`] reads back to the same value).
    ///
    /// # Errors
    /// A value the kind's encoder could not have written: a UUID that is
    /// not a v7 for `uuid7`, a code outside the grid for `geo`.
    pub fn write_value(&self, v: &Value<'_>, geo: &GeoOpts, out: &mut String) -> Result<()> {
        match (self.kind, v) {
            (Kind::Ulid, Value::Uuid(u)) => Ulid(*u).encode_into(out),
            (Kind::Uuid7, Value::Uuid(u)) => {
                if !is_uuid7(*u) {
                    let mut s = String::new();
                    literal::format_uuid(*u, &mut s);
                    bail!("{s} is not a UUIDv7: {}", why_not_v7(*u));
                }
                literal::format_uuid(*u, out);
            }
            (Kind::Geo, Value::U64(code)) => {
                let (lat, lon) = geo.point(*code)?;
                let _ = write!(out, "{lat},{lon}");
            }
            _ => literal::write_value(v, out),
        }
        Ok(())
    }
}

impl std::fmt::Display for Col {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            Kind::Core(ty) => crate::value::write_type_name(ty, self.field.list, f)?,
            kind => f.write_str(kind.name())?,
        }
        crate::value::write_suffix(self.field.dir, self.field.nulls, f)
    }
}

/// Why a UUID is not a v7.
fn why_not_v7(u: u128) -> String {
    let version = (u >> 76) & 0xF;
    if version != 7 {
        format!("version {version}, not 7")
    } else {
        format!(
            "variant bits {:02b}, not the RFC 9562 variant 10",
            (u >> 62) & 0b11
        )
    }
}

/// Parses a comma-separated schema of columns (`str,ulid.desc,geo`), with
/// `width` applied to its integer columns.
///
/// # Errors
/// An empty schema or a column that does not parse.
pub fn parse_schema(text: &str, width: Option<u8>) -> Result<Vec<Col>> {
    if text.trim().is_empty() {
        bail!("invalid schema {text:?}: empty schema: expected TYPE[.desc],...");
    }
    text.split(',')
        .map(|s| {
            let mut c =
                Col::parse(s.trim()).map_err(|e| anyhow!("invalid schema {text:?}: {e}"))?;
            c.apply_width(width);
            Ok(c)
        })
        .collect()
}

/// Parses a `TYPE[.desc]:VALUE` component (everything after the first `:`
/// is the value, verbatim); a nullable type alone (`i64?`,
/// `ulid?.desc.nulls_last`) is that component's null.
///
/// # Errors
/// A missing `:` (after a type that is not nullable), an unknown type, a
/// value that does not parse.
pub fn parse_component(text: &str, geo: &GeoOpts) -> Result<(Col, Component<'static>)> {
    let Some((spec, value)) = text.split_once(':') else {
        if let Some(col) = null_col(text) {
            let c = Component::of(col.field, Value::Null(col.field.ty));
            return Ok((col, c));
        }
        bail!("component {text:?} has no ':': expected TYPE[.desc]:VALUE, e.g. i64:42 or str:usa");
    };
    let col = Col::parse(spec)?;
    let c = col.component(value, geo)?;
    Ok((col, c.into_owned()))
}

/// The nullable column a component text with no `:` names, when it names
/// one: the spelling of that column's null (`i64?`, `geo?.desc`).
pub fn null_col(text: &str) -> Option<Col> {
    let base = text.split('.').next()?;
    if !base.ends_with('?') {
        return None;
    }
    Col::parse(text).ok().filter(|c| c.field.nulls.is_some())
}

/// Whether a component text names a `geo` column.
pub fn is_geo_component(text: &str) -> bool {
    text.split_once(':')
        .is_some_and(|(spec, _)| spec.split('.').next() == Some("geo"))
}

/// The grid of `geo` columns: `--curve` and `--bits`.
#[derive(Debug, Clone, Copy)]
pub struct GeoOpts {
    /// The grid.
    pub grid: Grid,
    /// Whether `--curve` or `--bits` was given.
    pub given: bool,
}

impl GeoOpts {
    /// The default bits per axis: 32, the whole `u64`.
    pub const DEFAULT_BITS: u8 = 32;

    /// The grid of `curve` (default hilbert) and `bits` per axis (1 to 32,
    /// default 32); `given` records whether either was chosen.
    ///
    /// # Errors
    /// A grid the library refuses.
    pub fn new(curve: Option<Curve>, bits: Option<u8>) -> Result<GeoOpts> {
        Ok(GeoOpts {
            grid: Grid::new(
                curve.unwrap_or(Curve::Hilbert),
                bits.unwrap_or(Self::DEFAULT_BITS),
            )
            .map_err(|e| anyhow!("{e}"))?,
            given: curve.is_some() || bits.is_some(),
        })
    }

    /// Refuses `--curve`/`--bits` when no geo column uses them.
    ///
    /// # Errors
    /// When they were given and `used` is false.
    pub fn check_used(&self, used: bool) -> Result<()> {
        if self.given && !used {
            bail!("--curve and --bits apply to geo components (TYPE geo), and none is given");
        }
        Ok(())
    }

    /// Parses `LAT,LON` to the code of its cell.
    ///
    /// # Errors
    /// Bad syntax, a latitude or longitude out of range or NaN.
    pub fn encode(&self, text: &str) -> Result<u64> {
        let (lat, lon) = parse_point(text, "geo")?;
        self.grid
            .encode(lat, lon)
            .map_err(|e| anyhow!("invalid geo {text:?}: {e}"))
    }

    /// The point printed for a code: per axis, the decimal with the fewest
    /// digits inside the cell, nearest its center (so that it encodes back
    /// to the code).
    ///
    /// # Errors
    /// A code outside the grid.
    pub fn point(&self, code: u64) -> Result<(String, String)> {
        let b = self.grid.bounds(code).map_err(|e| {
            anyhow!(
                "{e} (--curve {} --bits {})",
                self.grid.curve(),
                self.grid.bits()
            )
        })?;
        let (clat, clon) = b.center();
        let lat = shortest_inside(clat, b.min_lat, b.max_lat);
        let lon = shortest_inside(clon, b.min_lon, b.max_lon);
        // Checked: the printed point is in the cell.
        let back = |s: &str| s.parse::<f64>().ok();
        match (back(&lat), back(&lon)) {
            (Some(a), Some(o)) if self.grid.encode(a, o).ok() == Some(code) => Ok((lat, lon)),
            _ => Ok((clat.to_string(), clon.to_string())),
        }
    }
}

/// The decimal with the fewest fraction digits in `[min, max)` nearest `x`
/// (`x`, the center, when none shorter is found).
fn shortest_inside(x: f64, min: f64, max: f64) -> String {
    for digits in 0..=17 {
        let s = format!("{x:.digits$}");
        if let Ok(v) = s.parse::<f64>() {
            if v >= min && v < max {
                return if v == 0.0 { "0".to_string() } else { s };
            }
        }
    }
    x.to_string()
}

/// Parses `LAT,LON` (degrees).
///
/// # Errors
/// Anything else.
pub fn parse_point(text: &str, what: &str) -> Result<(f64, f64)> {
    let err =
        || anyhow!("invalid {what} {text:?}: expected LAT,LON in degrees, e.g. 37.7749,-122.4194");
    let (a, b) = text.split_once(',').ok_or_else(err)?;
    let lat: f64 = a.parse().map_err(|_| err())?;
    let lon: f64 = b.parse().map_err(|_| err())?;
    Ok((lat, lon))
}

/// Parses `--bbox MINLAT,MINLON,MAXLAT,MAXLON`.
///
/// # Errors
/// Anything else.
pub fn parse_bbox(text: &str) -> Result<[f64; 4]> {
    let err = || {
        anyhow!(
            "invalid --bbox {text:?}: expected MINLAT,MINLON,MAXLAT,MAXLON in degrees, \
             e.g. 37.70,-122.52,37.82,-122.35"
        )
    };
    let parts: Vec<f64> = text
        .split(',')
        .map(|p| p.parse::<f64>().map_err(|_| err()))
        .collect::<Result<_>>()?;
    <[f64; 4]>::try_from(parts).map_err(|_| err())
}

/// The core fields of `cols` (what the key decoder needs).
pub fn fields(cols: &[Col]) -> Vec<Field> {
    cols.iter().map(|c| c.field).collect()
}

/// Whether any column is a `geo`.
pub fn any_geo(cols: &[Col]) -> bool {
    cols.iter().any(|c| c.kind == Kind::Geo)
}

/// Whether a decimal width applies to a type: the integer types and `ts`
/// (other types have fixed widths in every format).
pub fn takes_width(ty: Type) -> bool {
    matches!(ty, Type::I64 | Type::U64 | Type::I32 | Type::U32 | Type::Ts)
}

/// Sets the decimal width of `c` when its type takes one ([`takes_width`]).
pub fn apply_width(c: &mut Component<'_>, width: Option<u8>) {
    if width.is_some() && takes_width(c.value.ty()) && c.list == 0 {
        c.width = width;
    }
}

/// A null in a cell of a nullable field (`TYPE?`) of the tab-separated
/// rows the command line's `encode --stdin` reads and `decode --values`
/// writes: `\N`, as PostgreSQL's `COPY`, MySQL and Hive write a null. A
/// present value whose text is `\N` is written with one backslash more
/// ([`nullable_cell_escaped`]); cells of fields without the `?` are their
/// text, always.
pub const NULL_CELL: &str = "\\N";

/// The text of the value in `cell`, a cell of a nullable field: `None`
/// for the null ([`NULL_CELL`]); the cell without its first backslash
/// when it is two or more backslashes and `N` (`\\N` is the text `\N`);
/// else the cell itself. No allocation.
///
/// ```
/// use lexikey::frontend::native::nullable_cell;
/// assert_eq!(nullable_cell("\\N"), None);
/// assert_eq!(nullable_cell("\\\\N"), Some("\\N"));
/// assert_eq!(nullable_cell(""), Some(""));
/// assert_eq!(nullable_cell("\\n"), Some("\\n"));
/// ```
pub fn nullable_cell(cell: &str) -> Option<&str> {
    match cell.strip_prefix('\\') {
        Some("N") => None,
        Some(rest) if nullable_cell_escaped(rest) => Some(rest),
        _ => Some(cell),
    }
}

/// Whether `text`, the text of a present value of a nullable field, is
/// written in a cell with one backslash more in front: when it is one or
/// more backslashes and then `N`, which [`nullable_cell`] reads with one
/// backslash less (so `\N` itself stays a value, never the null).
pub fn nullable_cell_escaped(text: &str) -> bool {
    match text.as_bytes().split_last() {
        Some((b'N', rest)) => !rest.is_empty() && rest.iter().all(|&b| b == b'\\'),
        _ => false,
    }
}

/// Parses the text of one value of type `ty`, borrowing strings.
///
/// # Errors
/// The value does not parse for the type.
#[inline]
pub fn parse_field(ty: Type, text: &str) -> Result<Value<'_>> {
    match ty {
        Type::Str => Ok(Value::Str(Cow::Borrowed(text))),
        _ => literal::parse_value(ty, text),
    }
}
