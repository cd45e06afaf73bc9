"""Type stubs for lexikey (the native module's API; see help(lexikey))."""

import datetime
import decimal
import uuid
from typing import Any, Iterable, Literal, Optional, Sequence, Tuple, TypeVar, Union, final, overload

__version__: str
__all__ = [
    "AllocError",
    "Allocator",
    "ArrowArray",
    "ComponentArg",
    "ContentionError",
    "DecodeError",
    "EncodeError",
    "ExhaustedError",
    "Key",
    "KeyArg",
    "Schema",
    "StoreError",
    "Value",
    "Versionstamp",
    "__version__",
    "decode",
    "encode",
    "pack_with_versionstamp",
    "render",
    "reverse",
]

#: A Python value of a key component: str, int, float, bool, bytes,
#: datetime.datetime (tz-aware), uuid.UUID, decimal.Decimal, a (lat, lon)
#: tuple for geo, or None (a null in the interop profiles).
Value = Union[
    str, int, float, bool, bytes, bytearray, datetime.datetime, uuid.UUID, decimal.Decimal, Tuple[float, float], None
]
#: A component: "TYPE[.desc]:VALUE" as on the command line, a (type, value)
#: pair, or a plain value (str, int → i64, float → f64, bool, bytes, datetime
#: → ts, UUID, Decimal → dec); in fdb-tuple also a Versionstamp, and a list of
#: components: a nested tuple.
ComponentArg = Union[str, Tuple[str, Any], Value, "Versionstamp", list[Any]]
#: A key: str for the text formats (hex, base64, decimal), bytes otherwise.
Key = Union[str, bytes]
KeyArg = Union[str, bytes, bytearray]
#: A row of Schema.merge: whatever the caller's scans hold.
_Row = TypeVar("_Row")

class DecodeError(ValueError):
    """A key that does not decode; `offset` is the byte at fault."""

    offset: int

class EncodeError(ValueError):
    """Components or values that cannot be encoded."""

class AllocError(RuntimeError):
    """An allocation failed; `kind` says why, `ids` lists the IDs allocated before it."""

    kind: str
    ids: list[int]

class ContentionError(AllocError):
    """Every attempt lost to another client (kind 'contention'); retry later."""

class StoreError(OSError):
    """A store that cannot be opened or reached (refused connection, missing
    directory, TLS or authentication): raised by Allocator(...)."""

class ExhaustedError(AllocError):
    """No ID is left above the floor (kind 'exhausted')."""

@overload
def encode(
    components: Iterable[ComponentArg],
    format: Literal["hex", "base64", "decimal"] = "hex",
    *,
    salt_buckets: Optional[int] = None,
    width: Optional[int] = None,
    hbase_numeric: Optional[str] = None,
    round: bool = False,
) -> str: ...
@overload
def encode(
    components: Iterable[ComponentArg],
    format: Literal["binary", "fdb-tuple", "hbase-ordered", "phoenix"],
    *,
    salt_buckets: Optional[int] = None,
    width: Optional[int] = None,
    hbase_numeric: Optional[str] = None,
    round: bool = False,
) -> bytes: ...
@overload
def encode(
    components: Iterable[ComponentArg],
    format: str = "hex",
    *,
    salt_buckets: Optional[int] = None,
    width: Optional[int] = None,
    hbase_numeric: Optional[str] = None,
    round: bool = False,
) -> Key:
    """The key of a tuple of components (str for text formats, bytes otherwise).
    hbase_numeric="legacy": HBase 2.4's numerics (hbase-ordered); round=True:
    a phoenix DECIMAL of over 38 digits rounded as Phoenix stores it."""

def decode(
    key: KeyArg,
    schema: Optional[str] = None,
    format: str = "hex",
    *,
    salt_buckets: Optional[int] = None,
    width: Optional[int] = None,
    hbase_numeric: Optional[str] = None,
) -> list[Tuple[str, Any]]:
    """The (type, value) pairs of a key."""

def range(
    components: Iterable[ComponentArg],
    format: str = "hex",
    ge: Optional[ComponentArg] = None,
    gt: Optional[ComponentArg] = None,
    le: Optional[ComponentArg] = None,
    lt: Optional[ComponentArg] = None,
    eq: Optional[ComponentArg] = None,
    str_prefix: Optional[str] = None,
    *,
    width: Optional[int] = None,
    hbase_numeric: Optional[str] = None,
    round: bool = False,
    schema: Optional[str] = None,
    is_null: Optional[str] = None,
    not_null: Optional[str] = None,
) -> Tuple[Optional[Key], Optional[Key]]:
    """The half-open key range (start, end) of a query; None is unbounded."""

def render(
    start: Optional[KeyArg], end: Optional[KeyArg], target: str, table: Optional[str] = None
) -> str:
    """The range in a store's syntax (hbase, cbt, cql, rocksdb, etcd, redis, sql, raw)."""

def reverse(n: int) -> int:
    """9223372036854775807 - n, the HBase reverse number."""

@final
class Versionstamp:
    """A FoundationDB versionstamp: a 10-byte transaction version (None:
    incomplete, completed by the database at commit) and a 16-bit user version."""

    def __new__(cls, tr_version: Optional[bytes], user_version: int = 0) -> "Versionstamp": ...
    @property
    def tr_version(self) -> Optional[bytes]: ...
    @property
    def user_version(self) -> int: ...
    def is_complete(self) -> bool: ...
    def to_bytes(self) -> bytes:
        """The 12 bytes as packed."""
    def __eq__(self, other: object, /) -> bool: ...
    def __lt__(self, other: "Versionstamp", /) -> bool: ...
    def __le__(self, other: "Versionstamp", /) -> bool: ...
    def __gt__(self, other: "Versionstamp", /) -> bool: ...
    def __ge__(self, other: "Versionstamp", /) -> bool: ...
    def __hash__(self) -> int: ...

def pack_with_versionstamp(components: Iterable[ComponentArg]) -> bytes:
    """The fdb-tuple key of components holding exactly one incomplete
    Versionstamp, its 4-byte little-endian offset appended (what
    fdb.tuple.pack_with_versionstamp returns)."""

@final
class Schema:
    """The fields of a key, parsed once: Schema("str,i64.desc", format="hex")."""

    def __new__(
        cls,
        spec: str,
        format: str = "hex",
        *,
        width: Optional[int] = None,
        salt_buckets: Optional[int] = None,
        hbase_numeric: Optional[str] = None,
        round: bool = False,
    ) -> "Schema": ...
    @property
    def spec(self) -> str: ...
    @property
    def format(self) -> str: ...
    @property
    def fields(self) -> list[str]: ...
    def __eq__(self, value: object, /) -> bool:
        """Schemas are equal when they describe the same keys (format, fields, options)."""
    def __hash__(self) -> int: ...
    def __getnewargs_ex__(self) -> Tuple[Tuple[str, str], dict[str, Any]]:
        """Pickling: the arguments that make the same schema."""
    def encode(self, values: Sequence[Any]) -> Key:
        """The key of one row."""
    def decode(self, key: KeyArg) -> Tuple[Any, ...]:
        """The values of one key."""
    def encode_many(self, rows: Iterable[Sequence[Any]]) -> list[Key]:
        """The keys of many rows (GIL released while encoding; past 8,192
        rows, with more than one CPU, a second thread encodes while the
        next rows are read)."""
    def lint(self, rows: Union[Iterable[Sequence[Any]], object], regions: int = 16) -> dict[str, Any]:
        """Hot spots, skew and key sizes of the key design on sample rows in
        insertion order (tuples, or Arrow data as `encode_arrow` takes it),
        as `lexikey lint --json` reports them."""
    def plan(
        self,
        rows: Union[Iterable[Sequence[Any]], object],
        regions: int,
        target: str = "hbase",
        table: str = "t",
    ) -> str:
        """The command that creates `table` split into `regions` regions at the
        rows' key quantiles (target: hbase, cbt or phoenix)."""
    def diff(self, other: Schema) -> dict[str, Any]:
        """Whether every key this schema writes reads back under `other` as the
        same values and sorts the same, as `lexikey schema diff --json`
        reports it (compatible, reason, changes, witnesses, migration)."""
    def decode_many(self, keys: Iterable[KeyArg]) -> list[Tuple[Any, ...]]:
        """The values of many keys (GIL released while decoding; the cyclic
        garbage collector paused while the result is built, as it was after)."""
    def range(
        self,
        prefix: Sequence[Any] = (),
        ge: Any = None,
        gt: Any = None,
        le: Any = None,
        lt: Any = None,
        eq: Any = None,
        str_prefix: Optional[str] = None,
        *,
        is_null: bool = False,
        not_null: bool = False,
    ) -> Tuple[Optional[Key], Optional[Key]]:
        """The key range of a prefix of values and predicates on the next field
        (a salted schema: ValueError, see ranges)."""
    def ranges(
        self,
        prefix: Sequence[Any] = (),
        ge: Any = None,
        gt: Any = None,
        le: Any = None,
        lt: Any = None,
        eq: Any = None,
        str_prefix: Optional[str] = None,
        *,
        is_null: bool = False,
        not_null: bool = False,
    ) -> list[Tuple[Optional[Key], Optional[Key]]]:
        """The ranges of a query: one per salt bucket (bucket 0 first) for a
        salted schema, else [range(...)]."""
    def page_ranges(
        self,
        prefix: Sequence[Any] = (),
        ge: Any = None,
        gt: Any = None,
        le: Any = None,
        lt: Any = None,
        eq: Any = None,
        str_prefix: Optional[str] = None,
        after: Optional[str] = None,
        secret: Optional[Union[str, bytes]] = None,
        *,
        is_null: bool = False,
        not_null: bool = False,
    ) -> list[Tuple[Optional[Key], Optional[Key]]]:
        """The ranges of the next page of a query: ranges(...) when after is
        None, else each range from just after the last key the cursor holds
        (ValueError: a cursor for another schema or query, damaged, or not
        signed with secret)."""
    def cursor(
        self,
        last_key: KeyArg,
        prefix: Sequence[Any] = (),
        ge: Any = None,
        gt: Any = None,
        le: Any = None,
        lt: Any = None,
        eq: Any = None,
        str_prefix: Optional[str] = None,
        after: Optional[str] = None,
        secret: Optional[Union[str, bytes]] = None,
        *,
        is_null: bool = False,
        not_null: bool = False,
    ) -> str:
        """The cursor (an opaque base64url token) after a page of the query,
        read from page_ranges(..., after=after), whose last row has key
        last_key (with its salt); with secret, signed (HMAC-SHA256)."""
    def encode_arrow(self, data: object) -> "ArrowArray":
        """The keys of Arrow data (any object with __arrow_c_stream__ or
        __arrow_c_array__: a pyarrow Table/RecordBatch/Array, a polars
        DataFrame/Series, a DuckDB relation...; its columns are the fields)
        as one Arrow column (binary, or string for the text formats); the
        GIL released. EncodeError names the column, row and value."""
    def decode_arrow(self, keys: object, names: Optional[Sequence[str]] = None) -> "ArrowArray":
        """The values of an Arrow column of keys as a batch of Arrow columns
        (one per field, named `names` or c0, c1, ...); the GIL released.
        DecodeError names the row."""
    def merge(self, *scans: Iterable[_Row]) -> list[_Row]:
        """Rows read back from the buckets of a salted table ((key, row)
        tuples, or objects with a row_key such as google-cloud-bigtable's
        rows; one iterable per bucket or one holding them all) in the order
        of their keys without the salt (newest first for an upside-down
        table); stable, every row kept."""

@final
class ArrowArray:
    """Arrow data made by lexikey (the keys of encode_arrow, the batch of
    decode_arrow), handed to any Arrow library through the PyCapsule
    interface without a copy: pyarrow.array(r), pyarrow.table(r),
    polars.Series(r), polars.DataFrame(r)."""

    def __len__(self) -> int: ...
    def __arrow_c_schema__(self) -> object: ...
    def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> Tuple[object, object]: ...
    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...

@final
class Allocator:
    """Decreasing row IDs for an upside-down table in a store."""

    def __new__(
        cls,
        store_url: str,
        table: str,
        format: str = "hex",
        guard: bool = False,
        *,
        start: Optional[int] = None,
        floor: Optional[int] = None,
        salt_buckets: Optional[int] = None,
        salt_mode: str = "fast",
        read_only: bool = False,
    ) -> "Allocator":
        """`start`: an empty table's first ID (default 2**64 - 1); `floor`:
        the smallest ID handed out (default 0); `salt_buckets`: rows spread
        over N buckets (1 to 255; None or 0: no salt), `salt_mode` its hash
        ("fast" or "phoenix"), the same for every client of a table;
        `read_only`: open an existing table for reading only: nothing is
        created (a missing file, PostgreSQL table, Bigtable table or column
        family is a StoreError naming it), insert raises AllocError, and
        without salt_buckets a salted table is read with the salt its salt
        record names."""
    def close(self) -> None:
        """Lets go of the store now; later calls raise ValueError."""
    def __enter__(self) -> "Allocator": ...
    def __exit__(self, _exc_type: object = None, _exc: object = None, _tb: object = None) -> bool:
        """Closes the allocator (an exception in the block goes on)."""
    def insert(self, value: Union[bytes, bytearray]) -> int:
        """Inserts a row and returns its new ID."""
    def insert_many(self, values: Iterable[Union[bytes, bytearray]]) -> list[int]:
        """Inserts rows in order and returns their IDs."""
    def newest(self) -> Optional[Tuple[int, bytes]]:
        """The newest row (id, value), or None."""
    def oldest(self) -> Optional[Tuple[int, bytes]]:
        """The oldest row (id, value), or None."""
    def scan(self, limit: Optional[int] = None) -> list[Tuple[int, bytes]]:
        """Rows (id, value), newest first."""
