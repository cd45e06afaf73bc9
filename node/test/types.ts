// Compiled with tsc --strict (scripts/node.sh test): the declarations
// describe the API as the tests and the README use it.
import {
  encode, decode, render, reverse, Schema, Allocator, DecodeError, EncodeError, AllocError, StoreError,
  Versionstamp, packWithVersionstamp,
  type KeyRange, type Value,
} from '../index.js';

const text: string = encode(['str:population', ['i64', 3831868n]]);
const bytes: Buffer = encode(['str:a', 5n], { format: 'binary' });
const values: Value[] = decode(text);
const pairs: [string, Value][] = decode(bytes, { format: 'binary', schema: 'str,i64', types: true });
const cities = new Schema('str,i64.desc', 'hex');
const keys: string[] = cities.encodeMany([['paris', 2102650n], ['lyon', 522250n]]);
const rows: Value[][] = cities.decodeMany(keys);
const r: KeyRange<string> = cities.range(['paris'], { ge: 1000n });
const start: string | null = r.start;
const scan: string = r.render('hbase', 'cities');
const perBucket: KeyRange<Buffer>[] = new Schema('str,u64', 'binary', { saltBuckets: 4 }).ranges(['x']);
const shown: string = render(start, r.end, 'redis');
const rev: bigint = reverse(1n);

async function ids(): Promise<bigint[]> {
  const a = await Allocator.open('redb:/tmp/x.redb', 'events', { format: 'hex', guard: true });
  const id: bigint = await a.insert(Buffer.from('v'));
  const newest: [bigint, Buffer] | null = await a.newest();
  const all: [bigint, Buffer][] = await a.scan(10);
  a.close();
  return [id, ...(newest ? [newest[0]] : []), ...all.map(([i]) => i)];
}

function offsetOf(e: unknown): number | undefined {
  if (e instanceof DecodeError) return e.offset;
  if (e instanceof EncodeError || e instanceof StoreError) return undefined;
  if (e instanceof AllocError) return e.kind.length;
  return undefined;
}

// Nulls, nested tuples and versionstamps.
const withNull: string = new Schema('str,i64?').encode(['age', null]);
const tuple: Buffer = encode([1n, [2n, null], 'x', new Versionstamp(Buffer.alloc(10), 3)], { format: 'fdb-tuple' });
const stamped: Buffer = packWithVersionstamp(['log', new Versionstamp(null), ['nested', [1n]]]);
const vs = new Versionstamp();
const vsBytes: Buffer = vs.toBytes();
const tr: Buffer | null = vs.trVersion;
const complete: boolean = vs.isComplete() && vs.userVersion === 0;
const unknownAge: KeyRange<string> = new Schema('str,i64?').range(['age'], { isNull: true });
const someName: KeyRange<Buffer> = new Schema('str,str?', 'binary').range(['n'], { notNull: true, prefix: 'ab' });

export { bytes, pairs, rows, values, scan, perBucket, shown, rev, ids, offsetOf };
// Lists (list<TYPE> fields): arrays in, arrays out.
const tags = new Schema('str,list<list<str>>,list<i32>?', 'binary');
const tagged: Buffer = tags.encode(['usa', [['a'], []], null]);
const tagRows: Buffer[] = tags.encodeMany([['usa', [['a', 'b']], [1, 2]]]);
const tagValues: Value[] = tags.decode(tagged);
const fromTags: KeyRange<Buffer> = tags.range(['usa'], { ge: [['a']] });

export { withNull, tuple, stamped, vsBytes, tr, complete, unknownAge, someName };
export { tagged, tagRows, tagValues, fromTags };
