//! The command line's output of the kinds of [`lexikey::frontend::native`] (component
//! and schema syntax live in the library): decoded components as text and
//! JSON, and the `--curve`/`--bits` options.

use anyhow::{anyhow, bail, Result};
use lexikey::kinds::geo::Curve;
use lexikey::{value::literal, Component, Value};

pub(crate) use lexikey::frontend::native::{
    any_geo, fields, is_geo_component, parse_bbox, parse_schema, Col, GeoOpts, Kind,
};

use crate::args::GeoArgs;
use crate::common;

/// The grid of `--curve` and `--bits` (checked by [`crate::args`]).
///
/// # Errors
/// A grid the library refuses.
pub(crate) fn geo_opts(args: &GeoArgs) -> Result<GeoOpts> {
    let curve: Option<Curve> = args.curve;
    Ok(GeoOpts::new(curve, args.bits)?)
}

/// Refuses `--curve`/`--bits` when no geo column uses them.
///
/// # Errors
/// When they were given and `used` is false.
pub(crate) fn check_geo_used(geo: &GeoOpts, used: bool) -> Result<()> {
    if geo.given && !used {
        bail!("--curve and --bits apply to geo components (TYPE geo), and none is given");
    }
    Ok(())
}

/// A decoded component as `KIND[.desc]:VALUE`, the text `encode` reads back.
///
/// # Errors
/// As [`Col::write_value`]; a str holding a byte of `forbidden`.
pub(crate) fn push_component_text(
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
/// [`push_json_extra`]).
///
/// # Errors
/// As [`Col::write_value`].
pub(crate) fn push_components_json(
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
                push_json_extra(col, &c.value, geo, out);
                out.push(b'}');
            }
            _ => common::push_component_json(c, scratch, out),
        }
    }
    out.extend_from_slice(b"]}");
    Ok(())
}

/// Appends the JSON members after `"value"` that this kind adds:
/// `,"ts":"RFC 3339"` (the embedded timestamp) for `ulid` and `uuid7`;
/// `,"code":N,"cell":{"min_lat":…,"min_lon":…,"max_lat":…,"max_lon":…}`
/// for `geo`.
pub(crate) fn push_json_extra(col: &Col, v: &Value<'_>, geo: &GeoOpts, out: &mut Vec<u8>) {
    match (col.kind, v) {
        (Kind::Ulid | Kind::Uuid7, Value::Uuid(u)) => {
            let mut s = String::new();
            // 48 bits: always a non-negative i64.
            literal::format_ts((u >> 80) as i64, &mut s);
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
