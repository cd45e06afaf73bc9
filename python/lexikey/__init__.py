"""lexikey: sortable row keys for ordered key-value stores, from Python.

The native module (Rust, PyO3) does all the work; see ``help(lexikey)``.
"""

from .lexikey import (
    AllocError,
    Allocator,
    ArrowArray,
    ContentionError,
    DecodeError,
    EncodeError,
    ExhaustedError,
    Schema,
    StoreError,
    Versionstamp,
    __version__,
    decode,
    encode,
    pack_with_versionstamp,
    range,
    render,
    reverse,
)
from .lexikey import __doc__  # noqa: F401  (help(lexikey) shows the native docs)

import datetime as _datetime
import decimal as _decimal
import uuid as _uuid
from typing import Any as _Any, List as _List, Tuple as _Tuple, Union as _Union

#: A Python value of a key component (the type aliases of the stubs, also
#: at run time so that ``lexikey.Key`` and friends can be named).
Value = _Union[
    str, int, float, bool, bytes, bytearray, _datetime.datetime, _uuid.UUID, _decimal.Decimal, _Tuple[float, float], None
]
#: A component: "TYPE[.desc]:VALUE", a (type, value) pair, or a plain value.
ComponentArg = _Union[str, _Tuple[str, _Any], Value, Versionstamp, _List[_Any]]
#: A key: str for the text formats (hex, base64, decimal), bytes otherwise.
Key = _Union[str, bytes]
#: A key argument: str, bytes or bytearray.
KeyArg = _Union[str, bytes, bytearray]

# `range` is left out of __all__: `from lexikey import *` must not shadow the
# builtin. Call it as lexikey.range(...).
__all__ = [
    "ComponentArg",
    "Key",
    "KeyArg",
    "Value",
    "AllocError",
    "Allocator",
    "ArrowArray",
    "ContentionError",
    "DecodeError",
    "EncodeError",
    "ExhaustedError",
    "Schema",
    "StoreError",
    "__version__",
    "decode",
    "encode",
    "pack_with_versionstamp",
    "render",
    "reverse",
    "Versionstamp",
]
