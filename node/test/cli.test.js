'use strict';
// Node == the command line, byte for byte, on random tuples of every
// format: each batch's rows go through Schema.encodeMany (one call), one
// by one through Schema.encode and lexikey.encode ([type, value] pairs),
// and once through `lexikey encode --stdin --schema` (one process a batch).
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
      fields.push({ ...f, type: f.type + desc });
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
