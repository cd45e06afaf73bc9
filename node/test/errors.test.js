'use strict';
// Errors: Error subclasses with the command line's messages; decode errors
// carry the offset of the byte at fault, for every corruption of a key.
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const lexikey = require('..');
const { Gen, cli, full, seed } = require('./support');

/** The command line's one line on stderr (exit status 2). */
function cliError(args) {
  const r = spawnSync(cli, args, { encoding: 'utf8' });
  assert.equal(r.status, 2, `lexikey ${args.join(' ')}: ${r.stdout}`);
  return r.stderr.trim();
}

test('encode errors are EncodeErrors with the command line message', () => {
  for (const [comps, format] of [
    [['i64:x'], 'hex'],
    [['str:a', 'u64:-1'], 'hex'],
    [['i32:2147483648'], 'base64'],
    [['nope:1'], 'binary'],
    [['int8:300'], 'hbase-ordered'],
  ]) {
    assert.throws(
      () => lexikey.encode(comps, { format }),
      (e) => {
        assert.ok(e instanceof lexikey.EncodeError && e instanceof Error);
        assert.equal(e.name, 'EncodeError');
        assert.equal(`lexikey: error: ${e.message}`, cliError(['encode', '--format', format, ...comps]));
        return true;
      },
    );
  }
});

test('decode errors are DecodeErrors with the offset and message of the command line', () => {
  for (const [key, schema] of [
    ['ab#l8000', 'str,i64'],
    ['l80000000000000001', 'i64'],
    ['zz', 'u32'],
  ]) {
    assert.throws(
      () => lexikey.decode(key, { schema }),
      (e) => {
        assert.ok(e instanceof lexikey.DecodeError);
        assert.equal(`lexikey: error: ${e.message}`, cliError(['decode', '--schema', schema, key]));
        const at = Number(/at byte (\d+)/.exec(e.message)[1]);
        assert.equal(e.offset, at);
        return true;
      },
    );
  }
});

test('every corruption of a key decodes, or throws a DecodeError at an offset inside it', () => {
  const s = seed(11);
  const g = new Gen(s);
  const cases = full ? 20000 : 2000;
  const layouts = [
    ['str,i64.desc,f64', 'binary', () => [g.str(), g.i64(), g.f64()]],
    ['bytes,u32,ts', 'hex', () => [g.bytes(), g.intIn(0, 2 ** 32 - 1), new Date(g.ms())]],
    ['str.desc,dec', 'base64', () => [g.str(), g.dec()]],
    ['int,str,bytes', 'fdb-tuple', () => [g.i64(), g.str(), g.bytes()]],
    ['text,int64.desc', 'hbase-ordered', () => [g.str().replace(/\0/g, 'x'), g.i64()]],
    ['varchar,bigint', 'phoenix', () => [`v${g.str().replace(/\0/g, 'x')}`, g.i64()]],
  ];
  let thrown = 0;
  for (let i = 0; i < cases; i++) {
    const [spec, format, values] = g.pick(layouts);
    const schema = new lexikey.Schema(spec, format);
    const key = Buffer.from(schema.encode(values()));
    const bad = Buffer.from(key);
    const cut = g.below(3) === 0;
    const k = cut ? bad.subarray(0, g.below(bad.length + 1)) : bad;
    const text = ['hex', 'base64', 'decimal'].includes(format);
    if (!cut && bad.length) bad[g.below(bad.length)] = text ? 0x20 + g.below(95) : g.below(256);
    const arg = text ? k.toString('latin1') : k;
    try {
      schema.decode(arg);
    } catch (e) {
      assert.ok(e instanceof lexikey.DecodeError, `seed ${s}: ${e}`);
      assert.ok(Number.isInteger(e.offset) && e.offset >= 0 && e.offset <= k.length, `seed ${s}: offset ${e.offset} of ${k.length}: ${e.message}`);
      thrown += 1;
    }
  }
  assert.ok(thrown > cases / 10, `${thrown} errors`);
});

test('bad arguments are TypeErrors and RangeErrors, never a crash', () => {
  assert.throws(() => lexikey.encode('str:a'), TypeError);
  assert.throws(() => lexikey.encode(['str:a'], { format: 'nope' }), RangeError);
  assert.throws(() => new lexikey.Schema('str,nope'), RangeError);
  assert.throws(() => lexikey.decode(42, { schema: 'i64' }), TypeError);
  assert.throws(() => new lexikey.Schema('i64').encode([1.5]), lexikey.EncodeError);
  assert.throws(() => new lexikey.Schema('i64').encode([1n, 2n]), lexikey.EncodeError);
  assert.throws(() => new lexikey.Schema('i64').encodeMany([[1n], 'x']), TypeError);
  assert.throws(() => lexikey.decode('l8000000000000000', { format: 'binary', schema: 'i64' }), lexikey.DecodeError);
});
