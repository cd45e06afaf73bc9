"""lexikey with Google's Bigtable client (PyPI's google-cloud-bigtable).

google-cloud-bigtable is not a dependency of lexikey: install it to use this
module (importing it without the client raises ImportError saying so).

- ``row_set(ranges)``: the ranges of ``Schema.ranges`` (one per salt bucket
  of a salted schema) as one ``google.cloud.bigtable.row_set.RowSet``, for
  one ``Table.read_rows`` over every bucket;
- the rows read back come in bucket order; ``Schema.merge(rows)`` puts them
  in the order of their keys without the salt (newest first for an
  upside-down table).

>>> import lexikey, lexikey.bigtable
>>> events = lexikey.Schema("str,u64", salt_buckets=4)
>>> rows = table.read_rows(row_set=lexikey.bigtable.row_set(events.ranges(("comments",))))  # doctest: +SKIP
>>> newest_first = events.merge(rows)  # doctest: +SKIP
"""

from typing import Iterable, Optional, Tuple, Union

try:
    from google.cloud.bigtable.row_set import RowRange, RowSet
except ImportError:  # the client's own error stays attached as the context
    raise ImportError(
        "lexikey.bigtable needs Google's Bigtable client, which lexikey does not install: "
        "pip install google-cloud-bigtable"
    )

__all__ = ["row_set"]

_Bound = Optional[Union[str, bytes, bytearray]]


def _key(k: Union[str, bytes, bytearray]) -> bytes:
    # The client encodes a str row key as ASCII and refuses any other
    # character; lexikey's text keys are UTF-8.
    if isinstance(k, str):
        return k.encode("utf-8")
    if isinstance(k, (bytes, bytearray)):
        return bytes(k)
    raise TypeError(f"a range side is str, bytes or None, not {type(k).__name__}")


def row_set(ranges: Iterable[Tuple[_Bound, _Bound]]) -> RowSet:
    """The ``(start, end)`` ranges of ``Schema.ranges`` (or ``lexikey.range``)
    as one ``RowSet``: each a ``RowRange`` from ``start`` inclusive to ``end``
    exclusive, ``None`` an unbounded side, text keys as their UTF-8 bytes.

    A ``ranges`` item that is not a pair raises ``TypeError`` naming it."""
    rows = RowSet()  # type: ignore[no-untyped-call]
    for i, r in enumerate(ranges):
        if not isinstance(r, (tuple, list)) or len(r) != 2:
            raise TypeError(f"range {i}: a (start, end) pair, not {r!r}")
        start, end = r
        rows.add_row_range(  # type: ignore[no-untyped-call]
            RowRange(  # type: ignore[no-untyped-call]
                start_key=None if start is None else _key(start),
                end_key=None if end is None else _key(end),
            )
        )
    return rows
