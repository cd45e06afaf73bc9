'use strict';
// Node == the command line, byte for byte, on random tuples of every
// format: each batch's rows go through Schema.encodeMany (one call), one
// by one through Schema.encode and lexikey.encode ([type, value] pairs),
// and once through `lexikey encode --stdin --schema` (one process a batch);
// native fields are nullable (TYPE?, nulls first or last) a third of the
// time, their nulls null in Node and the cell \N on the command line. And
// fdb-tuple tuples with nulls, nested tuples (arrays) and versionstamps
// (complete, and one incomplete for packWithVersionstamp), against
// `lexikey encode --format fdb-tuple [--versionstamp] COMPONENT...`, and
// back through decode.
const test = require('node:test');
const assert = require('node:assert/strict');
const lexikey = require('..');
const { Gen, lexikey: cli, full, seed } = require('./support');

const ROWS = full ? 500 : 100;
const BATCHES = full ? 80 : 20; // ROWS * BATCHES >= 2,000 tuples a format

/** A field: its type, a random JavaScript value, and that value's text for the command line. */
function field(type, value, text = String) {
  return { type, value, text };
}

const hex = (b) => b.toString('hex');
const msText = (d) => String(d.getTime());
const numText = (x) => (Object.is(x, -0) ? '-0' : String(x));

const NATIVE = {
  str: () => field('str', (g) => g.str()),
  i64: () => field('i64', (g) => g.i64()),
  u64: () => field('u64', (g) => g.u64any()),
  i32: () => field('i32', (g) => g.intIn(-(2 ** 31), 2 ** 31 - 1)),
  u32: () => field('u32', (g) => g.intIn(0, 2 ** 32 - 1)),
  f64: () => field('f64', (g) => g.f64(), numText),
  bool: () => field('bool', (g) => g.below(2) === 1),
  bytes: () => field('bytes', (g) => g.bytes(), hex),
  ts: () => field('ts', (g) => new Date(g.ms()), msText),
  uuid: () => field('uuid', (g) => g.uuid()),
  dec: () => field('dec', (g) => g.dec()),
};

const PROFILES = {
  'fdb-tuple': {
    str: () => field('str', (g) => g.str()),
    int: () => field('int', (g) => g.i64()),
    bool: () => field('bool', (g) => g.below(2) === 1),
    bytes: () => field('bytes', (g) => g.bytes(), hex),
    double: () => field('double', (g) => g.f64(), numText),
  },
  'hbase-ordered': {
    int8: (d) => field(`int8${d}`, (g) => g.intIn(-128, 127)),
    int16: (d) => field(`int16${d}`, (g) => g.intIn(-32768, 32767)),
    int32: (d) => field(`int32${d}`, (g) => g.intIn(-(2 ** 31), 2 ** 31 - 1)),
    int64: (d) => field(`int64${d}`, (g) => g.i64()),
    float64: (d) => field(`float64${d}`, (g) => g.f64(), numText),
    text: (d) => field(`text${d}`, (g) => g.str().replace(/\u0000/g, 'x')),
  },
  phoenix: {
    integer: (d) => field(`integer${d}`, (g) => g.intIn(-(2 ** 31), 2 ** 31 - 1)),
    bigint: (d) => field(`bigint${d}`, (g) => g.i64()),
    smallint: (d) => field(`smallint${d}`, (g) => g.intIn(-32768, 32767)),
    double: (d) => field(`double${d}`, (g) => g.f64(), numText),
    boolean: (d) => field(`boolean${d}`, (g) => g.below(2) === 1),
    varchar: (d) => field(`varchar${d}`, (g) => `v${g.str().replace(/\u0000/g, 'x')}`),
    decimal: (d) => field(`decimal${d}`, (g) => g.dec(20, 10)),
  },
};

/** A TSV cell of a nullable field: a null is \N, a value of backslashes and N takes one more. */
function nullCell(text) {
  return (v) => (v === null ? '\\N' : /^\\+N$/.test(text(v)) ? `\\${text(v)}` : text(v));
}

/** The nullable field of `f` (TYPE?, then `suffix`): null a third of the time; str values near \N. */
function nullable(f, suffix) {
  const value = (g) => {
    if (g.below(3) === 0) return null;
    if (f.type === 'str' && g.below(4) === 0) return g.pick(['\\N', '\\\\N', 'N', '\\', '']);
    return f.value(g);
  };
  return { type: `${f.type}?${suffix}`, value, text: nullCell(f.text) };
}

function schemaFor(format, g) {
  const n = 1 + g.below(4);
  const fields = [];
  for (let i = 0; i < n; i++) {
    const desc = g.below(3) === 0 ? '.desc' : '';
    if (format in PROFILES) {
      const kinds = PROFILES[format];
      fields.push(kinds[g.pick(Object.keys(kinds))](format === 'fdb-tuple' ? '' : desc));
    } else {
      let types = Object.keys(NATIVE);
      if (format === 'decimal') types = types.filter((t) => t !== 'f64');
      const f = NATIVE[g.pick(types)]();
      if (g.below(3) === 0) {
        fields.push(nullable(f, desc + (g.below(2) ? '.nulls_last' : '')));
      } else {
        fields.push({ ...f, type: f.type + desc });
      }
    }
  }
  return fields;
}

const keyText = (k) => (typeof k === 'string' ? k : k.toString('hex'));

for (const format of ['hex', 'base64', 'decimal', 'binary', 'fdb-tuple', 'hbase-ordered', 'phoenix']) {
  test(`Node == CLI on random tuples: ${format}`, () => {
    const s = seed(format.length * 7919);
    const g = new Gen(s);
    let tuples = 0;
    for (let b = 0; b < BATCHES; b++) {
      const fields = schemaFor(format, g);
      const spec = fields.map((f) => f.type).join(',');
      const rows = [];
      let stdin = '';
      for (let r = 0; r < ROWS; r++) {
        const row = fields.map((f) => f.value(g));
        rows.push(row);
        stdin += `${row.map((v, i) => fields[i].text(v)).join('\t')}\n`;
      }
      const want = cli(['encode', '--stdin', '--format', format, '--schema', spec], stdin).split('\n');
      const schema = new lexikey.Schema(spec, format);
      const got = schema.encodeMany(rows);
      assert.equal(got.length, ROWS);
      for (let r = 0; r < ROWS; r++) {
        const where = `seed ${s}, schema ${spec}, row ${r} ${JSON.stringify(rows[r], (_, v) => (typeof v === 'bigint' ? `${v}n` : v))}`;
        assert.equal(keyText(got[r]), want[r], where);
        assert.equal(keyText(schema.encode(rows[r])), want[r], `${where} (one row)`);
        const pairs = rows[r].map((v, i) => [fields[i].type, v]);
        assert.equal(keyText(lexikey.encode(pairs, { format })), want[r], `${where} (pairs)`);
        tuples += 1;
      }
      // And back: every key decodes to values that encode to it again.
      const back = schema.decodeMany(got);
      assert.deepEqual(schema.encodeMany(back), got, `seed ${s}, schema ${spec}: decodeMany`);
    }
    assert.ok(tuples >= 2000, `${tuples} tuples`);
  });
}

// fdb-tuple: random tuples of nulls, ints, strings, bytes, booleans, doubles,
// nested tuples (arrays, to depth 3) and complete versionstamps; the
// command line reads each as COMPONENT arguments (nested:[...] with , [ ] \
// escaped inside). With one incomplete versionstamp, packWithVersionstamp
// against `encode --versionstamp`.
function element(g, depth) {
  switch (g.below(depth < 3 ? 8 : 7)) {
    case 0:
      return { v: null, t: 'null:' };
    case 1: {
      const x = g.i64();
      return { v: x, t: `int:${x}` };
    }
    case 2: {
      const x = g.str().replace(/\u0000/g, 'x');
      return { v: x, t: `str:${x}` };
    }
    case 3: {
      const b = g.bytes();
      return { v: b, t: `bytes:${b.toString('hex')}` };
    }
    case 4: {
      const x = g.below(2) === 1;
      return { v: x, t: `bool:${x}` };
    }
    case 5: {
      const x = g.f64();
      return { v: x, t: `double:${numText(x)}` };
    }
    case 6: {
      const tr = Buffer.alloc(10);
      for (let i = 0; i < 10; i++) tr[i] = g.below(256);
      const uv = g.below(65536);
      const vs = new lexikey.Versionstamp(tr, uv);
      return { v: vs, t: `versionstamp:${hex(vs.toBytes())}` };
    }
    default: {
      const n = g.below(4);
      const items = [];
      for (let i = 0; i < n; i++) items.push(element(g, depth + 1));
      // An array is a nested tuple unless it reads as a [type, value] pair.
      const v = items.map((e) => e.v);
      const pairLike = v.length === 2 && typeof v[0] === 'string';
      const escaped = (t) => t.replace(/[\\,[\]]/g, (c) => `\\${c}`);
      const inner = items.map((e) => (e.t.startsWith('str:') ? `str:${escaped(e.t.slice(4))}` : e.t));
      return { v: pairLike ? ['nested', v] : v, t: `nested:[${inner.join(',')}]` };
    }
  }
}

/** The value decode gives back for a generated one (a ['nested', v] pair is v). */
function plain(v) {
  if (Array.isArray(v)) {
    const items = v.length === 2 && v[0] === 'nested' && Array.isArray(v[1]) ? v[1] : v;
    return items.map(plain);
  }
  return v;
}

test('Node == CLI on fdb-tuple tuples with nulls, nested tuples and versionstamps', () => {
  const s = seed(4099);
  const g = new Gen(s);
  const n = full ? 1000 : 60;
  for (let r = 0; r < n; r++) {
    const items = [];
    const len = 1 + g.below(4);
    for (let i = 0; i < len; i++) items.push(element(g, 0));
    const where = `seed ${s}, tuple ${items.map((e) => e.t).join(' ')}`;
    const want = cli(['encode', '--format', 'fdb-tuple', '--', ...items.map((e) => e.t)], '').trim();
    const key = lexikey.encode(items.map((e) => e.v), { format: 'fdb-tuple' });
    assert.equal(hex(key), want, where);
    // And back: the values (arrays for nested tuples, Versionstamps), and
    // the [type, value] pairs, encode to the same key.
    assert.deepEqual(lexikey.decode(key, { format: 'fdb-tuple' }), items.map((e) => plain(e.v)), where);
    const pairs = lexikey.decode(key, { format: 'fdb-tuple', types: true });
    assert.deepEqual(lexikey.encode(pairs, { format: 'fdb-tuple' }), key, `${where} (pairs)`);
    // One incomplete versionstamp, somewhere at the top or one level down.
    const uv = g.below(65536);
    const at = g.below(items.length + 1);
    const stamped = items.map((e) => e.v);
    const texts = items.map((e) => e.t);
    stamped.splice(at, 0, [new lexikey.Versionstamp(null, uv)]);
    texts.splice(at, 0, `nested:[versionstamp:ffffffffffffffffffff${uv.toString(16).padStart(4, '0')}]`);
    const wantStamped = cli(['encode', '--format', 'fdb-tuple', '--versionstamp', '--', ...texts], '').trim();
    assert.equal(hex(lexikey.packWithVersionstamp(stamped)), wantStamped, `${where} (packWithVersionstamp)`);
  }
});

test('Versionstamp: checks, bytes, decode gives it back', () => {
  assert.throws(() => new lexikey.Versionstamp(Buffer.alloc(9)), RangeError);
  assert.throws(() => new lexikey.Versionstamp(null, 65536), RangeError);
  assert.throws(() => new lexikey.Versionstamp('x'), TypeError);
  const vs = new lexikey.Versionstamp(null, 7);
  assert.equal(vs.isComplete(), false);
  assert.equal(hex(vs.toBytes()), 'ffffffffffffffffffff0007');
  assert.throws(() => lexikey.packWithVersionstamp([vs, [vs]]), lexikey.EncodeError);
  assert.throws(() => lexikey.packWithVersionstamp(['no stamp']), lexikey.EncodeError);
  const done = new lexikey.Versionstamp(Buffer.from('00010203040506070809', 'hex'), 5);
  const key = lexikey.encode(['log', done], { format: 'fdb-tuple' });
  assert.deepEqual(lexikey.decode(key, { format: 'fdb-tuple' }), ['log', done]);
  // A nested tuple past the depth limit is an error, as is a list holding itself.
  let deep = [];
  for (let i = 0; i < 200; i++) deep = [deep];
  assert.throws(() => lexikey.encode([deep], { format: 'fdb-tuple' }), lexikey.EncodeError);
  const self = [];
  self.push(self);
  assert.throws(() => lexikey.encode([self], { format: 'fdb-tuple' }), lexikey.EncodeError);
});

// Schema.range({isNull}, {notNull}, {prefix} on a str?): among random rows
// with nulls the keys inside are exactly the matching rows', in every
// native format, ascending and descending, nulls first and last, and the
// range is the command line's (`range --schema ... --is-null TYPE?`).
test('Node null predicates and a prefix on a str? select exactly, as the CLI does', () => {
  const s = seed(8191);
  const g = new Gen(s);
  const cmp = (a, b) => (typeof a === 'string' ? Buffer.compare(Buffer.from(a), Buffer.from(b)) : Buffer.compare(a, b));
  const rounds = full ? 300 : 30;
  for (let r = 0; r < rounds; r++) {
    const format = g.pick(['hex', 'base64', 'decimal', 'binary']);
    const str = g.below(2) === 1;
    const type = `${str ? 'str' : 'i64'}?${g.below(2) ? '.desc' : ''}${g.below(2) ? '.nulls_last' : ''}`;
    const spec = `str,${type},i64`;
    const schema = new lexikey.Schema(spec, format);
    const op = g.below(str ? 3 : 2);
    const text = g.pick(['', 'a', 'ab', 'é']);
    const pred = op === 0 ? { isNull: true } : op === 1 ? { notNull: true } : { prefix: text };
    const where = `seed ${s}, ${spec} ${format} ${JSON.stringify(pred)}`;
    const range = schema.range(['p'], pred);
    for (let i = 0; i < 12; i++) {
      const name = g.pick(['p', 'p#', 'o', 'q']);
      const v = g.below(3) === 0 ? null : str ? g.pick(['', 'a', 'ab', 'abc', 'b', 'é', 'a%']) : BigInt(g.below(7) - 3);
      const key = schema.encode([name, v, 1n]);
      const inside = cmp(range.start, key) <= 0 && cmp(key, range.end) < 0;
      const match = op === 0 ? v === null : op === 1 ? v !== null : v !== null && v.startsWith(text);
      assert.equal(inside, name === 'p' && match, `${where}: row ${name} ${v}`);
    }
    const flag = op === 0 ? `--is-null=${type}` : op === 1 ? `--not-null=${type}` : `--prefix=${text}`;
    const want = cli(['range', `--format=${format}`, `--schema=${spec}`, flag, '--', 'str:p'], '').split('\n');
    assert.deepEqual([keyText(range.start), keyText(range.end)], want.slice(0, 2), where);
  }
  assert.throws(() => new lexikey.Schema('str,i64').range(['a'], { isNull: true }), lexikey.EncodeError);
  assert.throws(() => new lexikey.Schema('str,i64?').range(['a'], { isNull: 'yes' }), TypeError);
});
