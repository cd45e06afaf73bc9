//! `lexikey reverse`: the reverse number `i64::MAX - N` that Java code
//! writes into HBase row keys (`Long.MAX_VALUE - timestamp`).

use anyhow::{bail, Result};
use lexikey::{Component, Value};

use crate::args::{utf8_positionals, ReverseArgs};
use crate::common;
use crate::Io;

/// Help text.
pub const USAGE: &str = "\
Usage:
  lexikey reverse [--format F] [--width N] N

Prints i64::MAX - N (0 <= N <= 9223372036854775807), the reverse number existing
HBase tables hold for newest-first order; reversing is its own inverse:
  lexikey reverse 1                   ->  9223372036854775806
  lexikey reverse 9223372036854775806 ->  1
With --format F, prints the i64 key of i64::MAX - N in format F instead (binary as
lowercase hex; --width N for a narrower decimal width):
  lexikey reverse --format hex 1      ->  lFFFFFFFFFFFFFFFE
";

/// Runs `lexikey reverse`.
///
/// # Errors
/// A missing, malformed or negative `N`; a value the format cannot hold.
pub fn run(args: &ReverseArgs, io: &mut Io<'_>) -> Result<()> {
    let given_format = args.format.is_some();
    let format = args.format.unwrap_or(lexikey::Format::Hex);
    let width = common::width(args.width.as_deref(), format)?;
    let ns = utf8_positionals(&args.n, "N")?;
    let n = match ns.as_slice() {
        [n] => *n,
        [] => bail!("missing N: expected one integer from 0 to {}", i64::MAX),
        _ => bail!("reverse takes exactly one N, got {}", ns.len()),
    };
    let Ok(v) = n.parse::<i64>() else {
        bail!(
            "invalid N {n:?}: expected an integer from 0 to {}",
            i64::MAX
        );
    };
    let r = lexikey::reverse(v)?;
    let mut out = Vec::with_capacity(64);
    if given_format {
        let mut c = Component::asc(Value::I64(r));
        common::apply_width(&mut c, width);
        let key = super::encode::encode_components(format, &[c])?;
        common::push_key(format, &key, &mut out);
    } else {
        out.extend_from_slice(r.to_string().as_bytes());
    }
    out.push(b'\n');
    io.stdout.write_all(&out)?;
    Ok(())
}
