/// <reference types="node" />
// lexikey for Node: the declarations of index.js (checked with tsc --strict
// by the tests).

/** The key formats: text formats give `string` keys, the others `Buffer`s. */
export type TextFormat = 'hex' | 'base64' | 'decimal';
export type BinaryFormat = 'binary' | 'fdb-tuple' | 'hbase-ordered' | 'phoenix';
export type Format = TextFormat | BinaryFormat;

/** A key: `string` for the text formats, `Buffer` for the others. */
export type Key = string | Buffer;
type KeyOf<F> = F extends TextFormat ? string : F extends BinaryFormat ? Buffer : Key;

/**
 * A value as JavaScript holds it (i64/u64 as bigint, ts as Date, bytes as
 * Buffer). An array is a `list<TYPE>` field's list (with a schema, nested
 * for `list<list<TYPE>>`), a `geo` point `[lat, lon]`, or an `fdb-tuple`
 * nested tuple.
 */
export type Value =
  | string
  | number
  | bigint
  | boolean
  | Buffer
  | Uint8Array
  | Date
  | null
  | [number, number]
  | Versionstamp
  | Value[];

/**
 * A component: `"TYPE[.desc]:VALUE"`, a `[type, value]` pair, or a plain value
 * (`null` for a nullable `TYPE?` field). In `fdb-tuple` an array that is not a
 * `[type, value]` pair is a nested tuple of components (write
 * `['nested', [...]]` for one whose first item is a type name), and a
 * `Versionstamp` is a versionstamp.
 */
export type Component = string | [string, Value] | Value | Component[];

/**
 * A FoundationDB versionstamp: 10 bytes of transaction version (`null`:
 * incomplete, completed by the database at commit) and a 16-bit user version.
 */
export class Versionstamp {
  constructor(trVersion?: Buffer | Uint8Array | null, userVersion?: number);
  readonly trVersion: Buffer | null;
  readonly userVersion: number;
  isComplete(): boolean;
  /** The 12 bytes as packed (an incomplete one's transaction version all 0xff). */
  toBytes(): Buffer;
}

export interface LayoutOptions {
  /** Decimal digits of integer fields (`decimal` format only). */
  width?: number;
  /** Salt buckets: the fast salt (native formats) or Phoenix's SALT_BUCKETS. */
  saltBuckets?: number;
  /** `hbase-ordered`: `current` (HBase 2.5+) or `legacy` (2.4 and older). */
  hbaseNumeric?: 'current' | 'legacy';
  /** `phoenix`: round a DECIMAL of more than 38 digits as Phoenix stores it. */
  round?: boolean;
}

export interface EncodeOptions<F extends Format = Format> extends LayoutOptions {
  format?: F;
}

export interface DecodeOptions<F extends Format = Format> extends LayoutOptions {
  format?: F;
  /** `"str,i64.desc"`: needed by keys that carry no type tags. */
  schema?: string;
  /** `[type, value]` pairs instead of values. */
  types?: boolean;
}

/** A half-open key range; `null` is an unbounded side. */
export interface KeyRange<K extends Key = Key> {
  start: K | null;
  end: K | null;
  /** The range in a store's syntax (`hbase`, `cbt`, `cql`, `rocksdb`, `etcd`, `redis`, `sql`, `raw`). */
  render(target: string, table?: string): string;
}

/** The predicate on the field after the prefix. */
export interface Predicate {
  eq?: Value;
  ge?: Value;
  gt?: Value;
  le?: Value;
  lt?: Value;
  /** A `str` field starting with this text (in the field's direction; on a `str?`, never a null). */
  prefix?: string;
  /** `true`: the nullable (`TYPE?`) field is null (SQL's `IS NULL`). */
  isNull?: boolean;
  /** `true`: the nullable (`TYPE?`) field holds a value (`IS NOT NULL`). */
  notNull?: boolean;
}

export function encode<F extends Format = 'hex'>(components: Component[], options?: EncodeOptions<F>): KeyOf<F>;
export function decode(key: Key | Uint8Array, options: DecodeOptions & { types: true }): [string, Value][];
export function decode(key: Key | Uint8Array, options?: DecodeOptions): Value[];
export function render(start: Key | null, end: Key | null, target: string, table?: string): string;
/**
 * The `fdb-tuple` key of components holding exactly one incomplete
 * `Versionstamp`, then its offset as 4 bytes little-endian: what
 * `fdb.tuple.pack_with_versionstamp` gives, for `SET_VERSIONSTAMPED_KEY`.
 */
export function packWithVersionstamp(components: Component[]): Buffer;
/** `9223372036854775807n - n`, for newest-first HBase tables. */
export function reverse(n: bigint | number): bigint;

export class Schema<F extends Format = 'hex'> {
  constructor(spec: string, format?: F, options?: LayoutOptions);
  readonly spec: string;
  readonly format: F;
  /** The fields' types, as the command line writes them. */
  readonly fields: string[];
  encode(values: Value[]): KeyOf<F>;
  decode(key: Key | Uint8Array): Value[];
  /** Every row's key, in one call into Rust. */
  encodeMany(rows: Value[][]): KeyOf<F>[];
  /** Every key's values, in one call into Rust. */
  decodeMany(keys: (Key | Uint8Array)[]): Value[][];
  range(prefix?: Value[], predicate?: Predicate): KeyRange<KeyOf<F>>;
  /** One range per salt bucket, bucket 0 first. */
  ranges(prefix?: Value[], predicate?: Predicate): KeyRange<KeyOf<F>>[];
  render(range: { start: Key | null; end: Key | null }, target: string, table?: string): string;
}

export interface AllocatorOptions {
  format?: 'hex' | 'base64' | 'decimal' | 'binary';
  guard?: boolean;
  start?: bigint | number;
  floor?: bigint | number;
  saltBuckets?: number;
  saltMode?: 'fast' | 'phoenix';
  readOnly?: boolean;
}

/** Decreasing row IDs for an upside-down table; every call runs off the event loop. */
export class Allocator {
  private constructor(handle: never);
  static open(storeUrl: string, table: string, options?: AllocatorOptions): Promise<Allocator>;
  insert(value: Buffer | Uint8Array | string): Promise<bigint>;
  newest(): Promise<[bigint, Buffer] | null>;
  oldest(): Promise<[bigint, Buffer] | null>;
  /** Rows newest first. */
  scan(limit?: number): Promise<[bigint, Buffer][]>;
  close(): void;
}

export class DecodeError extends Error {
  /** The byte offset of the first byte at fault. */
  readonly offset: number;
}
export class EncodeError extends Error {}
export class AllocError extends Error {
  /** contention, exhausted, store, ambiguous, corrupt, config or other. */
  readonly kind: string;
}
export class StoreError extends Error {}

export const version: string;
