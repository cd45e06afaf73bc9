//! Writes seed inputs for every fuzz target from the golden vectors in
//! `fixtures/*.tsv`, in the input layout the targets read (see the
//! `lexikey_fuzz` crate docs):
//!
//! ```text
//! cargo run --manifest-path fuzz/Cargo.toml --no-default-features --example seed -- fixtures fuzz/corpus
//! ```
//!
//! Each seed is named `seed-<FNV-1a hash>` so re-running adds nothing twice.
//! `scripts/fuzz.sh` runs this before fuzzing; nothing here is committed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lexikey::value::literal::parse_component;
use lexikey::{Component, Field, Format, Type};
use lexikey_fuzz::{key_input, Pred, Probe, RangeCase, TuplePair};

/// One fixture line: its components and its key.
struct Line {
    comps: Vec<Component<'static>>,
    texts: Vec<String>,
    key: Vec<u8>,
}

fn hex_bytes(s: &str) -> Result<Vec<u8>, String> {
    lexikey::value::literal::parse_hex(s).map_err(|e| e.to_string())
}

fn read_fixture(path: &Path, format: Format) -> Result<Vec<Line>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if lexikey::fixture::is_comment_line(line) {
            continue;
        }
        let at = |e: String| format!("{}:{}: {e}", path.display(), n + 1);
        let mut cols: Vec<&str> = line.split('\t').collect();
        let key_col = cols.pop().unwrap_or_default();
        let mut comps = Vec::new();
        let mut texts = Vec::new();
        for c in cols {
            let t = lexikey::fixture::unescape(c).map_err(at)?;
            comps.push(parse_component(&t).map_err(|e| at(e.to_string()))?);
            texts.push(t);
        }
        let key = if format.is_text() {
            key_col.as_bytes().to_vec()
        } else {
            hex_bytes(key_col).map_err(at)?
        };
        lines.push(Line { comps, texts, key });
    }
    Ok(lines)
}

/// Seeds per target, deduplicated.
#[derive(Default)]
struct Seeds(BTreeMap<String, Vec<Vec<u8>>>);

impl Seeds {
    fn add(&mut self, target: &str, data: Vec<u8>) {
        let v = self.0.entry(target.to_string()).or_default();
        if !v.contains(&data) {
            v.push(data);
        }
    }
}

fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn schema_of(comps: &[Component<'_>]) -> Vec<Field> {
    comps.iter().map(Component::field).collect()
}

fn seed_format(format: Format, lines: &[Line], seeds: &mut Seeds) {
    let name = format.name();
    for (i, line) in lines.iter().enumerate() {
        let schema = schema_of(&line.comps);
        // decode_* / redecode_*: the key under its schema, and schemaless
        // for the tagged formats.
        for kind in ["decode", "redecode"] {
            let t = format!("{kind}_{name}");
            seeds.add(&t, key_input(Some(&schema), &line.key));
            if matches!(format, Format::Hex | Format::Base64) {
                seeds.add(&t, key_input(None, &line.key));
            }
        }
        // roundtrip_*: the line's tuple, paired with the next line of the
        // same schema (or itself).
        if line.comps.len() <= lexikey_fuzz::MAX_TUPLE {
            let next = lines[i + 1..]
                .iter()
                .chain(&lines[..i])
                .find(|l| schema_of(&l.comps) == schema);
            let b = next.map_or_else(|| line.comps.clone(), |l| l.comps.clone());
            let pair = TuplePair {
                fields: schema.clone(),
                a: line.comps.clone(),
                b,
            };
            seeds.add(&format!("roundtrip_{name}"), pair.to_bytes());
        }
        // range_build: predicates on the line's last-but-prefix component,
        // probed with that component's values from lines sharing the prefix.
        let split = usize::from(line.comps.len() >= 2);
        let (prefix, rest) = line.comps.split_at(split);
        let Some(target) = rest.first() else {
            continue;
        };
        let field = target.field();
        let probes: Vec<Probe> = lines
            .iter()
            .filter(|l| {
                l.comps.len() > split
                    && l.comps[..split] == *prefix
                    && l.comps[split].field() == field
            })
            .take(4)
            .map(|l| Probe {
                comp: l.comps[split].clone(),
                suffix: l.comps.get(split + 1).cloned(),
            })
            .collect();
        let mut preds = vec![
            vec![Pred::Ge(target.clone())],
            vec![Pred::Lt(target.clone())],
            vec![Pred::Eq(target.clone())],
        ];
        if let Some(p) = probes.iter().find(|p| p.comp != *target) {
            preds.push(vec![Pred::Between(
                target.clone(),
                true,
                p.comp.clone(),
                false,
            )]);
        }
        if let lexikey::Value::Str(s) = &target.value {
            let cut: String = s.chars().take(3).collect();
            preds.push(vec![Pred::StrPrefix(cut, target.dir)]);
        }
        for p in preds {
            let case = RangeCase {
                format,
                prefix: prefix.to_vec(),
                field,
                preds: p,
                probes: probes.clone(),
            };
            seeds.add("range_build", case.to_bytes());
        }
    }
}

fn seed_parsers(lines: &[Line], seeds: &mut Seeds) {
    for line in lines {
        for (c, t) in line.comps.iter().zip(&line.texts) {
            seeds.add("parse_component", t.as_bytes().to_vec());
            if c.value.ty() == Type::Ts {
                if let Some((_, v)) = t.split_once(':') {
                    seeds.add("parse_ts", v.as_bytes().to_vec());
                }
                if let lexikey::Value::Ts(ms) = c.value {
                    seeds.add("parse_ts", ms.to_string().into_bytes());
                    seeds.add("parse_ts", ms.to_be_bytes().to_vec());
                }
            }
            if let lexikey::Value::Dec(d) = &c.value {
                // Every mode of decode_dec: ELEN / binary, both directions.
                for mode in 0..4u8 {
                    let mut key = vec![mode];
                    if mode & 1 == 0 {
                        d.write_elen(mode & 2 != 0, &mut key);
                    } else {
                        d.write_binary(mode & 2 != 0, &mut key);
                    }
                    seeds.add("decode_dec", key);
                }
                seeds.add("decode_dec", d.to_string().into_bytes());
            }
        }
        let fields: Vec<String> = schema_of(&line.comps)
            .iter()
            .map(Field::to_string)
            .collect();
        seeds.add("parse_schema", fields.join(",").into_bytes());
        seeds.add("parse_schema", fields.join(" , ").into_bytes());
    }
}

/// The data rows of an interop fixture (tab-separated, comment columns
/// and lines dropped); component texts are kept escaped, only their
/// `TYPE[.desc]` part is used.
fn interop_rows(dir: &Path, name: &str) -> Result<Vec<Vec<String>>, String> {
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(lexikey::fixture::data_lines(&text)
        .into_iter()
        .map(|(_, cols)| cols.into_iter().map(str::to_string).collect())
        .collect())
}

/// The `TYPE[.desc]` part of a `TYPE[.desc]:VALUE` component.
fn spec(component: &str) -> &str {
    component.split(':').next().unwrap_or_default()
}

/// Seeds of `decode_fdb_tuple`, `parse_fdb_component`, `decode_hbase_ordered`
/// and `decode_phoenix` from `fixtures/interop/*.tsv` (vectors and malformed
/// keys).
fn seed_interop(dir: &Path, seeds: &mut Seeds) -> Result<(), String> {
    use lexikey::interop::{hbase, phoenix};
    use lexikey_fuzz::interop::{hbase_input, phoenix_input};
    for name in ["fdb.tsv", "fdb-malformed.tsv"] {
        for row in interop_rows(dir, name)? {
            seeds.add("decode_fdb_tuple", hex_bytes(&row[0])?);
        }
    }
    // parse_fdb_component: the component texts of the versionstamp and
    // nested-tuple vectors, as the fixture writes them (escapes undone).
    for row in interop_rows(dir, "fdb-versionstamp.tsv")? {
        for c in &row[2..] {
            let text = lexikey::fixture::unescape_bytes(c)?;
            seeds.add("parse_fdb_component", text.into_bytes());
        }
    }
    let fields = |specs: &[&str]| -> Result<Vec<hbase::Field>, String> {
        specs
            .iter()
            .map(|f| hbase::Field::parse(f).map_err(|e| e.to_string()))
            .collect()
    };
    for row in interop_rows(dir, "hbase.tsv")? {
        let (key, specs): (&str, Vec<&str>) = match row[0].as_str() {
            "value" | "legacy" => (&row[2], vec![spec(&row[1])]),
            "struct" => (&row[1], row[3..].iter().map(|c| spec(c)).collect()),
            "lstruct" => (
                &row[1],
                row[2..]
                    .iter()
                    .take_while(|c| *c != "->")
                    .map(|c| spec(c))
                    .collect(),
            ),
            _ => continue,
        };
        seeds.add(
            "decode_hbase_ordered",
            hbase_input(&fields(&specs)?, &hex_bytes(key)?),
        );
    }
    for row in interop_rows(dir, "hbase-malformed.tsv")? {
        let specs: Vec<&str> = row[0].split(',').collect();
        seeds.add(
            "decode_hbase_ordered",
            hbase_input(&fields(&specs)?, &hex_bytes(&row[1])?),
        );
    }
    let table = |schema: &str, salt: &str| -> Result<phoenix::Table, String> {
        let mut t = phoenix::Table::parse(schema).map_err(|e| e.to_string())?;
        if salt == "legacy" {
            t = t.legacy();
        } else if let Ok(n) = salt.parse() {
            t = t.salted(n);
        }
        Ok(t)
    };
    for row in interop_rows(dir, "phoenix.tsv")? {
        let (t, key) = match row[0].as_str() {
            "hash" => (
                table("varbinary", &row[3])?,
                format!("{:02x}{}", row[4].parse::<u8>().unwrap_or(0), row[1]),
            ),
            "value" => (table(spec(&row[1]), "-")?, row[2].clone()),
            "round" => (table(spec(&row[1]), "-")?, row[3].clone()),
            "row" | "rrow" => (table(&row[1], &row[2])?, row[3].clone()),
            _ => continue,
        };
        seeds.add("decode_phoenix", phoenix_input(&t, &hex_bytes(&key)?));
    }
    for row in interop_rows(dir, "phoenix-malformed.tsv")? {
        seeds.add(
            "decode_phoenix",
            phoenix_input(&table(&row[0], &row[1])?, &hex_bytes(&row[2])?),
        );
    }
    Ok(())
}

/// `decode_compact` seeds from `fixtures/compact.tsv` (`FORMAT`,
/// components, key): each one-component key behind its mode byte (bit 0
/// `vu64`, bit 1 descending, bits 2–3 the format's index in
/// [`Format::ALL`]).
fn seed_compact(path: &Path, seeds: &mut Seeds) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let [format, comp, key] = cols[..] else {
            continue;
        };
        let format = Format::parse(format).map_err(|e| e.to_string())?;
        let c = parse_component(comp).map_err(|e| e.to_string())?;
        let idx = Format::ALL.iter().position(|f| *f == format).unwrap_or(0) as u8;
        let mode = u8::from(c.value.ty() == Type::Vu64) | u8::from(c.dir.is_desc()) << 1 | idx << 2;
        let mut data = vec![mode];
        if format.is_text() {
            data.extend_from_slice(key.as_bytes());
        } else {
            data.extend(hex_bytes(key)?);
        }
        seeds.add("decode_compact", data);
    }
    Ok(())
}

/// `decode_nulls` seeds from `fixtures/nulls.tsv` (`FORMAT`, components,
/// key): each one-component key behind its mode byte
/// (`lexikey_fuzz::nulls_field`, `nulls_format`).
fn seed_nulls(path: &Path, seeds: &mut Seeds) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let types: Vec<Type> = Type::ALL.into_iter().chain(Type::COMPACT).collect();
    for (_, cols) in lexikey::fixture::data_lines(&text) {
        let [format, comp, key] = cols[..] else {
            continue;
        };
        let format = Format::parse(format).map_err(|e| e.to_string())?;
        let comp = lexikey::fixture::unescape(comp)?;
        let c = parse_component(&comp).map_err(|e| e.to_string())?;
        let ty = types.iter().position(|t| *t == c.value.ty()).unwrap_or(0) as u8;
        let idx = Format::ALL.iter().position(|f| *f == format).unwrap_or(0) as u8;
        let last = c.nulls == Some(lexikey::Nulls::Last);
        let mode = ty | u8::from(c.dir.is_desc()) << 4 | u8::from(last) << 5 | idx << 6;
        let mut data = vec![mode];
        if format.is_text() {
            data.extend_from_slice(key.as_bytes());
        } else {
            data.extend(hex_bytes(key)?);
        }
        seeds.add("decode_nulls", data);
    }
    Ok(())
}

/// `decode_lists` seeds from `fixtures/lists.tsv` (`FORMAT`, component,
/// key): each one-component key behind its mode and depth bytes
/// (`lexikey_fuzz::lists_field`, `nulls_format`).
fn seed_lists(path: &Path, seeds: &mut Seeds) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let types: Vec<Type> = Type::ALL.into_iter().chain(Type::COMPACT).collect();
    for (_, cols) in lexikey::fixture::data_lines(&text) {
        let [format, comp, key] = cols[..] else {
            continue;
        };
        let format = Format::parse(format).map_err(|e| e.to_string())?;
        let comp = lexikey::fixture::unescape(comp)?;
        let c = parse_component(&comp).map_err(|e| e.to_string())?;
        if c.nulls == Some(lexikey::Nulls::Last) {
            // The target's nullable fields sort their nulls first.
            continue;
        }
        let ty = types.iter().position(|t| *t == c.value.ty()).unwrap_or(0) as u8;
        let idx = Format::ALL.iter().position(|f| *f == format).unwrap_or(0) as u8;
        let mode =
            ty | u8::from(c.dir.is_desc()) << 4 | u8::from(c.nulls.is_some()) << 5 | idx << 6;
        let mut data = vec![mode, c.list - 1];
        if format.is_text() {
            data.extend_from_slice(key.as_bytes());
        } else {
            data.extend(hex_bytes(key)?);
        }
        seeds.add("decode_lists", data);
    }
    Ok(())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [fixtures, corpus] = &args[..] else {
        return Err("usage: seed FIXTURES_DIR CORPUS_DIR".into());
    };
    let mut seeds = Seeds::default();
    for format in Format::ALL {
        let path = Path::new(fixtures).join(format!("{}.tsv", format.name()));
        let lines = read_fixture(&path, format)?;
        seed_format(format, &lines, &mut seeds);
        seed_parsers(&lines, &mut seeds);
    }
    seed_interop(&Path::new(fixtures).join("interop"), &mut seeds)?;
    seed_compact(&Path::new(fixtures).join("compact.tsv"), &mut seeds)?;
    seed_nulls(&Path::new(fixtures).join("nulls.tsv"), &mut seeds)?;
    seed_lists(&Path::new(fixtures).join("lists.tsv"), &mut seeds)?;
    // A few hand-written parser seeds the fixtures do not spell.
    for s in [
        "ts:1709164800000",
        "f64:-0.0",
        "f32:inf",
        "bytes:00FF",
        "str.asc:a:b",
    ] {
        seeds.add("parse_component", s.as_bytes().to_vec());
    }
    for s in ["2024-02-29T01:00:00+01:00", "1970-01-01 00:00:00.5z", "-1"] {
        seeds.add("parse_ts", s.as_bytes().to_vec());
    }
    seeds.add(
        "parse_schema",
        b"str,i64.desc,f64.asc,bytes,uuid,ts,bool,u32,i32,u64,f32".to_vec(),
    );
    // ULIDs, store URLs, queue keys, salted keys, geo codes.
    for (target, data) in lexikey_fuzz::decoders::seeds() {
        seeds.add(target, data);
    }
    for (target, data) in lexikey_fuzz::layers::seeds() {
        seeds.add(target, data);
    }
    for (target, inputs) in &seeds.0 {
        let dir: PathBuf = Path::new(corpus).join(target);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for data in inputs {
            let path = dir.join(format!("seed-{:016x}", fnv1a(data)));
            if !path.exists() {
                std::fs::write(&path, data).map_err(|e| format!("{}: {e}", path.display()))?;
            }
        }
        println!("{target}: {} seeds", inputs.len());
    }
    Ok(())
}
