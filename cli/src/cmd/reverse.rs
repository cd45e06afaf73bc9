//! `lexikey reverse`: the reverse number `i64::MAX - N` that Java code
//! writes into HBase row keys (`Long.MAX_VALUE - timestamp`).

use anyhow::{bail, Result};
use lexikey::{Component, Value};

use crate::args::{utf8_positionals, ReverseArgs};
use crate::common;
use crate::Io;

/// Runs `lexikey reverse`.
///
/// # Errors
/// A missing, malformed or negative `N`; a value the format cannot hold.
pub(crate) fn run(args: &ReverseArgs, io: &mut Io<'_>) -> Result<()> {
    let given_format = args.format.is_some();
    let format = args.format.unwrap_or(lexikey::Format::Hex);
    let width = crate::layout::width(args.width.as_deref(), format)?;
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
        let spec = lexikey::frontend::spec::KeySpec::new(
            lexikey::frontend::key_format::KeyFormat::Native(format),
        )
        .with_width(width)?;
        let key = spec.encode(&[lexikey::frontend::spec::Comp::native(Component::asc(
            Value::I64(r),
        ))])?;
        common::push_key(format, &key, &mut out);
    } else {
        out.extend_from_slice(r.to_string().as_bytes());
    }
    out.push(b'\n');
    io.stdout.write_all(&out)?;
    Ok(())
}
