//! Columns to keys: [`ArrowEncoder`], [`encode_batch`], [`encode_arrays`].

use std::sync::Arc;

use arrow_array::{Array, ArrayRef, BinaryArray, RecordBatch, StringArray};
use arrow_buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{Field, FieldRef};
use lexikey::frontend::host::{Arg, ColType};
use lexikey::frontend::key_format::KeyFormat;
use lexikey::frontend::spec::{Cell, KeySpec, RowEncoder, RowError};
use lexikey::Component;

use crate::list::{self, reuse, Pool};
use crate::read::{self, Column, Values};
use crate::{default_name, ArrowKeyError};

/// Appends the keys of a stream of record batches (or of lists of arrays)
/// to one key array: a `BinaryArray` for `binary`, `fdb-tuple`,
/// `hbase-ordered` and `phoenix`, a `StringArray` for `hex`, `base64`
/// and `decimal`. Each key is byte for byte the key the row path
/// ([`KeySpec::encoder`], [`RowEncoder::encode`]) writes for the same
/// values.
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{cast::AsArray, ArrayRef, Int64Array, StringArray};
/// use arrow_schema::{DataType, Field};
/// use lexikey::frontend::key_format::KeyFormat;
/// use lexikey::frontend::spec::KeySpec;
/// use lexikey_arrow::ArrowEncoder;
///
/// let spec = KeySpec::new(KeyFormat::parse("hex")?).with_schema("str,i64")?;
/// let fields = [
///     Arc::new(Field::new("city", DataType::Utf8, false)),
///     Arc::new(Field::new("population", DataType::Int64, false)),
/// ];
/// let mut enc = ArrowEncoder::new(&spec, &fields)?;
/// let batch: [ArrayRef; 2] = [
///     Arc::new(StringArray::from(vec!["population"])),
///     Arc::new(Int64Array::from(vec![3831868])),
/// ];
/// enc.push(&batch)?;
/// enc.push(&batch)?;
/// let keys = enc.finish();
/// assert_eq!(keys.as_string::<i32>().value(1), "population#l80000000003A783C");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ArrowEncoder<'s> {
    spec: &'s KeySpec,
    types: &'s [ColType],
    names: Vec<String>,
    enc: RowEncoder<'s>,
    /// Whether the keys are text (a `StringArray`).
    text: bool,
    /// Whether a null is an error (the native formats have none).
    no_null: bool,
    values: Vec<u8>,
    offsets: Vec<i32>,
    /// The fast path's unsalted key.
    unsalted: Vec<u8>,
    /// The rows appended so far.
    rows: usize,
}

impl<'s> ArrowEncoder<'s> {
    /// An encoder of batches whose columns are `fields`: their number and
    /// each one's type are checked against the spec's schema once (every
    /// batch pushed must have these types).
    ///
    /// # Errors
    /// A spec without a schema, another number of fields than the schema
    /// has, a field of a type its column does not take.
    pub fn new(spec: &'s KeySpec, fields: &[FieldRef]) -> Result<Self, ArrowKeyError> {
        let types = schema_of(spec)?;
        if fields.len() != types.len() {
            return Err(ArrowKeyError::new(format!(
                "{} columns; the schema has {} fields",
                fields.len(),
                types.len()
            )));
        }
        for (f, ty) in fields.iter().zip(types) {
            read::check_type(f.data_type(), ty).map_err(|m| ArrowKeyError::column(f.name(), m))?;
        }
        let enc = spec
            .encoder()
            .map_err(|e| ArrowKeyError::new(e.to_string()))?;
        Ok(ArrowEncoder {
            spec,
            types,
            names: fields.iter().map(|f| f.name().clone()).collect(),
            enc,
            text: is_text(spec.format()),
            no_null: matches!(spec.format(), KeyFormat::Native(_)),
            values: Vec::new(),
            offsets: vec![0],
            unsalted: Vec::new(),
            rows: 0,
        })
    }

    /// The number of keys appended so far.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no key has been appended.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Appends the keys of one batch's columns (in the order of the fields
    /// given to [`ArrowEncoder::new`]; sliced arrays are read from their
    /// offset). On error nothing of this batch is kept.
    ///
    /// # Errors
    /// Another number of columns, columns of unequal lengths or of another
    /// type than the fields'; a null (the native formats have none; the
    /// profiles' rules otherwise), a value out of its column's range or
    /// that the format cannot write, a key too long: the error names the
    /// column, the row (counted from the first row of the first batch)
    /// and the value.
    pub fn push(&mut self, columns: &[ArrayRef]) -> Result<(), ArrowKeyError> {
        if columns.len() != self.types.len() {
            return Err(ArrowKeyError::new(format!(
                "{} columns; the schema has {} fields",
                columns.len(),
                self.types.len()
            )));
        }
        let n = columns.first().map_or(0, |c| c.len());
        if let Some((i, c)) = columns.iter().enumerate().find(|(_, c)| c.len() != n) {
            return Err(ArrowKeyError::column(
                &self.names[i],
                format!("{} rows; the first column has {n}", c.len()),
            ));
        }
        let mut cols = read::columns(columns, self.types, &self.names)?;
        let (values_start, offsets_start) = (self.values.len(), self.offsets.len());
        let res = self.push_rows(&mut cols, n);
        let res = res.and_then(|()| self.check_text(values_start, offsets_start));
        match res {
            Ok(()) => {
                self.rows += n;
                Ok(())
            }
            Err(e) => {
                self.values.truncate(values_start);
                self.offsets.truncate(offsets_start);
                Err(e)
            }
        }
    }

    /// The batch's keys: the native formats' fast path
    /// ([`crate::fast`]) up to the first row it does not write, the
    /// generic path from there.
    fn push_rows(&mut self, cols: &mut [Column<'_>], n: usize) -> Result<(), ArrowKeyError> {
        self.offsets.reserve(n);
        let from = if self.no_null {
            match crate::fast::write_rows(
                self.spec,
                self.types,
                cols,
                0..n,
                &mut self.values,
                &mut self.offsets,
                &mut self.unsalted,
            ) {
                Ok(()) => return Ok(()),
                Err(r) => r,
            }
        } else {
            0
        };
        self.push_generic(cols, from..n)
    }

    /// The generic path: each row's values as [`Arg`]s through the core's
    /// [`RowEncoder`]; with list fields, as [`Cell`]s, each list a
    /// [`Value::List`](lexikey::Value::List) of its elements
    /// ([`crate::list`]).
    fn push_generic(
        &mut self,
        cols: &mut [Column<'_>],
        rows: std::ops::Range<usize>,
    ) -> Result<(), ArrowKeyError> {
        let mut spare: Vec<Arg<'static>> = Vec::with_capacity(cols.len());
        let mut spare_cells: Vec<Cell<'static>> = Vec::new();
        let mut pool = Pool::default();
        let lists = self
            .types
            .iter()
            .any(|t| matches!(t, ColType::Native(c) if c.field.list > 0));
        for r in rows {
            let start = self.values.len();
            // A list whose elements the element column does not take: its
            // column and message, reported unless a value before it is bad.
            let mut bad_list: Option<(usize, String)> = None;
            let res = if lists {
                let mut cells = reuse(spare_cells);
                for (i, c) in cols.iter_mut().enumerate() {
                    let cell = match (&self.types[i], c.is_null(r)) {
                        (ColType::Native(col), false) if col.field.list > 0 => {
                            match &mut c.values {
                                Values::List(offsets, child) => {
                                    match list::value(
                                        col,
                                        *offsets,
                                        child,
                                        r,
                                        self.spec.geo(),
                                        &mut pool,
                                    ) {
                                        Ok(v) => Cell::Component(Component::of(col.field, v)),
                                        Err(m) => {
                                            bad_list.get_or_insert((i, m));
                                            Cell::Arg(Arg::Other)
                                        }
                                    }
                                }
                                _ => Cell::Arg(c.arg(r)),
                            }
                        }
                        _ => Cell::Arg(c.arg(r)),
                    };
                    cells.push(cell);
                }
                let res = self.enc.encode_cells(&cells, &mut self.values);
                for cell in cells.drain(..) {
                    if let Cell::Component(c) = cell {
                        pool.put(c.value);
                    }
                }
                spare_cells = reuse(cells);
                res
            } else {
                let mut args = reuse(spare);
                for c in cols.iter_mut() {
                    args.push(c.arg(r));
                }
                let res = self.enc.encode(&args, &mut self.values);
                spare = reuse(args);
                res
            };
            // A null goes to the row encoder as `Arg::Null`, as the row
            // path's `None`/`null` does, so that the value named is the
            // row's first bad one, a null or not (the row path's). The
            // native formats have no null: one the encoder took anyway is
            // refused here.
            let no_null = self.no_null;
            let types = self.types;
            // A nullable native column (`TYPE?`) takes its nulls.
            let nullable = |i: usize| matches!(types.get(i), Some(ColType::Native(c)) if c.field.nulls.is_some());
            let null_at =
                |cols: &[Column<'_>], i: usize| no_null && !nullable(i) && cols[i].is_null(r);
            match res {
                Err(e) if e.index.is_some_and(|i| i < cols.len() && null_at(cols, i)) => {
                    let i = e.index.unwrap_or_default();
                    return Err(self.at(i, r, cols, NULL_IN_NATIVE));
                }
                Err(e) => {
                    return Err(match bad_list {
                        Some((i, m)) if e.index.is_none_or(|j| j >= i) => self.at(i, r, cols, &m),
                        _ => self.row_error(e, r, cols),
                    })
                }
                Ok(()) => {
                    if let Some((i, m)) = bad_list {
                        self.values.truncate(start);
                        return Err(self.at(i, r, cols, &m));
                    }
                    if let Some(i) = (0..cols.len()).find(|&i| null_at(cols, i)) {
                        self.values.truncate(start);
                        return Err(self.at(i, r, cols, NULL_IN_NATIVE));
                    }
                }
            }
            self.end_key()?;
        }
        Ok(())
    }

    /// Ends the key just written.
    #[inline]
    fn end_key(&mut self) -> Result<(), ArrowKeyError> {
        match i32::try_from(self.values.len()) {
            Ok(end) => {
                self.offsets.push(end);
                Ok(())
            }
            Err(_) => Err(ArrowKeyError::new(
                "the keys pass 2 GiB, the most one Arrow array holds: encode fewer rows per array",
            )),
        }
    }

    /// The text keys of this batch are UTF-8 (the core writes them so;
    /// checked once per batch, for [`ArrowEncoder::finish`]).
    fn check_text(&self, values_start: usize, offsets_start: usize) -> Result<(), ArrowKeyError> {
        if !self.text {
            return Ok(());
        }
        let bad = || ArrowKeyError::new("a text key that is not UTF-8 (a bug: please report it)");
        std::str::from_utf8(&self.values[values_start..]).map_err(|_| bad())?;
        // Every key starts on a character boundary.
        let on_boundary = self.offsets[offsets_start..].iter().all(|&o| {
            self.values
                .get(o as usize)
                .is_none_or(|&b| b & 0xC0 != 0x80)
        });
        if on_boundary {
            Ok(())
        } else {
            Err(bad())
        }
    }

    /// An error at row `r` (of this batch) of column `i`.
    fn at(&self, i: usize, r: usize, cols: &mut [Column<'_>], msg: &str) -> ArrowKeyError {
        ArrowKeyError {
            column: Some(self.names[i].clone()),
            row: Some(self.rows + r),
            value: Some(cols[i].show(r)),
            message: msg.to_string(),
        }
    }

    /// The row encoder's error at row `r` (of this batch).
    fn row_error(&self, e: RowError, r: usize, cols: &mut [Column<'_>]) -> ArrowKeyError {
        match e.index {
            Some(i) if i < cols.len() => self.at(i, r, cols, &e.error.to_string()),
            _ => ArrowKeyError {
                row: Some(self.rows + r),
                ..ArrowKeyError::new(e.error.to_string())
            },
        }
    }

    /// The keys: a `BinaryArray` (binary, fdb-tuple, hbase-ordered,
    /// phoenix) or a `StringArray` (hex, base64, decimal), no nulls.
    pub fn finish(self) -> ArrayRef {
        let offsets = OffsetBuffer::new(ScalarBuffer::from(self.offsets));
        let values = Buffer::from_vec(self.values);
        if self.text {
            // SAFETY: every batch's keys were checked to be UTF-8 and to
            // start on character boundaries when pushed (check_text), and
            // the offsets are monotonic, starting at 0, ending at the
            // values' length (end_key).
            #[allow(unsafe_code)]
            let keys = unsafe { StringArray::new_unchecked(offsets, values, None) };
            Arc::new(keys)
        } else {
            Arc::new(BinaryArray::new(offsets, values, None))
        }
    }
}

/// Why a null is refused in the native formats.
const NULL_IN_NATIVE: &str = "a null: the native formats have no null";

/// Whether a format's keys are text.
pub(crate) fn is_text(f: KeyFormat) -> bool {
    match f {
        KeyFormat::Native(f) => f.is_text(),
        KeyFormat::Profile(_) => false,
    }
}

/// The spec's schema.
pub(crate) fn schema_of(spec: &KeySpec) -> Result<&[ColType], ArrowKeyError> {
    spec.schema().ok_or_else(|| {
        ArrowKeyError::new("the key layout needs a schema (KeySpec::with_schema) for Arrow columns")
    })
}

/// The keys of one record batch (its columns in the schema's order).
///
/// # Errors
/// As [`ArrowEncoder::new`] and [`ArrowEncoder::push`]; nothing partial
/// is returned.
pub fn encode_batch(spec: &KeySpec, batch: &RecordBatch) -> Result<ArrayRef, ArrowKeyError> {
    let mut enc = ArrowEncoder::new(spec, batch.schema_ref().fields())?;
    enc.push(batch.columns())?;
    Ok(enc.finish())
}

/// The keys of a list of arrays, one per field of the schema (unnamed:
/// errors name them `c0`, `c1`, …).
///
/// # Errors
/// As [`ArrowEncoder::new`] and [`ArrowEncoder::push`]; nothing partial
/// is returned.
pub fn encode_arrays(spec: &KeySpec, columns: &[ArrayRef]) -> Result<ArrayRef, ArrowKeyError> {
    let fields: Vec<FieldRef> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| Arc::new(Field::new(default_name(i), c.data_type().clone(), true)))
        .collect();
    let mut enc = ArrowEncoder::new(spec, &fields)?;
    enc.push(columns)?;
    Ok(enc.finish())
}
