"""DynamoDB from Python, against dynalite (npm `dynalite`, a DynamoDB on
LevelDB) that scripts/with-stores.sh starts (LEXIKEY_DYNAMODB_ENDPOINT):

- the `aws dynamodb query` commands of `lexikey range --for dynamodb` (and
  `lexikey.render(..., "dynamodb")`), run through boto3 for every generated
  predicate and, for a subset (the aws command takes ~0.5 s to start), by
  bash and the real `aws` commands with `--endpoint-url` appended — aws CLI
  v2 (Debian's `awscli`, which scripts/test.sh installs) for every line,
  and PyPI's awscli v1 for the text keys' lines — each returns exactly the
  rows of its range, text and binary keys, ascending and descending
  fields, salted tables one query per bucket, merged;
- tables in lexikey's layout (lexikey::range::render::dynamodb) written by
  boto3 with keys from Schema.encode read back in the values' order;
- lexikey.Allocator("dynamodb://…"): its rows are what the printed query of
  its table returns, and a salted table's buckets are partitions of their
  own.

Without dynalite the tests fail, never skip (scripts/install-stores.sh
installs it).
"""

import base64
import functools
import json
import os
import random
import shlex
import subprocess
import sys
import uuid
from pathlib import Path

import boto3
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexikey
from conftest import REPO, size

LEXIKEY = os.environ.get("LEXIKEY_BIN") or str(REPO / "target" / "debug" / "lexikey")
# PyPI's awscli (v1, python/requirements-test.txt) and aws CLI v2 (Debian
# bookworm's `awscli` package, 2.9; scripts/test.sh installs it). Binary
# keys' lines carry base64 `B` values, which v2 decodes (its default
# cli_binary_format) and v1 sends as text: v1 runs the text lines only.
AWS = str(Path(sys.executable).parent / "aws")
AWS_V2 = "/usr/bin/aws"


@functools.lru_cache(maxsize=None)
def aws_v2() -> str:
    """The aws CLI v2 command; fails (never skips) when it is missing."""
    try:
        out = subprocess.run([AWS_V2, "--version"], capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        pytest.fail(f"{AWS_V2} is missing: apt-get install awscli (Debian's aws CLI v2; scripts/test.sh does)")
    assert out.stdout.startswith("aws-cli/2."), out.stdout + out.stderr
    return AWS_V2
REGION = "us-east-1"


def endpoint() -> str:
    value = os.environ.get("LEXIKEY_DYNAMODB_ENDPOINT")
    if not value:
        pytest.fail(
            "LEXIKEY_DYNAMODB_ENDPOINT is not set: run under scripts/with-stores.sh, which starts "
            "dynalite (scripts/install-stores.sh installs it)"
        )
    return value


def client():
    return boto3.client(
        "dynamodb",
        endpoint_url=endpoint(),
        region_name=REGION,
        aws_access_key_id=os.environ.get("AWS_ACCESS_KEY_ID", "lexikey"),
        aws_secret_access_key=os.environ.get("AWS_SECRET_ACCESS_KEY", "lexikey"),
    )


def fresh(name: str) -> str:
    return f"{name}-{os.getpid()}-{uuid.uuid4().hex[:8]}"


def make_table(c, name: str) -> str:
    """A table in lexikey's DynamoDB layout, as the store creates it."""
    table = fresh(name)
    c.create_table(
        TableName=table,
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "B"},
            {"AttributeName": "sk_text", "AttributeType": "S"},
        ],
        KeySchema=[
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"},
        ],
        LocalSecondaryIndexes=[
            {
                "IndexName": "sk_text",
                "KeySchema": [
                    {"AttributeName": "pk", "KeyType": "HASH"},
                    {"AttributeName": "sk_text", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "ALL"},
            }
        ],
    )
    c.get_waiter("table_exists").wait(TableName=table, WaiterConfig={"Delay": 0.05})
    return table


def key_bytes(k) -> bytes:
    return k.encode() if isinstance(k, str) else bytes(k)


def partition(key, buckets: int) -> str:
    """The layout's partition of a key: `lexikey`, or a salted table's
    bucket partition `lexikey#BB` (the salt: `BB#` in text, one byte in
    binary)."""
    if not buckets:
        return "lexikey"
    b = int(key[:2], 16) if isinstance(key, str) else key[0]
    return f"lexikey#{b:02X}"


def put_keys(c, table: str, keys, buckets: int = 0) -> None:
    items = []
    for k in keys:
        item = {"pk": {"S": partition(k, buckets)}, "sk": {"B": key_bytes(k)}, "v": {"B": b"x"}}
        if isinstance(k, str):
            item["sk_text"] = {"S": k}
        items.append({"PutRequest": {"Item": item}})
    for i in range(0, len(items), 25):
        out = c.batch_write_item(RequestItems={table: items[i : i + 25]})
        assert not out.get("UnprocessedItems"), out


def parse_query(line: str) -> dict:
    """A printed `aws dynamodb query` line as boto3's arguments (shell words
    as POSIX sh splits them; JSON values as the aws command reads them)."""
    words = shlex.split(line)
    assert words[:3] == ["aws", "dynamodb", "query"], line
    args = {"ScanIndexForward": True}
    i = 3
    while i < len(words):
        w = words[i]
        if w == "--consistent-read":
            args["ConsistentRead"] = True
        elif w == "--no-scan-index-forward":
            args["ScanIndexForward"] = False
        else:
            value = words[i + 1]
            i += 1
            if w == "--table-name":
                args["TableName"] = value
            elif w == "--index-name":
                args["IndexName"] = value
            elif w == "--key-condition-expression":
                args["KeyConditionExpression"] = value
            elif w == "--expression-attribute-values":
                values = json.loads(value)
                for v in values.values():
                    if "B" in v:
                        v["B"] = base64.b64decode(v["B"], validate=True)
                args["ExpressionAttributeValues"] = values
            else:
                raise AssertionError(f"unexpected argument {w}: {line}")
        i += 1
    assert args.get("ConsistentRead"), line
    return args


def boto3_query(c, line: str) -> list:
    """The sort keys a printed query returns, run through boto3 (every
    page)."""
    args = parse_query(line)
    keys, start = [], None
    while True:
        page = c.query(**args, **({"ExclusiveStartKey": start} if start else {}))
        keys += [bytes(i["sk"]["B"]) for i in page["Items"]]
        start = page.get("LastEvaluatedKey")
        if not start:
            return keys


def aws_queries(lines: list, aws: str = AWS) -> list:
    """Runs printed queries as printed, by bash and the real aws command
    `aws` (first on the PATH), `--endpoint-url URL` appended: the sort
    keys each returns."""
    script = "set -e\n" + "".join(
        f"{line} --endpoint-url {endpoint()} --output json\necho '\x1e'\n" for line in lines
    )
    env = dict(os.environ, PATH=f"{Path(aws).parent}:{os.environ['PATH']}", AWS_DEFAULT_REGION=REGION)
    env.setdefault("AWS_ACCESS_KEY_ID", "lexikey")
    env.setdefault("AWS_SECRET_ACCESS_KEY", "lexikey")
    out = subprocess.run(["bash", "--noprofile", "--norc", "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    docs = out.stdout.split("\x1e\n")
    assert docs[-1] == "" and len(docs) == len(lines) + 1, out.stdout[-500:]
    return [[base64.b64decode(i["sk"]["B"]) for i in json.loads(d)["Items"]] for d in docs[:-1]]


def cli_lines(table: str, fmt: str, buckets: int, types, prefix, op, value) -> list:
    """`lexikey range --for dynamodb` of a query: one line per bucket."""
    comps = [f"{t}:{v}" for t, v in zip(types, prefix)]
    args = [LEXIKEY, "range", "--for", "dynamodb", "--table", table, "--format", fmt]
    if buckets:
        args += ["--salt-buckets", str(buckets)]
    if op == "str_prefix":
        args += ["--prefix", value]
    elif op:
        args += [f"--{op}", f"{types[len(prefix)]}:{value}"]
    out = subprocess.run(args + ["--"] + comps, capture_output=True, text=True)
    if out.returncode == 2 and "no key can match" in out.stderr:
        return None
    assert out.returncode == 0, (args, comps, out.stderr)
    return out.stdout.splitlines()


STRINGS = ["", "a", "a b", "a#", "a%", "ab", "b", "é", "zz", "z\u00ff", "\u4e2d", "\U0001f600"]

# name, field types, format, salt buckets.
LAYOUTS = [
    ("hex", ("str", "i64"), "hex", 0),
    ("base64-desc", ("str.desc", "i64.desc"), "base64", 0),
    ("decimal", ("str", "i64.desc"), "decimal", 0),
    ("binary-desc", ("str", "i64.desc"), "binary", 0),
    ("hex-salted", ("str", "i64"), "hex", 4),
    ("binary-salted", ("str", "i64"), "binary", 3),
]

ROWS = size(600, 2000)
PREDICATES = size(90, 500)
AWS_LINES = size(2, 40)


@pytest.mark.parametrize("name,types,fmt,buckets", LAYOUTS, ids=[l[0] for l in LAYOUTS])
def test_printed_queries_return_exactly_the_range(name, types, fmt, buckets):
    """ROWS rows, PREDICATES property-generated queries per layout (6
    layouts): through boto3 each printed query returns exactly the rows of
    its range, in key order (salted: one query per bucket, merged back into
    the logical order); the first AWS_LINES queries' lines run by the real
    aws command return the same."""
    c = client()
    table = make_table(c, name)
    schema = lexikey.Schema(",".join(types), fmt, salt_buckets=buckets or None)
    rnd = random.Random(41)
    ints = [rnd.randrange(-(2**40), 2**40) for _ in range(ROWS // 8)] + [-(2**63), -1, 0, 1, 2**63 - 1]
    rows = sorted({(rnd.choice(STRINGS), rnd.choice(ints)) for _ in range(ROWS)})
    keys = schema.encode_many(rows)
    put_keys(c, table, keys, buckets)
    by_key = {key_bytes(k): r for k, r in zip(keys, rows)}
    salt = 0 if not buckets else (3 if fmt != "binary" else 1)
    ops = {
        None: lambda v, x: True,
        "ge": lambda v, x: v >= x,
        "gt": lambda v, x: v > x,
        "le": lambda v, x: v <= x,
        "lt": lambda v, x: v < x,
        "eq": lambda v, x: v == x,
        "str_prefix": lambda v, x: v.startswith(x),
    }
    aws_cases = []
    seen = {"n": 0, "nonempty": 0}

    @settings(max_examples=PREDICATES, database=None)
    @given(
        depth=st.sampled_from([0, 1]),
        op=st.sampled_from(list(ops)),
        s=st.sampled_from(STRINGS + ["a\U0010ffff", "b\x7f"]),
        n=st.one_of(st.sampled_from(ints), st.integers(-(2**63), 2**63 - 1)),
        pick=st.integers(0, len(rows) - 1),
    )
    def check(depth, op, s, n, pick):
        if depth == 1 and op == "str_prefix":
            op = "ge"
        prefix = rows[pick][:depth]
        value = s if depth == 0 else n
        if op is None:
            want = [r for r in rows if r[:depth] == prefix]
        else:
            want = [r for r in rows if r[:depth] == prefix and ops[op](r[depth], value)]
        if buckets:
            lines = cli_lines(table, fmt, buckets, types, prefix, op, value)
            if lines is None:  # no key can match
                assert want == []
                return
            assert len(lines) == buckets
        else:
            kw = {op: value} if op else {}
            try:
                start, end = schema.range(prefix, **kw)
            except lexikey.EncodeError as e:
                assert "no key can match" in str(e) and want == [], e
                return
            lines = [lexikey.render(start, end, "dynamodb", table).rstrip("\n")]
        got = []
        for line in lines:
            keys_of_line = boto3_query(c, line)
            assert keys_of_line == sorted(keys_of_line), line
            got += keys_of_line
            # The real aws commands: v2 every line, v1 text keys' lines
            # (see AWS_V2).
            if len(aws_cases) < AWS_LINES:
                aws_cases.append((line, keys_of_line))
        # Salted: the buckets' answers merged on the unsalted key.
        got.sort(key=lambda k: k[salt:])
        want_keys = sorted((key_bytes(schema.encode(r)) for r in want), key=lambda k: k[salt:])
        assert got == want_keys, (prefix, op, value, lines)
        seen["n"] += 1
        seen["nonempty"] += bool(want)

    check()
    assert seen["n"] >= PREDICATES * 0.8 and seen["nonempty"] >= seen["n"] // 4, seen
    assert len(aws_cases) == AWS_LINES, len(aws_cases)
    got = aws_queries([line for line, _ in aws_cases], aws_v2())
    assert got == [keys for _, keys in aws_cases]
    if fmt != "binary":
        got = aws_queries([line for line, _ in aws_cases])
        assert got == [keys for _, keys in aws_cases]


ORDER_CASES = [("str,i64.desc", "hex"), ("i64,str.desc", "base64"), ("str.desc,f64", "binary"), ("str,i64", "decimal")]


@pytest.mark.parametrize("spec,fmt", ORDER_CASES)
def test_boto3_reads_schema_keys_in_order(spec, fmt):
    """Keys from Schema.encode written by boto3 (binary sort key sk, and the
    text in sk_text) come back from one Query in the order of their
    values, descending fields included, through sk and the sk_text index
    alike."""
    c = client()
    table = make_table(c, "order")
    rnd = random.Random(7)
    types = [t.split(".")[0] for t in spec.split(",")]
    desc = [t.endswith(".desc") for t in spec.split(",")]
    gen = {
        "str": lambda: rnd.choice(STRINGS),
        "i64": lambda: rnd.randrange(-(2**63), 2**63),
        "f64": lambda: rnd.uniform(-1e9, 1e9),
    }
    rows = sorted({tuple(gen[t]() for t in types) for _ in range(300)})
    schema = lexikey.Schema(spec, fmt)
    put_keys(c, table, schema.encode_many(rows))

    def query(index):
        args = dict(
            TableName=table,
            ConsistentRead=True,
            KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": {"S": "lexikey"}},
        )
        if index:
            args["IndexName"] = "sk_text"
        return [bytes(i["sk"]["B"]) for i in c.query(**args)["Items"]]

    def cmp(a, b):
        for x, y, d in zip(a, b, desc):
            if x != y:
                return (-1 if x < y else 1) * (-1 if d else 1)
        return 0

    keys = query(False)
    got = [tuple(schema.decode(k if fmt == "binary" else k.decode())) for k in keys]
    assert got == sorted(rows, key=functools.cmp_to_key(cmp))
    if fmt != "binary":
        assert query(True) == keys


def test_allocator_rows_are_the_printed_query():
    """lexikey.Allocator on dynamodb://TABLE creates the table in the layout;
    `lexikey range --for dynamodb --table TABLE str:T` printed and run by
    the aws command returns exactly its rows, newest first. Salted (4
    buckets): one line per bucket, each bucket's rows in a partition of
    its own, merged they are the allocator's scan."""
    c = client()
    table = fresh("alloc")
    url = f"dynamodb://{table}?endpoint={endpoint()}&region={REGION}"
    with lexikey.Allocator(url, "events") as a:
        ids = [a.insert(f"e{i}".encode()) for i in range(40)]
    desc = c.describe_table(TableName=table)["Table"]
    assert {k["AttributeName"]: k["KeyType"] for k in desc["KeySchema"]} == {"pk": "HASH", "sk": "RANGE"}
    assert desc["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    lines = cli_lines(table, "hex", 0, ("str",), ("events",), None, None)
    assert len(lines) == 1
    [got] = aws_queries(lines)
    # Newest first: the newest ID is the smallest key.
    assert got == [lexikey.encode(["str:events", ("u64", i)]).encode() for i in reversed(ids)]
    assert boto3_query(c, lines[0]) == got

    with lexikey.Allocator(url, "salted", salt_buckets=4) as a:
        ids = [a.insert(b"x") for _ in range(60)]
        scan = [i for i, _ in a.scan()]
    assert scan == ids[::-1]  # newest first
    lines = cli_lines(table, "hex", 4, ("str",), ("salted",), None, None)
    assert len(lines) == 4
    per_bucket = aws_queries(lines)
    schema = lexikey.Schema("str,u64", salt_buckets=4)
    for b, keys in enumerate(per_bucket):
        assert keys and all(k.startswith(f"{b:02X}#".encode()) for k in keys)
        stored = c.query(TableName=table, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": f"lexikey#{b:02X}"}})
        assert [i["sk"]["B"] for i in stored["Items"]] == keys
    merged = sorted((k for keys in per_bucket for k in keys), key=lambda k: k[3:])
    assert [schema.decode(k.decode())[1] for k in merged] == scan
