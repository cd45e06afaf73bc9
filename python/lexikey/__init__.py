"""lexikey: sortable row keys for ordered key-value stores, from Python.

The native module (Rust, PyO3) does all the work; see ``help(lexikey)``.
"""

from .lexikey import (
    AllocError,
    Allocator,
    ContentionError,
    DecodeError,
    EncodeError,
    ExhaustedError,
    Schema,
    __version__,
    decode,
    encode,
    range,
    render,
    reverse,
)
from .lexikey import __doc__  # noqa: F401  (help(lexikey) shows the native docs)

__all__ = [
    "AllocError",
    "Allocator",
    "ContentionError",
    "DecodeError",
    "EncodeError",
    "ExhaustedError",
    "Schema",
    "__version__",
    "decode",
    "encode",
    "range",
    "render",
    "reverse",
]
