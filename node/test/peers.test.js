'use strict';
// lexikey against bytewise and charwise on the same values. Where a peer
// can represent a value, its order is compared with value order (numbers
// by value, strings by code point, tuples element by element); each
// difference found is shown here, and lexikey's order on the same values
// is checked to be value order (node/README.md, "Against bytewise and
// charwise").
const test = require('node:test');
const assert = require('node:assert/strict');
const bytewise = require('bytewise');
const charwise = require('charwise');
const lexikey = require('..');
const { Gen, full, seed } = require('./support');

const bytes = (k) => (typeof k === 'string' ? Buffer.from(k) : k);
const order = (a, b) => Math.sign(Buffer.compare(bytes(a), bytes(b)));
const cmpStr = (a, b) => Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));
const cmpNum = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const cmpTuple = (a, b) => cmpStr(a[0], b[0]) || cmpNum(a[1], b[1]);

const PEERS = { bytewise: (v) => bytewise.encode(v), charwise: (v) => charwise.encode(v) };
const str = new lexikey.Schema('str');
const tuple = new lexikey.Schema('str,f64', 'binary');

/** The pairs of `values` whose keys under `encode` are not in value order. */
function misordered(values, encode, cmp) {
  const keys = values.map(encode);
  const out = [];
  for (let i = 0; i < values.length; i++) {
    for (let j = 0; j < values.length; j++) {
      if (order(keys[i], keys[j]) !== cmp(values[i], values[j])) out.push([values[i], values[j]]);
    }
  }
  return out;
}

test('strings holding U+0000 or U+0001: charwise misorders them, bytewise and lexikey do not', () => {
  const values = ['', 'a', 'a\u0000', 'a\u0000b', 'a\u0001', 'a\u0001\u0000', 'ab', 'b', '\u0000', '\u0001'];
  // Alone: charwise escapes U+0000 and U+0001 into sequences that sort wrong.
  const charwiseAlone = misordered(values, PEERS.charwise, cmpStr);
  assert.ok(charwiseAlone.some(([a, b]) => a === 'a\u0000b' && b === 'a\u0001'), JSON.stringify(charwiseAlone));
  // In a tuple: ['a', 1] sorts after ['a\u0000', 1] under charwise.
  const tuples = values.map((s) => [s, 1]);
  const charwiseTuples = misordered(tuples, PEERS.charwise, cmpTuple);
  assert.ok(charwiseTuples.some(([a, b]) => a[0] === 'a' && b[0] === 'a\u0000'), JSON.stringify(charwiseTuples));
  assert.deepEqual(misordered(values, PEERS.bytewise, cmpStr), []);
  assert.deepEqual(misordered(tuples, PEERS.bytewise, cmpTuple), []);
  assert.deepEqual(misordered(values, (v) => str.encode([v]), cmpStr), []);
  assert.deepEqual(misordered(tuples, (v) => tuple.encode(v), cmpTuple), []);
});

test('tuples of strings holding a space or "!": charwise misorders them, bytewise and lexikey do not', () => {
  // charwise ends a string inside an array with '"' (0x22) and escapes
  // '!' as '??': a string holding a lower character, or '!', sorts wrong.
  const tuples = [['a', 1], ['a ', 1], ['a!', 1], ['a#', 1], ['a', 2], ['', 1], [' ', 1], ['b', 0]];
  const bad = misordered(tuples, PEERS.charwise, cmpTuple);
  assert.ok(bad.some(([a, b]) => a[0] === 'a' && b[0] === 'a ' && a[1] === 1 && b[1] === 1), JSON.stringify(bad));
  assert.ok(bad.some(([a, b]) => a[0] === 'a!' && b[0] === 'a#'), JSON.stringify(bad));
  assert.deepEqual(misordered(tuples, PEERS.bytewise, cmpTuple), []);
  assert.deepEqual(misordered(tuples, (v) => tuple.encode(v), cmpTuple), []);
});

test('integers beyond 2^53: bytewise and charwise hold numbers, so distinct i64s get one key; lexikey i64 keeps them apart', () => {
  const a = 9007199254740992n; // 2^53
  const b = a + 1n;
  for (const [name, encode] of Object.entries(PEERS)) {
    // The peers take JavaScript numbers (a bigint throws): both are 2^53.
    assert.throws(() => encode(a), undefined, name);
    assert.equal(order(encode(Number(a)), encode(Number(b))), 0, name);
  }
  const i64 = new lexikey.Schema('i64', 'binary');
  assert.equal(order(i64.encode([a]), i64.encode([b])), -1);
  assert.equal(order(i64.encode([-(2n ** 63n)]), i64.encode([2n ** 63n - 1n])), -1);
});

test('where the peers represent the values (numbers; strings without characters up to "!"): all three give value order', () => {
  const s = seed(99);
  const g = new Gen(s);
  const n = full ? 400 : 120;
  const rows = Array.from({ length: n }, () => [g.str().replace(/[\u0000-\u0021]/g, 'x'), g.f64()]);
  for (const [name, encode] of Object.entries(PEERS)) {
    assert.deepEqual(misordered(rows, encode, cmpTuple).length, 0, `${name}, seed ${s}`);
  }
  // lexikey sorts -0 before +0 (distinct values, distinct keys); the peers give them one key.
  const cmpLexikey = (a, b) => cmpTuple(a, b) || Number(Object.is(b[1], -0)) - Number(Object.is(a[1], -0));
  assert.deepEqual(misordered(rows, (v) => tuple.encode(v), cmpLexikey).length, 0, `lexikey, seed ${s}`);
});
