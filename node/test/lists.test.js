'use strict';
// List components (list<T>) from Node: with a schema, a JS array is the
// value of a list field, element by element (nested for list<list<T>>,
// null the null of a nullable list). On random lists of i64, str, bytes,
// f64 and bool elements, 1 to 3 levels deep, ascending and descending,
// nullable or not, inside a composite key in every native format, the Node
// key (Schema.encode and encodeMany) is the command line's for the list's
// text (`lexikey encode --stdin --schema`), decoding gives the arrays back
// and the list's text keeps working; a range on a list field is the
// command line's; bad lists are EncodeErrors naming the element.
const test = require('node:test');
const assert = require('node:assert/strict');
const lexikey = require('..');
const { Gen, lexikey: cli, full, seed } = require('./support');

const FORMATS = ['hex', 'base64', 'decimal', 'binary'];
const numText = (x) => (Object.is(x, -0) ? '-0' : String(x));
const ELEMENTS = {
  i64: [(g) => g.i64(), String],
  str: [(g) => g.str(), String],
  bytes: [(g) => g.bytes(6), (b) => b.toString('hex')],
  f64: [(g) => g.f64(), numText],
  bool: [(g) => g.below(2) === 1, String],
};

function list(g, type, depth) {
  return Array.from({ length: g.below(5) }, () => (depth === 1 ? ELEMENTS[type][0](g) : list(g, type, depth - 1)));
}

/**
 * The command line's text of a list (README "Lists."): elements as
 * TYPE:VALUE writes them, backslash, comma and brackets escaped, separated
 * by ", " (one space after a comma belongs to the separator), a "," before
 * the "]" when the last element's text is empty.
 */
function text(type, v) {
  if (!Array.isArray(v)) return ELEMENTS[type][1](v).replace(/[\\,[\]]/g, (c) => `\\${c}`);
  const items = v.map((x) => text(type, x));
  return `[${items.join(', ')}${items.length && items[items.length - 1] === '' ? ',' : ''}]`;
}

const keyText = (k) => (typeof k === 'string' ? k : k.toString('hex'));

test('Node lists encode as the command line does and decode back', () => {
  const s = seed(4242);
  const g = new Gen(s);
  const rounds = full ? 400 : 40;
  const rows = 25;
  for (let r = 0; r < rounds; r++) {
    const format = g.pick(FORMATS);
    let type = g.pick(Object.keys(ELEMENTS));
    if (format === 'decimal' && type === 'f64') type = 'i64'; // the decimal format has no floats
    const depth = 1 + g.below(3);
    const nullable = g.below(2) === 1;
    const field = `${'list<'.repeat(depth)}${type}${'>'.repeat(depth)}${nullable ? '?' : ''}${g.below(2) ? '.desc' : ''}${
      nullable && g.below(2) ? '.nulls_last' : ''}`;
    const spec = `str,${field},i64`;
    const schema = new lexikey.Schema(spec, format);
    const values = [];
    let stdin = '';
    for (let i = 0; i < rows; i++) {
      const l = nullable && g.below(5) === 0 ? null : list(g, type, depth);
      const n = g.i64();
      values.push(['p#', l, n]);
      stdin += `p#\t${l === null ? '\\N' : text(type, l)}\t${n}\n`;
    }
    const want = cli(['encode', '--stdin', '--format', format, '--schema', spec], stdin).split('\n').slice(0, rows);
    const bulk = schema.encodeMany(values);
    values.forEach((row, i) => {
      const where = `seed ${s}, ${spec} ${format}, row ${i}: ${row[1] === null ? 'null' : text(type, row[1])}`;
      const key = schema.encode(row);
      assert.equal(keyText(key), want[i], where);
      assert.equal(keyText(bulk[i]), want[i], `${where} (encodeMany)`);
      assert.deepEqual(schema.decode(key), row, `${where} (decoded)`);
      if (row[1] !== null) {
        assert.equal(keyText(schema.encode(['p#', text(type, row[1]), row[2]])), want[i], `${where} (as text)`);
      }
    });
  }
});

test('Node list elements decode as their type does', () => {
  const s = new lexikey.Schema('list<i32>,list<list<u64>>,list<bool>', 'binary');
  const row = [[1, -2], [[10n], []], [true]];
  assert.deepEqual(s.decode(s.encode(row)), row);
  const i64 = new lexikey.Schema('list<i64>');
  assert.equal(i64.encode([[1, 2n]]), 'a:l8000000000000001:l8000000000000002.');
  assert.equal(i64.encode([[]]), 'a.');
});

test('Node bad lists are EncodeErrors naming the element', () => {
  const s = new lexikey.Schema('list<i64>,str');
  const says = (values, message) =>
    assert.throws(() => s.encode(values), (e) => e instanceof lexikey.EncodeError && message.test(e.message), String(message));
  says([[1n, 'x'], 'a'], /^values, value 1 \(list<i64>\): element 1: expected an integer .* got a string$/);
  says([[1n, null], 'a'], /^values, value 1 \(list<i64>\): element 1: .*got null$/);
  says([null, 'a'], /^values, value 1 \(list<i64>\): a list<i64> field takes a list, not null$/);
  says([5n, 'a'], /^values, value 1 \(list<i64>\): a list<i64> field takes a list, not a bigint$/);
  says([[[1n]], 'a'], /element 0: .*got an array$/);
  says([[1.5], 'a'], /element 0: expected an integer/);
  says(['[1, x]', 'a'], /list<i64>/);
  says([[1n], ['a']], /value 2 \(str\)/);
  const nested = new lexikey.Schema('list<list<str>>?');
  assert.throws(() => nested.encode([[['a'], ['b', 7n]]]), /element 1: expected a string for str, got a bigint/);
  assert.throws(() => nested.encode([[['a'], null]]), /a list<str> field takes a list, not null/);
  assert.equal(nested.encode([null]), lexikey.encode(['list<list<str>>?']));
  assert.throws(() => s.encodeMany([[[1n], 'a'], [[true], 'b']]), /^EncodeError: row 1, value 1 \(list<i64>\): element 0: /);
  // Without a schema a list has no element type.
  assert.throws(() => lexikey.encode([[1n, 2n]]), lexikey.EncodeError);
});

test('Node ranges on a list field are the command line\'s', () => {
  const s = seed(77);
  const g = new Gen(s);
  for (let r = 0; r < 20; r++) {
    const format = g.pick(FORMATS);
    const field = `list<i64>${g.below(2) ? '.desc' : ''}`;
    const spec = `str,${field},i64`;
    const lo = list(g, 'i64', 1);
    const strict = g.below(2) === 1;
    const range = new lexikey.Schema(spec, format).range(['p'], strict ? { gt: lo } : { ge: lo });
    const flag = `${strict ? '--gt' : '--ge'}=${field}:${text('i64', lo)}`;
    const want = cli(['range', `--format=${format}`, `--schema=${spec}`, flag, '--', 'str:p'], '').split('\n');
    assert.deepEqual([keyText(range.start), keyText(range.end)], want.slice(0, 2), `seed ${s}, ${spec} ${format} ${flag}`);
  }
});
