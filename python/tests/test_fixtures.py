"""The golden fixtures (fixtures/*.tsv, fixtures/interop/*.tsv) read from
Python and checked both ways: Python gives the very bytes the Rust tests pin,
and each key decodes to the fixture's components (as Python values that
encode back to the key)."""

import datetime
import decimal
import math
import re
import uuid

import pytest

import lexikey
from conftest import REPO

FIX = REPO / "fixtures"


def unescape(s):
    """The fixtures' escapes: \\t, \\n, \\\\, \\xNN, \\u{...} (tests/golden.rs)."""
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        n = s[i + 1]
        if n in "tn\\":
            out.append({"t": "\t", "n": "\n", "\\": "\\"}[n])
            i += 2
        elif n == "x":
            out.append(chr(int(s[i + 2 : i + 4], 16)))
            i += 4
        elif n == "u":
            j = s.index("}", i)
            out.append(chr(int(s[i + 3 : j], 16)))
            i = j + 1
        else:
            raise AssertionError(f"bad escape in {s!r}")
    return "".join(out)


def rows(path):
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.startswith("#") or not line.strip():
            continue
        cols = line.split("\t")
        while cols and cols[-1].lstrip().startswith("#"):
            cols.pop()
        yield n, cols


def python_value(ty, text):
    """The Python value of a native component text, read independently."""
    return {
        "str": lambda t: t,
        "bool": lambda t: t == "true",
        "bytes": bytes.fromhex,
        "uuid": uuid.UUID,
        "dec": decimal.Decimal,
        "ts": lambda t: datetime.datetime.fromisoformat(t.replace("Z", "+00:00"))
        if not t.lstrip("-").isdigit()
        else datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(milliseconds=int(t)),
        "f64": float,
        "f32": float,
    }.get(ty, int)(text)


def same(a, b):
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    return a == b


@pytest.mark.parametrize("fmt", ["hex", "base64", "decimal", "binary"])
def test_native_fixtures(fmt):
    checked = 0
    for n, cols in rows(FIX / f"{fmt}.tsv"):
        *comps, key_col = cols
        comps = [unescape(c) for c in comps]
        key = key_col if fmt != "binary" else bytes.fromhex(key_col)
        at = f"{fmt}.tsv:{n}"
        # value -> key: as component strings and as Python values.
        assert lexikey.encode(comps, fmt) == key, at
        specs = [c.split(":", 1)[0] for c in comps]
        values = [python_value(s.split(".")[0], c.split(":", 1)[1]) for s, c in zip(specs, comps)]
        assert lexikey.encode(list(zip(specs, values)), fmt) == key, at
        assert lexikey.Schema(",".join(specs), fmt).encode(tuple(values)) == key, at
        # key -> value
        pairs = lexikey.decode(key, schema=",".join(specs), format=fmt)
        assert [t for t, _ in pairs] == specs, at
        assert all(same(v, w) for (_, v), w in zip(pairs, values)), (at, pairs, values)
        if fmt in ("hex", "base64"):
            # Tagged keys decode without a schema too (a str part may read
            # as a tagged value: then only the key is compared).
            assert lexikey.encode(lexikey.decode(key, format=fmt), fmt) == key, at
        checked += 1
    assert checked > 20


def unescape_bytes(s):
    """The interop fixtures' escapes: \\xNN is a byte (of UTF-8 text), \\\\ a backslash."""
    out, i = bytearray(), 0
    while i < len(s):
        if s.startswith("\\x", i):
            out.append(int(s[i + 2 : i + 4], 16))
            i += 4
        elif s.startswith("\\\\", i):
            out.append(0x5C)
            i += 2
        else:
            out += s[i].encode()
            i += 1
    return out.decode()


def flat(pairs):
    for t, v in pairs:
        if t == "nested":
            yield "("
            yield from flat(v)
            yield ")"
        else:
            yield t


def test_fdb_fixtures():
    checked = 0
    for n, cols in rows(FIX / "interop" / "fdb.tsv"):
        key = bytes.fromhex(cols[0])
        comps = [unescape_bytes(c) for c in cols[1:]]
        pairs = lexikey.decode(key, format="fdb-tuple")
        assert list(flat(pairs)) == [c if c in "()" else c.split(":", 1)[0] for c in comps], n
        if "(" not in comps:
            assert lexikey.encode(comps, "fdb-tuple") == key, n
            assert lexikey.encode(pairs, "fdb-tuple") == key, n
        checked += 1
    assert checked > 30


def test_hbase_fixtures():
    checked = 0
    for n, cols in rows(FIX / "interop" / "hbase.tsv"):
        if cols[0] == "value":
            comp, key = unescape_bytes(cols[1]), bytes.fromhex(cols[2])
            if ":" not in comp:
                continue  # a null alone: a Struct omits it
            spec = comp.split(":", 1)[0]
            assert lexikey.encode([comp], "hbase-ordered") == key, n
            pairs = lexikey.decode(key, spec, "hbase-ordered")
            assert pairs[0][0] == spec, n
            assert lexikey.encode(pairs, "hbase-ordered") == key, n
        elif cols[0] == "struct":
            key, comps = bytes.fromhex(cols[1]), [unescape_bytes(c) for c in cols[3:]]
            specs = [c.split(":", 1)[0] for c in comps]
            assert lexikey.encode(comps, "hbase-ordered") == key, n
            pairs = lexikey.decode(key, ",".join(specs), "hbase-ordered")
            assert [t for t, _ in pairs] == specs, n
            assert lexikey.Schema(",".join(specs), "hbase-ordered").encode(tuple(v for _, v in pairs)) == key, n
        else:
            continue
        checked += 1
    assert checked > 100


VARIABLE = ("varchar", "varbinary", "decimal")


def test_phoenix_fixtures():
    checked = 0
    for n, cols in rows(FIX / "interop" / "phoenix.tsv"):
        if cols[0] == "value":
            comp, value_hex = unescape_bytes(cols[1]), cols[2]
            spec = comp.split(":", 1)[0]
            if ":" not in comp or comp.split(":", 1)[1] == "" and spec.split(".")[0] in VARIABLE:
                continue  # null
            # A DESC variable-width last column ends with FF in a row key.
            tail = "ff" if spec.endswith(".desc") and spec.split(".")[0] in VARIABLE else ""
            key = bytes.fromhex(value_hex + tail)
            assert lexikey.encode([comp], "phoenix") == key, n
            pairs = lexikey.decode(key, spec, "phoenix")
            assert lexikey.encode(pairs, "phoenix") == key, n
        elif cols[0] == "row":
            schema, salt, key = cols[1], cols[2], bytes.fromhex(cols[3])
            comps = [unescape_bytes(c) for c in cols[4:]]
            if salt == "legacy":
                continue  # pre-4.4 tables: library only, no component syntax
            buckets = None if salt == "-" else int(salt)
            assert lexikey.encode(comps, "phoenix", salt_buckets=buckets) == key, n
            pairs = lexikey.decode(key, schema, "phoenix", salt_buckets=buckets)
            assert lexikey.Schema(schema, "phoenix", salt_buckets=buckets).encode(tuple(v for _, v in pairs)) == key, n
        else:
            continue
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("name, fmt", [("fdb", "fdb-tuple"), ("hbase", "hbase-ordered"), ("phoenix", "phoenix")])
def test_malformed_fixtures(name, fmt):
    # Every malformed key raises DecodeError at the fixture's offset.
    checked = 0
    for n, cols in rows(FIX / "interop" / f"{name}-malformed.tsv"):
        if name == "fdb":
            schema, salt, key, offset = None, None, cols[0], cols[2]
        elif name == "hbase":
            schema, salt, key, offset = cols[0], None, cols[1], cols[3]
        else:
            schema, salt, key, offset = cols[0], cols[1], cols[2], cols[4]
            if salt == "legacy":
                continue
            salt = None if salt == "-" else int(salt)
        try:
            lexikey.decode(bytes.fromhex(key), schema, fmt, salt_buckets=salt)
        except lexikey.DecodeError as e:
            assert e.offset == int(offset), (name, n, str(e))
            checked += 1
        except ValueError as e:
            # A schema the command line refuses up front (the library's own
            # tests decode it): refused here too, before any key is read.
            assert "invalid schema" in str(e), (name, n, str(e))
        else:
            raise AssertionError(f"{name}-malformed.tsv:{n}: decoded")
    assert checked > 5


def interop_value(comp):
    """The Python value of an hbase-ordered/phoenix component of the fidelity
    fixtures (numerics, decimals, text, integers), read independently."""
    spec, text = comp.split(":", 1)
    kind = spec.split(".")[0]
    if kind in ("numeric", "decimal"):
        return decimal.Decimal(text)
    if kind in ("text", "varchar"):
        return text
    return int(text)


def test_hbase_legacy_numeric_fixtures():
    # `legacy` and `lstruct` rows: HBase 2.4's numeric keys, written and
    # read back with hbase_numeric="legacy" (--hbase-numeric legacy).
    checked = 0
    for n, cols in rows(FIX / "interop" / "hbase.tsv"):
        if cols[0] == "legacy":
            comps, key, back = [cols[1]], bytes.fromhex(cols[2]), [cols[3]]
        elif cols[0] == "lstruct":
            arrow = cols.index("->")
            key, comps, back = bytes.fromhex(cols[1]), cols[2:arrow], cols[arrow + 1 :]
        else:
            continue
        specs = ",".join(c.split(":", 1)[0] for c in comps)
        assert lexikey.encode(comps, "hbase-ordered", hbase_numeric="legacy") == key, n
        pairs = lexikey.decode(key, specs, "hbase-ordered", hbase_numeric="legacy")
        assert pairs == [(b.split(":", 1)[0], interop_value(b)) for b in back], n
        s = lexikey.Schema(specs, "hbase-ordered", hbase_numeric="legacy")
        assert s.encode(tuple(interop_value(c) for c in comps)) == key, n
        assert s.decode(key) == tuple(interop_value(b) for b in back), n
        assert s.encode_many([tuple(interop_value(c) for c in comps)]) == [key], n
        checked += 1
    assert checked >= 18


def test_phoenix_round_fixtures():
    # `round` and `rrow` rows: DECIMALs of 39 to 60 digits, refused by
    # default (naming the value Phoenix stores) and rounded half up with
    # round=True (--round).
    checked = 0
    for n, cols in rows(FIX / "interop" / "phoenix.tsv"):
        if cols[0] == "round":
            comp, stored = cols[1], cols[2]
            spec = comp.split(":", 1)[0]
            key = bytes.fromhex(cols[3] + ("ff" if spec.endswith(".desc") else ""))
            comps, schema, salt = [comp], spec, None
            assert lexikey.decode(key, spec, "phoenix") == [(spec, decimal.Decimal(stored))], n
            with pytest.raises(lexikey.EncodeError, match=f"stores as {re.escape(stored)};"):
                lexikey.encode([comp], "phoenix")
        elif cols[0] == "rrow":
            schema, salt, key, comps = cols[1], cols[2], bytes.fromhex(cols[3]), cols[4:]
            salt = None if salt == "-" else int(salt)
        else:
            continue
        assert lexikey.encode(comps, "phoenix", salt_buckets=salt, round=True) == key, n
        s = lexikey.Schema(schema, "phoenix", salt_buckets=salt, round=True)
        values = tuple(interop_value(c) for c in comps)
        assert s.encode(values) == key, n
        assert s.encode_many([values, values]) == [key, key], n
        with pytest.raises(lexikey.EncodeError):
            lexikey.Schema(schema, "phoenix", salt_buckets=salt).encode(values)
        checked += 1
    assert checked >= 20


def test_fidelity_options_are_refused_where_they_do_not_apply():
    with pytest.raises(ValueError, match="hbase_numeric applies only to the hbase-ordered format, not phoenix"):
        lexikey.encode(["decimal:1"], "phoenix", hbase_numeric="legacy")
    with pytest.raises(ValueError, match='invalid hbase_numeric "old"' ):
        lexikey.Schema("numeric", "hbase-ordered", hbase_numeric="old")
    with pytest.raises(ValueError, match="round applies only to the phoenix format"):
        lexikey.Schema("str", round=True)
    with pytest.raises(ValueError, match="round applies only to the phoenix format"):
        lexikey.range(["numeric:1"], "hbase-ordered", round=True)
    with pytest.raises(ValueError, match="hbase_numeric applies only"):
        lexikey.decode("a", format="hex", hbase_numeric="current")
    # The range of a query with a legacy-only value: the command line's.
    start, end = lexikey.range(["text:a"], "hbase-ordered", ge=("numeric", decimal.Decimal("1E+702")), hbase_numeric="legacy")
    assert start == bytes.fromhex("346100") + bytes.fromhex("22f16fc8")
    assert lexikey.Schema("text,numeric", "hbase-ordered", hbase_numeric="legacy").range(("a",), ge=decimal.Decimal("1E+702")) == (start, end)
