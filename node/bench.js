'use strict';
// The Node benchmark (BENCHMARKS.md): 1,000,000 (string, int) rows encoded
// by Schema.encodeMany (one call into Rust), bytewise.encode and
// charwise.encode, each row by row as their users call them, in one run on
// the same rows; then the overhead of one lexikey.encode / Schema.encode
// call. Run it on a release build: scripts/node.sh bench.
//
//   node node/bench.js [ROWS]
const bytewise = require('bytewise');
const charwise = require('charwise');
const lexikey = require('.');

const n = Number(process.argv[2] || 1_000_000);
const names = ['population', 'area', 'elevation', 'density', 'founded', 'mayor', 'postcode', 'region'];
const rows = Array.from({ length: n }, (_, i) => [`${names[i % names.length]}-${i % 1000}`, (i * 2654435761) % 1e9]);
const schema = new lexikey.Schema('str,i64', 'binary');
const hexSchema = new lexikey.Schema('str,i64', 'hex');

function time(label, f, reps = 3) {
  let best = Infinity;
  let out;
  for (let r = 0; r < reps; r++) {
    const t0 = process.hrtime.bigint();
    out = f();
    const dt = Number(process.hrtime.bigint() - t0) / 1e9;
    best = Math.min(best, dt);
  }
  console.log(`${label.padEnd(44)} ${best.toFixed(3)} s  ${((best / n) * 1e9).toFixed(0).padStart(5)} ns/row  ${(n / best / 1e6).toFixed(2)} M rows/s`);
  return best;
}

// The rows as each library takes them: (string, integer). lexikey's i64
// field takes a number that is a whole number (or a bigint).
const lk = time('lexikey Schema.encodeMany (binary)', () => schema.encodeMany(rows));
const lkHex = time('lexikey Schema.encodeMany (hex)', () => hexSchema.encodeMany(rows));
const bw = time('bytewise.encode, row by row', () => rows.map((r) => bytewise.encode(r)));
const cw = time('charwise.encode, row by row', () => rows.map((r) => charwise.encode(r)));
console.log(`encodeMany (binary) vs bytewise: ${(bw / lk).toFixed(1)}x; vs charwise: ${(cw / lk).toFixed(1)}x`);
console.log(`encodeMany (hex) vs bytewise: ${(bw / lkHex).toFixed(1)}x; vs charwise: ${(cw / lkHex).toFixed(1)}x`);

// One call: the fixed cost of crossing into Rust and back.
const m = Math.min(n, 200_000);
const one = rows.slice(0, m);
const per = (label, f) => {
  let best = Infinity;
  for (let r = 0; r < 3; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < m; i++) f(one[i]);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / m);
  }
  console.log(`${label.padEnd(44)} ${best.toFixed(0).padStart(5)} ns/call`);
};
per('Schema.encode, one row a call', (r) => schema.encode(r));
per('lexikey.encode, [type, value] pairs', (r) => lexikey.encode([['str', r[0]], ['i64', r[1]]], { format: 'binary' }));
per('encodeMany of one row', (r) => schema.encodeMany([r]));
per('bytewise.encode, one row', (r) => bytewise.encode(r));
per('charwise.encode, one row', (r) => charwise.encode(r));
