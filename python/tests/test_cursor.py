"""Page cursors (issue #43): Schema.page_ranges and Schema.cursor read a
query page by page; rows inserted and deleted between pages, every row
present throughout is read once, in order; bad cursors are ValueErrors."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexikey
from conftest import size


def read_page(table, ranges, salt_len, page):
    """Up to `page` keys of each range, merged by the key without salt."""
    keys = []
    for start, end in ranges:
        inside = [k for k in sorted(table) if (start is None or k >= start) and (end is None or k < end)]
        keys.extend(inside[:page])
    return sorted(keys, key=lambda k: k[salt_len:])[:page]


@settings(max_examples=size(40, 300), deadline=None)
@given(
    initial=st.sets(st.integers(0, 500), max_size=40),
    buckets=st.sampled_from([None, 1, 3, 4]),
    page=st.integers(1, 7),
    changes=st.lists(st.lists(st.tuples(st.booleans(), st.integers(0, 500)), max_size=4), max_size=30),
    secret=st.one_of(st.none(), st.text(max_size=8), st.binary(max_size=8)),
    ge=st.one_of(st.none(), st.integers(0, 300)),
)
def test_pages_read_every_row_once_in_order(initial, buckets, page, changes, secret, ge):
    s = lexikey.Schema("str,i64", salt_buckets=buckets)
    salt_len = 3 if buckets else 0
    query = {"prefix": ("events",), "ge": ge}
    table = {s.encode(("events", i)) for i in initial}
    table |= {s.encode(("other", i)) for i in initial}  # outside the query
    throughout = {i for i in initial if ge is None or i >= ge}
    seen, token, changes = [], None, iter(changes)
    while True:
        ranges = s.page_ranges(**query, after=token, secret=secret)
        rows = read_page(table, ranges, salt_len, page)
        seen.extend(s.decode(k)[1] for k in rows)
        if len(rows) < page:
            break
        token = s.cursor(rows[-1], **query, after=token, secret=secret)
        assert token.replace("-", "").replace("_", "").isalnum()
        for insert, i in next(changes, []):
            key = s.encode(("events", i))
            if insert:
                table.add(key)
            else:
                table.discard(key)
                throughout.discard(i)
    assert all(a < b for a, b in zip(seen, seen[1:])), seen
    assert throughout <= set(seen)


def test_bad_cursors_are_value_errors():
    s = lexikey.Schema("str,i64", salt_buckets=2)
    last = s.encode(("events", 7))
    token = s.cursor(last, ("events",))
    signed = s.cursor(last, ("events",), secret="k")
    # The next page starts just after the last key, in every bucket.
    assert s.page_ranges(("events",), after=token) == [
        (f"0{b}#events#l8000000000000007 ", f"0{b}#events$") for b in range(2)
    ]
    assert s.page_ranges(("events",), after=signed, secret=b"k") == s.page_ranges(("events",), after=token)
    damaged = token[:-2] + ("A" if token[-2] != "A" else "B") + token[-1]
    for schema, prefix, tok, secret, want in [
        (s, ("events",), damaged, None, "invalid cursor"),
        (s, ("events",), token + "!", None, "not base64url"),
        (lexikey.Schema("str,i64", salt_buckets=3), ("events",), token, None, "another schema"),
        (lexikey.Schema("str,i64"), ("events",), token, None, "another schema"),
        (s, ("clicks",), token, None, "another range"),
        (s, ("events",), token, "k", "not signed"),
        (s, ("events",), signed, "other", "signature does not match"),
        (s, ("events",), signed, None, "pass the secret"),
    ]:
        with pytest.raises(ValueError, match=want):
            schema.page_ranges(prefix, after=tok, secret=secret)
    with pytest.raises(ValueError, match="last_key"):
        s.cursor(lexikey.Schema("str,i64", salt_buckets=2).encode(("clicks", 1)), ("events",))


def _cli(exe, args):
    import subprocess

    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=300)


@settings(max_examples=size(12, 100), deadline=None)
@given(
    fmt=st.sampled_from(["hex", "base64", "decimal", "binary"]),
    buckets=st.sampled_from([None, 1, 3]),
    ge=st.one_of(st.none(), st.integers(0, 300)),
    picks=st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)),
    secret=st.one_of(st.none(), st.text("abcxyz019", min_size=1, max_size=6)),
)
def test_cursors_pass_between_the_command_line_and_python(fmt, buckets, ge, picks, secret):
    """A cursor the command line makes (`range --last KEY`) is the token
    Schema.cursor makes of the same page, byte for byte, and each reads the
    other's: `range --after TOKEN` prints the ranges Schema.page_ranges
    gives, page after page."""
    from test_api import lexikey_binary

    exe = lexikey_binary()
    if exe is None:
        pytest.skip("the lexikey binary is not built (cargo build -p lexikey-cli)")
    s = lexikey.Schema("str,i64", fmt, salt_buckets=buckets)
    query = {"prefix": ("events",), "ge": ge}
    cli = [f"--format={fmt}"]
    if buckets:
        cli.append(f"--salt-buckets={buckets}")
    if ge is not None:
        cli.append(f"--ge=i64:{ge}")
    sign = [f"--secret={secret}"] if secret else []
    text = fmt != "binary"

    def shown(k):
        return k if text else k.hex()

    lo = ge or 0
    # Pages in the query's order: the last rows' values rise.
    lasts = [s.encode(("events", i)) for i in sorted(lo + p % 400 for p in picks)]
    token_cli = token_py = None
    for last in lasts:
        after = [f"--after={token_cli}"] if token_cli else []
        out = _cli(exe, ["range", *cli, *after, f"--last={shown(last)}", *sign, "--", "str:events"])
        assert out.returncode == 0 and out.stderr == "", out
        token_cli = out.stdout.rstrip("\n")
        token_py = s.cursor(last, **query, after=token_py, secret=secret)
        assert token_cli == token_py
        # Each reads the other's token: the same next page.
        want = s.page_ranges(**query, after=token_cli, secret=secret)
        out = _cli(exe, ["range", *cli, f"--after={token_py}", *sign, "--", "str:events"])
        if not want:
            assert out.returncode == 2 and "no next page" in out.stderr, out
            continue
        assert out.returncode == 0, out
        lines = out.stdout.splitlines()
        assert lines == [shown(k) if k is not None else "" for r in want for k in r]
        # In the bucket of `last`, the next page starts just after it.
        assert last + (" " if text else b"\0") in [start for start, _ in want]
