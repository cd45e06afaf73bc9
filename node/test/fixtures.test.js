'use strict';
// The golden fixtures (fixtures/*.tsv, fixtures/interop/*.tsv) from Node,
// both ways: Node gives the very bytes the Rust tests pin, and each key
// decodes to the fixture's values, which encode back to the key.
const test = require('node:test');
const assert = require('node:assert/strict');
const lexikey = require('..');
const { rows, unescape, unescapeBytes } = require('./support');

/** The JavaScript value of a native component's text, read independently. */
function jsValue(type, text) {
  switch (type) {
    case 'str':
      return text;
    case 'bool':
      return text === 'true';
    case 'bytes':
      return Buffer.from(text, 'hex');
    case 'uuid':
      return text.toLowerCase();
    case 'dec':
      return text;
    case 'f64':
    case 'f32':
      return text === 'NaN' ? NaN : Number(text.replace(/^(-?)inf$/, '$1Infinity'));
    case 'ts':
      return /^-?\d+$/.test(text) ? new Date(Number(text)) : new Date(text);
    case 'i32':
    case 'u32':
      return Number(text);
    default:
      return BigInt(text);
  }
}

function same(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b);
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return assert.deepStrictEqual(a, b) === undefined;
}

/** Whether a ts component's instant is whole milliseconds a Date reads (a Date holds no more). */
function wholeMs(type, text) {
  if (type !== 'ts' || /^-?\d+$/.test(text)) return true;
  const frac = text.match(/\.(\d+)/);
  return (!frac || frac[1].replace(/0+$/, '').length <= 3) && !Number.isNaN(new Date(text).getTime());
}

for (const fmt of ['hex', 'base64', 'decimal', 'binary']) {
  test(`native fixtures both ways: ${fmt}`, () => {
    let checked = 0;
    for (const [n, cols] of rows(`${fmt}.tsv`)) {
      const comps = cols.slice(0, -1).map(unescape);
      const keyCol = cols[cols.length - 1];
      const key = fmt === 'binary' ? Buffer.from(keyCol, 'hex') : keyCol;
      const at = `${fmt}.tsv:${n}`;
      // value -> key: as component strings
      assert.deepEqual(lexikey.encode(comps, { format: fmt }), key, at);
      const specs = comps.map((c) => c.slice(0, c.indexOf(':')));
      const texts = comps.map((c) => c.slice(c.indexOf(':') + 1));
      const types = specs.map((s) => s.split('.')[0]);
      // ... and as JavaScript values, where a value of that type holds it
      // exactly (a Date holds milliseconds; geo/ulid/uuid7 are texts).
      const exact = types.every((t, i) => ['str', 'bool', 'bytes', 'uuid', 'dec', 'f64', 'f32', 'i64', 'u64', 'i32', 'u32', 'ts'].includes(t) && wholeMs(t, texts[i]));
      if (exact) {
        const values = types.map((t, i) => jsValue(t, texts[i]));
        assert.deepEqual(lexikey.encode(specs.map((s, i) => [s, values[i]]), { format: fmt }), key, at);
        const schema = new lexikey.Schema(specs.join(','), fmt);
        assert.deepEqual(schema.encode(values), key, at);
        // key -> value
        const back = lexikey.decode(key, { format: fmt, schema: specs.join(',') });
        assert.equal(back.length, values.length, at);
        back.forEach((v, i) => {
          if (types[i] === 'dec' || types[i] === 'f32') return; // normalized text / widened float: checked by re-encoding
          assert.ok(same(v, values[i]), `${at}: ${String(v)} != ${String(values[i])}`);
        });
        assert.deepEqual(schema.encode(back), key, at);
        assert.deepEqual(schema.decode(key), back, at);
      }
      const pairs = lexikey.decode(key, { format: fmt, schema: specs.join(','), types: true });
      assert.deepEqual(pairs.map(([t]) => t), specs, at);
      if (fmt === 'hex' || fmt === 'base64') {
        // Tagged keys decode without a schema too.
        assert.deepEqual(lexikey.encode(lexikey.decode(key, { format: fmt, types: true }), { format: fmt }), key, at);
      }
      checked += 1;
    }
    assert.ok(checked > 20, `${checked} rows`);
  });
}

function* flat(pairs) {
  for (const [t, v] of pairs) {
    if (t === 'nested') {
      yield '(';
      yield* flat(v);
      yield ')';
    } else {
      yield t;
    }
  }
}

test('fdb-tuple fixtures both ways', () => {
  let checked = 0;
  for (const [n, cols] of rows('interop/fdb.tsv')) {
    const key = Buffer.from(cols[0], 'hex');
    const comps = cols.slice(1).map(unescapeBytes);
    const pairs = lexikey.decode(key, { format: 'fdb-tuple', types: true });
    assert.deepEqual([...flat(pairs)], comps.map((c) => ('()'.includes(c) ? c : c.split(':')[0])), `fdb.tsv:${n}`);
    if (!comps.includes('(')) {
      assert.deepEqual(lexikey.encode(comps, { format: 'fdb-tuple' }), key, `fdb.tsv:${n}`);
      // A JavaScript number does not keep a NaN's payload bits.
      if (!pairs.some(([, v]) => Number.isNaN(v))) {
        assert.deepEqual(lexikey.encode(pairs, { format: 'fdb-tuple' }), key, `fdb.tsv:${n}`);
      }
    }
    checked += 1;
  }
  assert.ok(checked > 30);
});

test('hbase-ordered fixtures both ways', () => {
  let checked = 0;
  for (const [n, cols] of rows('interop/hbase.tsv')) {
    const at = `hbase.tsv:${n}`;
    if (cols[0] === 'value') {
      const comp = unescapeBytes(cols[1]);
      const key = Buffer.from(cols[2], 'hex');
      if (!comp.includes(':')) continue; // a null alone: a Struct omits it
      const spec = comp.split(':')[0];
      assert.deepEqual(lexikey.encode([comp], { format: 'hbase-ordered' }), key, at);
      const pairs = lexikey.decode(key, { schema: spec, format: 'hbase-ordered', types: true });
      assert.equal(pairs[0][0], spec, at);
      assert.deepEqual(lexikey.encode(pairs, { format: 'hbase-ordered' }), key, at);
    } else if (cols[0] === 'struct') {
      const key = Buffer.from(cols[1], 'hex');
      const comps = cols.slice(3).map(unescapeBytes);
      const specs = comps.map((c) => c.split(':')[0]);
      assert.deepEqual(lexikey.encode(comps, { format: 'hbase-ordered' }), key, at);
      const pairs = lexikey.decode(key, { schema: specs.join(','), format: 'hbase-ordered', types: true });
      assert.deepEqual(pairs.map(([t]) => t), specs, at);
      const schema = new lexikey.Schema(specs.join(','), 'hbase-ordered');
      assert.deepEqual(schema.encode(pairs.map(([, v]) => v)), key, at);
    } else {
      continue;
    }
    checked += 1;
  }
  assert.ok(checked > 100);
});

const VARIABLE = ['varchar', 'varbinary', 'decimal'];

test('phoenix fixtures both ways', () => {
  let checked = 0;
  for (const [n, cols] of rows('interop/phoenix.tsv')) {
    const at = `phoenix.tsv:${n}`;
    if (cols[0] === 'value') {
      const comp = unescapeBytes(cols[1]);
      const spec = comp.split(':')[0];
      const base = spec.split('.')[0];
      if (!comp.includes(':') || (comp.slice(comp.indexOf(':') + 1) === '' && VARIABLE.includes(base))) continue;
      const tail = spec.endsWith('.desc') && VARIABLE.includes(base) ? 'ff' : '';
      const key = Buffer.from(cols[2] + tail, 'hex');
      assert.deepEqual(lexikey.encode([comp], { format: 'phoenix' }), key, at);
      const pairs = lexikey.decode(key, { schema: spec, format: 'phoenix', types: true });
      // A TIMESTAMP below the millisecond is beyond a Date: its text round-trips.
      if (!(pairs[0][1] instanceof Date) || comp.endsWith('000Z') || !/\.\d{4,}/.test(comp)) {
        assert.deepEqual(lexikey.encode(pairs, { format: 'phoenix' }), key, at);
      }
    } else if (cols[0] === 'row') {
      const [, schema, salt] = cols;
      const key = Buffer.from(cols[3], 'hex');
      const comps = cols.slice(4).map(unescapeBytes);
      if (salt === 'legacy') continue;
      const opts = salt === '-' ? {} : { saltBuckets: Number(salt) };
      assert.deepEqual(lexikey.encode(comps, { format: 'phoenix', ...opts }), key, at);
      const values = lexikey.decode(key, { schema, format: 'phoenix', ...opts });
      const s = new lexikey.Schema(schema, 'phoenix', opts);
      if (!values.some((v) => v instanceof Date)) {
        assert.deepEqual(s.encode(values), key, at);
      }
    } else {
      continue;
    }
    checked += 1;
  }
  assert.ok(checked > 100);
});

for (const [name, fmt] of [['fdb', 'fdb-tuple'], ['hbase', 'hbase-ordered'], ['phoenix', 'phoenix']]) {
  test(`malformed ${name} keys throw DecodeError at the fixture's offset`, () => {
    let checked = 0;
    for (const [n, cols] of rows(`interop/${name}-malformed.tsv`)) {
      let schema;
      let salt;
      let key;
      let offset;
      if (name === 'fdb') [key, , offset] = cols;
      else if (name === 'hbase') [schema, key, , offset] = cols;
      else {
        [schema, salt, key, , offset] = cols;
        if (salt === 'legacy') continue;
        salt = salt === '-' ? undefined : Number(salt);
      }
      try {
        lexikey.decode(Buffer.from(key, 'hex'), { schema, format: fmt, saltBuckets: salt });
        assert.fail(`${name}-malformed.tsv:${n}: decoded`);
      } catch (e) {
        if (e instanceof lexikey.DecodeError) {
          assert.equal(e.offset, Number(offset), `${name}-malformed.tsv:${n}: ${e.message}`);
          assert.ok(e instanceof Error);
          checked += 1;
        } else {
          // A schema the command line refuses up front.
          assert.match(e.message, /invalid schema/, `${name}-malformed.tsv:${n}`);
        }
      }
    }
    assert.ok(checked > 5);
  });
}
