//! [`Dialect::Rocksdb`]: RocksDB's `ReadOptions` bounds,
//! `iterate_lower_bound=…` and `iterate_upper_bound=…`, as two lines.

use super::{hex_into, Bounds, RenderError, RenderOptions, Side};

pub(super) fn rocksdb(
    b: &Bounds<'_>,
    o: &RenderOptions,
    out: &mut String,
) -> Result<(), RenderError> {
    for (side, key) in b.sides() {
        out.push_str(match side {
            Side::Start => "iterate_lower_bound=",
            Side::End => "iterate_upper_bound=",
        });
        if let Some(key) = key {
            let as_is = o.text
                && key.iter().all(|&b| (0x21..=0x7E).contains(&b))
                && !(key.len() >= 2 && key[0] == b'0' && matches!(key[1], b'x' | b'X'));
            if as_is {
                out.extend(key.iter().map(|&b| b as char));
            } else {
                out.push_str("0x");
                hex_into(key, out);
            }
        }
        out.push('\n');
    }
    Ok(())
}
