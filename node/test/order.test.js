'use strict';
// JS values sorted <=> keys sorted: for random pairs of rows, the order of
// the values (an independent comparator, per type and direction) is the
// byte order of their keys, in every native format.
const test = require('node:test');
const assert = require('node:assert/strict');
const lexikey = require('..');
const { Gen, full, seed } = require('./support');

const sign = (x) => (x < 0 ? -1 : x > 0 ? 1 : 0);
const CMP = {
  // Strings by code point: the order of their UTF-8 bytes.
  str: (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)),
  i64: (a, b) => sign(Number(a - b)),
  u64: (a, b) => sign(Number(a - b)),
  i32: (a, b) => sign(a - b),
  // -0 before +0, as the keys order them.
  f64: (a, b) => (a < b ? -1 : a > b ? 1 : sign(Number(Object.is(b, -0)) - Number(Object.is(a, -0)))),
  bool: (a, b) => sign(Number(a) - Number(b)),
  bytes: (a, b) => Buffer.compare(a, b),
  ts: (a, b) => sign(a.getTime() - b.getTime()),
};

const GEN = {
  str: (g) => g.str(),
  i64: (g) => g.i64(),
  u64: (g) => g.u64any(),
  i32: (g) => g.intIn(-(2 ** 31), 2 ** 31 - 1),
  f64: (g) => g.f64(),
  bool: (g) => g.below(2) === 1,
  bytes: (g) => g.bytes(),
  ts: (g) => new Date(g.ms()),
};

const keyBytes = (k) => (typeof k === 'string' ? Buffer.from(k) : k);

for (const format of ['hex', 'base64', 'decimal', 'binary']) {
  test(`values sorted <=> keys sorted: ${format}`, () => {
    const s = seed(format.length * 31);
    const g = new Gen(s);
    const schemas = full ? 200 : 40;
    for (let k = 0; k < schemas; k++) {
      const n = 1 + g.below(3);
      const types = [];
      for (let i = 0; i < n; i++) {
        let t = g.pick(Object.keys(GEN));
        if (format === 'decimal' && t === 'f64') t = 'i64';
        types.push([t, g.below(3) === 0]);
      }
      const spec = types.map(([t, d]) => (d ? `${t}.desc` : t)).join(',');
      const schema = new lexikey.Schema(spec, format);
      // Narrow value pools so that ties and shared prefixes happen.
      const pools = types.map(([t]) => Array.from({ length: 4 }, () => GEN[t](g)));
      const rows = Array.from({ length: 50 }, () => pools.map((p) => g.pick(p)));
      const keys = schema.encodeMany(rows);
      const cmpRows = (a, b) => {
        for (let i = 0; i < types.length; i++) {
          const [t, desc] = types[i];
          const c = CMP[t](a[i], b[i]);
          if (c) return desc ? -c : c;
        }
        return 0;
      };
      for (let i = 0; i < rows.length; i++) {
        for (let j = 0; j < rows.length; j += 7) {
          assert.equal(
            sign(Buffer.compare(keyBytes(keys[i]), keyBytes(keys[j]))),
            cmpRows(rows[i], rows[j]),
            `seed ${s}, ${spec}: rows ${i} and ${j}`,
          );
        }
      }
      // And sorting: the rows in value order have their keys in byte order.
      const order = rows.map((_, i) => i).sort((a, b) => cmpRows(rows[a], rows[b]));
      for (let i = 1; i < order.length; i++) {
        assert.ok(Buffer.compare(keyBytes(keys[order[i - 1]]), keyBytes(keys[order[i]])) <= 0, `seed ${s}, ${spec}`);
      }
    }
  });
}
