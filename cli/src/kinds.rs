//! Column kinds: what a `TYPE[.desc]` names on the command line.
//!
//! Most names are core types ([`lexikey::Type`], parsed by
//! [`Field::parse`]), so a type the core gains later reaches every command
//! with no change here. A few names are *command-line kinds*: a core type
//! with its own input validation and output text.
//!
//! | kind | stored as | input (`KIND:VALUE`) | output |
//! |---|---|---|---|
//! | `ulid` | `uuid` (tag `g`, 16 bytes) | 26 Crockford base32 symbols, read leniently as the ULID spec asks ([`Ulid::parse`]: either case, `I`/`L` → `1`, `O` → `0`; a first symbol above `7` is refused) | the canonical ULID (uppercase) |
//! | `uuid7` | `uuid` | a hyphenated UUID with version 7 and the RFC 9562 variant (`10`); any other UUID is refused (use `uuid:`) | hyphenated lowercase; a decoded UUID that is not a v7 is an error |
//! | `geo` | `u64` | `LAT,LON` in degrees (Rust float syntax, no spaces) | the shortest `LAT,LON` inside the code's cell (nearest its center) |
//!
//! The key of `ulid:X` and `uuid7:X` is the key of `uuid:` of the same 128
//! bits; `geo:LAT,LON` is the key of `u64:CODE`, CODE the cell's code on
//! the grid of `--curve` (default `hilbert`) and `--bits` (bits per axis,
//! 1 to 32, default 32: the whole `u64`). All take `.desc`.

use std::fmt::Write as _;

use anyhow::{anyhow, bail, Result};
use lexikey::geo::{Curve, Grid};
use lexikey::input;
use lexikey::timeid::{is_uuid7, Ulid};
use lexikey::{Component, Dir, Field, Type, Value};

use crate::args::GeoArgs;
use crate::common;

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

/// The command-line kinds' names, for messages.
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
    /// Parses `TYPE[.desc]` (also `.asc`).
    ///
    /// # Errors
    /// An unknown type or direction.
    pub fn parse(spec: &str) -> Result<Col> {
        let (name, dir) = match spec.split_once('.') {
            None => (spec, None),
            Some((n, d)) => (n, Some(d)),
        };
        if let Some(kind) = Kind::from_cli_name(name) {
            let dir = match dir {
                None | Some("asc") => Dir::Asc,
                Some("desc") => Dir::Desc,
                Some(other) => {
                    bail!("unknown direction {other:?} in {spec:?}: expected 'asc' or 'desc'")
                }
            };
            return Ok(Col {
                kind,
                field: Field {
                    ty: kind.core(),
                    dir,
                    width: None,
                },
            });
        }
        let field = Field::parse(spec).map_err(|e| {
            if Type::from_name(name).is_none() {
                anyhow!("{e}, or {CLI_KINDS}")
            } else {
                anyhow!(e)
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
        if width.is_some() && common::takes_width(self.field.ty) {
            self.field.width = width;
        }
    }

    /// Parses the text of a value of this column (borrowing strings).
    ///
    /// # Errors
    /// Text that is not a value of the kind.
    pub fn parse_value<'t>(&self, text: &'t str, geo: &GeoOpts) -> Result<Value<'t>> {
        Ok(match self.kind {
            Kind::Core(ty) => common::parse_field(ty, text)?,
            Kind::Ulid => Value::Uuid(
                Ulid::parse(text)
                    .map_err(|e| anyhow!("invalid ulid {text:?}: {e}"))?
                    .0,
            ),
            Kind::Uuid7 => {
                let u = input::parse_uuid(text).map_err(|_| {
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
    pub fn component<'t>(&self, text: &'t str, geo: &GeoOpts) -> Result<Component<'t>> {
        Ok(Component {
            value: self.parse_value(text, geo)?,
            dir: self.field.dir,
            width: self.field.width,
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
                    input::format_uuid(*u, &mut s);
                    bail!("{s} is not a UUIDv7: {}", why_not_v7(*u));
                }
                input::format_uuid(*u, out);
            }
            (Kind::Geo, Value::U64(code)) => {
                let (lat, lon) = geo.point(*code)?;
                let _ = write!(out, "{lat},{lon}");
            }
            _ => input::write_value(v, out),
        }
        Ok(())
    }

    /// Appends the JSON members after `"value"` that this kind adds:
    /// `,"ts":"RFC 3339"` (the embedded timestamp) for `ulid` and `uuid7`;
    /// `,"code":N,"cell":{"min_lat":…,"min_lon":…,"max_lat":…,"max_lon":…}`
    /// for `geo`.
    pub fn push_json_extra(&self, v: &Value<'_>, geo: &GeoOpts, out: &mut Vec<u8>) {
        match (self.kind, v) {
            (Kind::Ulid | Kind::Uuid7, Value::Uuid(u)) => {
                let mut s = String::new();
                // 48 bits: always a non-negative i64.
                input::format_ts((u >> 80) as i64, &mut s);
                out.extend_from_slice(b",\"ts\":\"");
                out.extend_from_slice(s.as_bytes());
                out.push(b'"');
            }
            (Kind::Geo, Value::U64(code)) => {
                if let Ok(b) = geo.grid.bounds(*code) {
                    let _ = std::io::Write::write_fmt(
                        out,
                        format_args!(
                            ",\"code\":{code},\"cell\":{{\"min_lat\":{},\"min_lon\":{},\"max_lat\":{},\"max_lon\":{}}}",
                            b.min_lat, b.min_lon, b.max_lat, b.max_lon
                        ),
                    );
                }
            }
            _ => {}
        }
    }
}

impl std::fmt::Display for Col {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.kind.name())?;
        if self.field.dir.is_desc() {
            f.write_str(".desc")?;
        }
        Ok(())
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
/// is the value, verbatim).
///
/// # Errors
/// A missing `:`, an unknown type, a value that does not parse.
pub fn parse_component(text: &str, geo: &GeoOpts) -> Result<(Col, Component<'static>)> {
    let Some((spec, value)) = text.split_once(':') else {
        bail!("component {text:?} has no ':': expected TYPE[.desc]:VALUE, e.g. i64:42 or str:usa");
    };
    let col = Col::parse(spec)?;
    let c = col.component(value, geo)?;
    Ok((col, c.into_owned()))
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

    /// `--curve hilbert|morton` (default hilbert) and `--bits N` (1 to 32,
    /// default 32), both checked by [`crate::args`].
    ///
    /// # Errors
    /// A grid the library refuses.
    pub fn new(args: &GeoArgs) -> Result<GeoOpts> {
        Ok(GeoOpts {
            grid: Grid::new(
                args.curve.unwrap_or(Curve::Hilbert),
                args.bits.unwrap_or(Self::DEFAULT_BITS),
            )
            .map_err(|e| anyhow!("{e}"))?,
            given: args.curve.is_some() || args.bits.is_some(),
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

/// A decoded component as `KIND[.desc]:VALUE`, the text `encode` reads back.
///
/// # Errors
/// As [`Col::write_value`]; a str holding a byte of `forbidden`.
pub fn push_component_text(
    col: Option<&Col>,
    c: &Component<'_>,
    forbidden: &[u8],
    geo: &GeoOpts,
    scratch: &mut String,
    out: &mut Vec<u8>,
) -> Result<()> {
    match col {
        Some(col) if !matches!(col.kind, Kind::Core(_)) => {
            scratch.clear();
            col.write_value(&c.value, geo, scratch)?;
            out.extend_from_slice(col.to_string().as_bytes());
            out.push(b':');
            out.extend_from_slice(scratch.as_bytes());
            Ok(())
        }
        _ => common::push_component_text(c, forbidden, scratch, out),
    }
}

/// Appends `{"components":[…]}` for decoded components of `cols` (core
/// components when `cols` is `None`): a command-line kind is
/// `{"type":"ulid","dir":…,"value":"<text>",…extra}` (see
/// [`Col::push_json_extra`]).
///
/// # Errors
/// As [`Col::write_value`].
pub fn push_components_json(
    cols: Option<&[Col]>,
    cs: &[Component<'_>],
    geo: &GeoOpts,
    scratch: &mut String,
    out: &mut Vec<u8>,
) -> Result<()> {
    let Some(cols) = cols.filter(|cols| cols.iter().any(|c| !matches!(c.kind, Kind::Core(_))))
    else {
        common::push_components_json(cs, scratch, out);
        return Ok(());
    };
    out.extend_from_slice(b"{\"components\":[");
    for (i, c) in cs.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        match cols.get(i) {
            Some(col) if !matches!(col.kind, Kind::Core(_)) => {
                scratch.clear();
                col.write_value(&c.value, geo, scratch)
                    .map_err(|e| anyhow!("component {}: {e}", i + 1))?;
                out.extend_from_slice(b"{\"type\":\"");
                out.extend_from_slice(col.kind.name().as_bytes());
                out.extend_from_slice(if c.dir.is_desc() {
                    b"\",\"dir\":\"desc\",\"value\":"
                } else {
                    b"\",\"dir\":\"asc\",\"value\":"
                });
                common::push_json_str(scratch, out);
                col.push_json_extra(&c.value, geo, out);
                out.push(b'}');
            }
            _ => common::push_component_json(c, scratch, out),
        }
    }
    out.extend_from_slice(b"]}");
    Ok(())
}

/// The core fields of `cols` (what the key decoder needs).
pub fn fields(cols: &[Col]) -> Vec<Field> {
    cols.iter().map(|c| c.field).collect()
}

/// Whether any column is a `geo`.
pub fn any_geo(cols: &[Col]) -> bool {
    cols.iter().any(|c| c.kind == Kind::Geo)
}
