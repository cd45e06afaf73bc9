'use strict';
// What the tests share: the repository, the command line, the test size,
// the fixtures' escapes, a seeded random generator.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const root = process.env.LEXIKEY_ROOT || path.resolve(__dirname, '..', '..');
const cli = process.env.LEXIKEY_CLI || path.join(root, 'target', 'debug', 'lexikey');
const full = process.env.LEXIKEY_TEST_SIZE === 'full';

/** Runs the command line; its stdout. */
function lexikey(args, input) {
  return execFileSync(cli, args, { input, encoding: 'utf8', maxBuffer: 1 << 28 });
}

/** The rows of a fixture: [line number, columns] (comments dropped). */
function rows(file) {
  const out = [];
  fs.readFileSync(path.join(root, 'fixtures', file), 'utf8').split('\n').forEach((line, i) => {
    if (line.startsWith('#') || !line.trim()) return;
    const cols = line.split('\t');
    while (cols.length && cols[cols.length - 1].trimStart().startsWith('#')) cols.pop();
    out.push([i + 1, cols]);
  });
  return out;
}

/** The native fixtures' escapes: \t, \n, \\, \xNN, \u{...} (tests/golden.rs). */
function unescape(s) {
  let out = '';
  for (let i = 0; i < s.length; ) {
    const c = s[i];
    if (c !== '\\') {
      out += c;
      i += 1;
      continue;
    }
    const n = s[i + 1];
    if ('tn\\'.includes(n)) {
      out += { t: '\t', n: '\n', '\\': '\\' }[n];
      i += 2;
    } else if (n === 'x') {
      out += String.fromCodePoint(parseInt(s.slice(i + 2, i + 4), 16));
      i += 4;
    } else if (n === 'u') {
      const j = s.indexOf('}', i);
      out += String.fromCodePoint(parseInt(s.slice(i + 3, j), 16));
      i = j + 1;
    } else {
      throw new Error(`bad escape in ${s}`);
    }
  }
  return out;
}

/** The interop fixtures' escapes: \xNN is a byte (of UTF-8 text), \\ a backslash. */
function unescapeBytes(s) {
  const out = [];
  for (let i = 0; i < s.length; ) {
    if (s.startsWith('\\x', i)) {
      out.push(parseInt(s.slice(i + 2, i + 4), 16));
      i += 4;
    } else if (s.startsWith('\\\\', i)) {
      out.push(0x5c);
      i += 2;
    } else {
      const cp = s.codePointAt(i);
      out.push(...Buffer.from(String.fromCodePoint(cp)));
      i += cp > 0xffff ? 2 : 1;
    }
  }
  return Buffer.from(out).toString('utf8');
}

/** A seeded generator (xorshift128+), edge cases often. */
class Gen {
  constructor(seed) {
    this.a = BigInt.asUintN(64, BigInt(seed) * 0x9e3779b97f4a7c15n + 1n);
    this.b = BigInt.asUintN(64, this.a * 0xbf58476d1ce4e5b9n + 7n);
  }
  u64() {
    let s1 = this.a;
    const s0 = this.b;
    this.a = s0;
    s1 ^= BigInt.asUintN(64, s1 << 23n);
    this.b = s1 ^ s0 ^ (s1 >> 17n) ^ (s0 >> 26n);
    return BigInt.asUintN(64, this.b + s0);
  }
  below(n) {
    return Number(this.u64() % BigInt(n));
  }
  pick(xs) {
    return xs[this.below(xs.length)];
  }
  edge() {
    return this.below(4) === 0;
  }
  /** An i64 of every magnitude. */
  i64() {
    if (this.edge()) {
      return this.pick([0n, 1n, -1n, -(2n ** 63n), 2n ** 63n - 1n, 255n, 256n, -256n, 2n ** 32n, -(2n ** 31n)]);
    }
    return BigInt.asIntN(64, this.u64()) >> BigInt(this.below(64));
  }
  u64any() {
    if (this.edge()) return this.pick([0n, 1n, 2n ** 64n - 1n, 2n ** 63n, 2n ** 63n - 1n]);
    return this.u64() >> BigInt(this.below(64));
  }
  intIn(lo, hi) {
    if (this.edge()) return this.pick([lo, hi, Math.max(lo, Math.min(hi, 0)), Math.max(lo, Math.min(hi, 1))]);
    return lo + this.below(hi - lo + 1);
  }
  f64() {
    if (this.edge()) {
      return this.pick([0, -0, 1, -1, 0.5, -1e-300, 1e300, Number.MIN_VALUE, -Number.MAX_VALUE, 2 ** 53]);
    }
    const x = Number(BigInt.asIntN(64, this.u64()) >> BigInt(this.below(60))) / 2 ** this.below(40);
    return x;
  }
  /** A string: ASCII, U+0000, multi-byte and astral characters (no tab, CR, LF when lineSafe). */
  str(lineSafe = true, max = 8) {
    const alphabet = ['a', 'b', 'z', 'A', '#', '$', '%', ' ', '~', '\u0000', '\u0001', 'é', 'ß', '中', '\u{1F600}', '\u007F', '\u0080', 'ÿ'];
    if (!lineSafe) alphabet.push('\t', '\n', '\r');
    const n = this.below(max + 1);
    let s = '';
    for (let i = 0; i < n; i++) s += this.pick(alphabet);
    return s;
  }
  bytes(max = 8) {
    const n = this.below(max + 1);
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = this.pick([0, 1, 0xff, 0xfe, this.below(256)]);
    return b;
  }
  /** Milliseconds since 1970 (Dates reach ±8.64e15). */
  ms() {
    if (this.edge()) return this.pick([0, -1, 1, 1714564800000, -62135596800000, 253402300799999]);
    return this.intIn(-62135596800000, 253402300799999);
  }
  uuid() {
    const h = (this.u64().toString(16).padStart(16, '0') + this.u64().toString(16).padStart(16, '0'));
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
  /** A decimal's text: up to `digits` digits, exponents within ±`exp`. */
  dec(digits = 30, exp = 40) {
    const n = 1 + this.below(digits);
    let d = '';
    for (let i = 0; i < n; i++) d += this.below(10);
    const e = this.below(2 * exp + 1) - exp;
    return `${this.below(2) ? '-' : ''}${d}e${e}`;
  }
}

/** A seed: LEXIKEY_SEED, else random (printed by failing assertions). */
function seed(salt) {
  const base = process.env.LEXIKEY_SEED ? Number(process.env.LEXIKEY_SEED) : Math.floor(Math.random() * 2 ** 31);
  return base + salt;
}

module.exports = { root, cli, full, lexikey, rows, unescape, unescapeBytes, Gen, seed };
