//! The output of decoded interop-profile keys (`decode --format
//! fdb-tuple|hbase-ordered|phoenix`): components in each profile's
//! `TYPE[.desc]:VALUE` syntax, one per line (or tab-separated in bulk
//! mode), or JSON. Keys are decoded by the library's
//! [`KeySpec`](lexikey::frontend::spec::KeySpec); this module only prints.

use anyhow::{anyhow, bail, Result};
use lexikey::frontend::profile::{for_each_component_text, Decoded};
use lexikey::interop::{fdb, hbase, phoenix};

use crate::common::{self, strip_type};

/// Appends a decoded key: JSON (`{"components":[…]}` and a newline), or
/// its components' texts (`values`: without `TYPE[.desc]:`), one a line,
/// or for `bulk` one line of tab-separated texts; `scratch` holds each
/// text in turn.
///
/// # Errors
/// A component whose text holds a newline (or in bulk a tab), which the
/// line-oriented output cannot show.
pub(crate) fn push_decoded(
    d: &Decoded,
    json: bool,
    values: bool,
    bulk: bool,
    scratch: &mut String,
    out: &mut Vec<u8>,
) -> Result<()> {
    if json {
        push_decoded_json(d, out);
        out.push(b'\n');
        return Ok(());
    }
    for_each_component_text(d, scratch, |i, t| {
        if bulk {
            check_line(t, b"\t\n").map_err(|e| anyhow!("component {}: {e}", i + 1))?;
            if i > 0 {
                out.push(b'\t');
            }
        } else {
            check_line(t, b"\n")?;
        }
        let start = out.len();
        out.extend_from_slice(t.as_bytes());
        if values {
            strip_type(out, start);
        }
        if !bulk {
            out.push(b'\n');
        }
        Ok::<(), anyhow::Error>(())
    })?;
    if bulk {
        out.push(b'\n');
    }
    Ok(())
}

/// Refuses a component text holding a byte of `forbidden` (a newline, or in
/// bulk output a tab), which the line-oriented output cannot hold.
fn check_line(text: &str, forbidden: &[u8]) -> Result<()> {
    if let Some(b) = text.bytes().find(|b| forbidden.contains(b)) {
        bail!(
            "a component holds {}, which the line-oriented text output cannot show: use --json",
            if b == b'\n' { "a newline" } else { "a tab" }
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------

/// A JSON value of a component.
enum Json {
    Null,
    /// A number or `true`/`false`, written as it is.
    Literal(String),
    Str(String),
    /// Nested tuple elements.
    Array(Vec<fdb::Element>),
}

/// Appends `{"components":[{"type":…,"dir":…,"value":…},…]}`.
fn push_decoded_json(d: &Decoded, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"components\":");
    match d {
        Decoded::Fdb(es) => push_fdb_array(es, out),
        Decoded::Hbase(vs) => {
            out.push(b'[');
            for (i, (f, v)) in vs.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let j = hbase_json(*f, v);
                push_component_json(f.kind.name(), f.order == hbase::Order::Descending, j, out);
            }
            out.push(b']');
        }
        Decoded::Phoenix(vs) => {
            out.push(b'[');
            for (i, (c, v)) in vs.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let j = phoenix_json(*c, v);
                let ty = c.ty.to_string();
                push_component_json(&ty, c.order == phoenix::SortOrder::Desc, j, out);
            }
            out.push(b']');
        }
    }
    out.push(b'}');
}

fn push_component_json(ty: &str, desc: bool, value: Json, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"type\":");
    common::push_json_str(ty, out);
    out.extend_from_slice(if desc {
        b",\"dir\":\"desc\",\"value\":"
    } else {
        b",\"dir\":\"asc\",\"value\":"
    });
    match value {
        Json::Null => out.extend_from_slice(b"null"),
        Json::Literal(s) => out.extend_from_slice(s.as_bytes()),
        Json::Str(s) => common::push_json_str(&s, out),
        Json::Array(es) => push_fdb_array(&es, out),
    }
    out.push(b'}');
}

fn push_fdb_array(es: &[fdb::Element], out: &mut Vec<u8>) {
    out.push(b'[');
    for (i, e) in es.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let (ty, j) = fdb_json(e);
        push_component_json(ty, false, j, out);
    }
    out.push(b']');
}

/// The value part of a `TYPE:VALUE` text.
fn value_text(component: String) -> String {
    match component.split_once(':') {
        Some((_, v)) => v.to_string(),
        None => String::new(),
    }
}

/// A float: a JSON number when finite (shortest round-trip form), else its
/// component text (`NaN`, `inf`, `-inf`, or `0x` + raw bits) as a string.
fn float_json(finite: bool, debug: String, component: impl FnOnce() -> String) -> Json {
    if finite {
        Json::Literal(debug)
    } else {
        Json::Str(value_text(component()))
    }
}

fn fdb_json(e: &fdb::Element) -> (&'static str, Json) {
    use fdb::Element as E;
    let text = || value_text(fdb::format_component(e));
    match e {
        E::Null => ("null", Json::Null),
        E::Bytes(b) => ("bytes", Json::Str(lexikey::to_hex(b))),
        E::String(s) => ("str", Json::Str(s.clone())),
        E::Nested(v) => ("nested", Json::Array(v.clone())),
        E::Int(i) => ("int", Json::Literal(i.to_string())),
        E::Float(f) => (
            "f32",
            float_json(f.is_finite(), format!("{f:?}"), || fdb::format_component(e)),
        ),
        E::Double(f) => (
            "f64",
            float_json(f.is_finite(), format!("{f:?}"), || fdb::format_component(e)),
        ),
        E::Bool(b) => ("bool", Json::Literal(b.to_string())),
        E::Uuid(_) => ("uuid", Json::Str(text())),
        E::Versionstamp(_) => ("versionstamp", Json::Str(text())),
    }
}

fn hbase_json(f: hbase::Field, v: &hbase::Value) -> Json {
    use hbase::Value as V;
    let text = || hbase::format_component(f, v);
    match v {
        V::Null => Json::Null,
        V::Int8(x) => Json::Literal(x.to_string()),
        V::Int16(x) => Json::Literal(x.to_string()),
        V::Int32(x) => Json::Literal(x.to_string()),
        V::Int64(x) => Json::Literal(x.to_string()),
        V::Float32(x) => float_json(x.is_finite(), format!("{x:?}"), text),
        V::Float64(x) => float_json(x.is_finite(), format!("{x:?}"), text),
        // Exact decimal text: up to 31 digits and exponents beyond f64.
        V::Numeric(n) => Json::Str(n.to_string()),
        V::Text(s) => Json::Str(s.clone()),
        V::Bytes(b) => Json::Str(lexikey::to_hex(b)),
    }
}

fn phoenix_json(c: phoenix::Column, v: &phoenix::Value) -> Json {
    use phoenix::Value as V;
    let text = || phoenix::format_component(c, v);
    match v {
        V::Null => Json::Null,
        V::Int(x) => Json::Literal(x.to_string()),
        V::Float(x) => float_json(x.is_finite(), format!("{x:?}"), text),
        V::Double(x) => float_json(x.is_finite(), format!("{x:?}"), text),
        V::Bool(b) => Json::Literal(b.to_string()),
        V::Date(_) | V::Timestamp(..) => Json::Str(value_text(text())),
        V::Varchar(s) | V::Char(s) => Json::Str(s.clone()),
        V::Varbinary(b) | V::Binary(b) => Json::Str(lexikey::to_hex(b)),
        // Exact decimal text: up to 38 digits and exponents beyond f64.
        V::Decimal(d) => Json::Str(d.to_string()),
    }
}
