//! List columns (`list<…>` fields from Arrow `List`, `LargeList` and
//! `FixedSizeList` columns): each row's elements read as the element
//! column's values, as a binding turns a host list into a
//! [`Value::List`] ([`list_element`], [`native_value`]), into vectors
//! reused from row to row.

use lexikey::frontend::host::{list_element, native_value, ArgError};
use lexikey::frontend::native::{Col, GeoOpts};
use lexikey::Value;

use crate::read::{Column, Offsets, Values};

/// The element vectors of the lists written so far, emptied, for the
/// next rows' lists (no allocation for the elements once they have
/// grown; each list value still takes its own small `Arc` header, see
/// [`lexikey::value::Items`]).
#[derive(Debug, Default)]
pub(crate) struct Pool {
    spare: Vec<Vec<Value<'static>>>,
}

impl Pool {
    /// An empty vector of elements.
    #[inline]
    fn get<'b>(&mut self) -> Vec<Value<'b>> {
        reuse(self.spare.pop().unwrap_or_default())
    }

    /// Takes back the vectors of a list (and of its lists).
    pub(crate) fn put(&mut self, v: Value<'_>) {
        if let Value::List(_, items) = v {
            // Not copied: the list was never cloned.
            let mut items = items.into_vec();
            // The elements are all lists or none is.
            if matches!(items.first(), Some(Value::List(..))) {
                for item in items.drain(..) {
                    self.put(item);
                }
            }
            self.spare.push(reuse(items));
        }
    }
}

/// An emptied vector's allocation for elements of another type of the
/// same size and alignment (another lifetime): collected in place, no
/// element to map.
pub(crate) fn reuse<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter().filter_map(|_| None).collect()
}

/// The value of row `r` of list field `col` whose elements are rows
/// `offsets` of `child` (not null: the caller takes the list's null).
///
/// # Errors
/// A null element (elements are not nullable), an element the element
/// column does not take: the message names the element (`element 2`, in
/// a list of lists `element 0: element 2`).
pub(crate) fn value<'a>(
    col: &Col,
    offsets: Offsets<'_>,
    child: &mut Column<'a>,
    r: usize,
    geo: &GeoOpts,
    pool: &mut Pool,
) -> Result<Value<'a>, String> {
    let elem = list_element(col);
    let mut items = pool.get();
    for (k, j) in offsets.range(r).enumerate() {
        let v = if child.is_null(j) {
            Err(format!(
                "element {k} is a null: list elements are not nullable"
            ))
        } else {
            element(&elem, child, j, geo, pool).map_err(|m| format!("element {k}: {m}"))
        };
        match v {
            Ok(v) => items.push(v),
            Err(m) => {
                pool.put(Value::list(col.field.ty, items));
                return Err(m);
            }
        }
    }
    Ok(Value::list(col.field.ty, items))
}

/// The value of row `j` (not null) of element column `child`, of column
/// type `elem`.
fn element<'a>(
    elem: &Col,
    child: &mut Column<'a>,
    j: usize,
    geo: &GeoOpts,
    pool: &mut Pool,
) -> Result<Value<'a>, String> {
    if let Values::List(offsets, grandchild) = &mut child.values {
        return value(elem, *offsets, grandchild, j, geo, pool);
    }
    let shown = |e: ArgError| e.to_string();
    match child.array_arg(j) {
        Some(arg) => native_value(elem, arg, geo).map_err(shown),
        // A value of the column's scratch (a big `UInt64`, a decimal's
        // text) holds no string: owned at no cost.
        None => native_value(elem, child.arg(j), geo)
            .map(Value::into_owned)
            .map_err(shown),
    }
}
