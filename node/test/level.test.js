'use strict';
// lexikey keys in a real LevelDB (classic-level): an iterator gives the
// rows in value order, and a range read with gte/lt gives exactly the rows
// of the predicate.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ClassicLevel } = require('classic-level');
const lexikey = require('..');
const { Gen, full, seed } = require('./support');

const cmpStr = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));

for (const format of ['binary', 'hex']) {
  test(`classic-level: value order and range reads (${format})`, async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lexikey-level-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const enc = format === 'binary' ? 'buffer' : 'utf8';
    const db = new ClassicLevel(dir, { keyEncoding: enc, valueEncoding: 'json' });
    await db.open();
    t.after(() => db.close());
    const s = seed(format.length);
    const g = new Gen(s);
    const schema = new lexikey.Schema('str,i64.desc,f64', format);
    const n = full ? 20000 : 2000;
    const cities = ['lyon', 'paris', 'paris-2', 'nice', 'é', ''];
    const rows = Array.from({ length: n }, () => [g.pick(cities), g.i64() >> BigInt(g.below(60)), g.f64()]);
    const keys = schema.encodeMany(rows);
    await db.batch(keys.map((key, i) => ({ type: 'put', key, value: i })));
    // Value order: str ascending, i64 descending, f64 ascending (distinct keys only).
    const cmp = (a, b) =>
      cmpStr(a[0], b[0]) || (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0) || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : Number(Object.is(b[2], -0)) - Number(Object.is(a[2], -0)));
    const seen = [];
    for await (const [key, i] of db.iterator()) seen.push([key, rows[i]]);
    for (let i = 1; i < seen.length; i++) {
      assert.ok(cmp(seen[i - 1][1], seen[i][1]) < 0, `seed ${s}: row ${i} out of order`);
    }
    assert.deepEqual(seen.map(([, r]) => r), [...new Map(keys.map((k, i) => [String(k.toString('hex')), rows[i]])).values()].sort(cmp));
    // Range reads: rows of 'paris' with the i64 field in [lo, hi) (descending: gt/le swap).
    for (let q = 0; q < 20; q++) {
      const [lo, x] = [g.i64() >> 4n, g.i64() >> 4n].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const hi = x > lo ? x : lo + 1n;
      const r = schema.range(['paris'], { ge: lo, lt: hi });
      const opts = {};
      if (r.start !== null) opts.gte = r.start;
      if (r.end !== null) opts.lt = r.end;
      const got = [];
      for await (const [, i] of db.iterator(opts)) got.push(rows[i]);
      const want = [...new Map(keys.map((k, i) => [String(k.toString('hex')), rows[i]])).values()]
        .filter(([c, v]) => c === 'paris' && v >= lo && v < hi)
        .sort(cmp);
      assert.deepEqual(got, want, `seed ${s}: [${lo}, ${hi})`);
    }
  });
}
