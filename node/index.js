'use strict';
// lexikey for Node: the Rust library's keys, ranges and allocator through
// Node-API (src/, napi-rs). This file only names things: the error classes,
// and Schema and Allocator as classes over the native functions. No key
// is made or read here.

const path = require('node:path');

const native = require(path.join(__dirname, 'lexikey.node'));

/** A key that does not decode; `offset` is the byte at fault. */
class DecodeError extends Error {
  constructor(message, offset) {
    super(message);
    this.name = 'DecodeError';
    this.offset = offset;
  }
}

/** Values that cannot be encoded. */
class EncodeError extends Error {
  constructor(message) {
    super(message);
    this.name = 'EncodeError';
  }
}

/** An allocation that failed; `kind` says why. */
class AllocError extends Error {
  constructor(message, kind) {
    super(message);
    this.name = 'AllocError';
    this.kind = kind;
  }
}

/** A store that cannot be opened or reached. */
class StoreError extends Error {
  constructor(message) {
    super(message);
    this.name = 'StoreError';
  }
}

/**
 * A FoundationDB versionstamp: a 10-byte transaction version (`null`: an
 * incomplete versionstamp, which the database completes at commit) and a
 * 16-bit user version, as Python's `lexikey.Versionstamp` and the official
 * bindings' `fdb.tuple.Versionstamp`. The checks and the byte layout are
 * the Rust library's.
 */
class Versionstamp {
  constructor(trVersion = null, userVersion = 0) {
    // Checked (10 bytes or null; 0 to 65535) by the library.
    native.versionstampBytes(trVersion, userVersion);
    this.trVersion = trVersion === null || trVersion === undefined ? null : Buffer.from(trVersion);
    this.userVersion = userVersion;
    Object.freeze(this);
  }

  /** Whether the transaction version is set. */
  isComplete() {
    return this.trVersion !== null;
  }

  /** The 12 bytes as packed (an incomplete one's transaction version all 0xff). */
  toBytes() {
    return native.versionstampBytes(this.trVersion, this.userVersion);
  }
}

native.init({ DecodeError, EncodeError, AllocError, StoreError, Versionstamp });

const TEXT = new Set(['hex', 'base64', 'decimal']);

function withRender(range) {
  Object.defineProperty(range, 'render', {
    value(target, table) {
      return native.render(range.start, range.end, target, table);
    },
    enumerable: false,
  });
  return range;
}

/** A key layout with its fields, parsed once. */
class Schema {
  #h;

  constructor(spec, format = 'hex', options = undefined) {
    this.#h = native.schemaNew(spec, format, options);
    const info = native.schemaInfo(this.#h);
    this.spec = spec;
    this.format = info.format;
    this.fields = info.fields;
    Object.freeze(this);
  }

  encode(values) {
    return native.schemaEncode(this.#h, values);
  }

  decode(key) {
    return native.schemaDecode(this.#h, key);
  }

  encodeMany(rows) {
    // The batch's keys one after the other, and the end of each: cut into
    // substrings (ASCII text keys), strings (other text keys) or Buffer
    // views (binary keys).
    const [keys, ends] = native.schemaEncodeMany(this.#h, rows);
    const out = new Array(ends.length);
    let start = 0;
    if (typeof keys === 'string') {
      for (let i = 0; i < ends.length; i++) {
        out[i] = keys.slice(start, ends[i]);
        start = ends[i];
      }
    } else if (TEXT.has(this.format)) {
      for (let i = 0; i < ends.length; i++) {
        out[i] = keys.toString('utf8', start, ends[i]);
        start = ends[i];
      }
    } else {
      for (let i = 0; i < ends.length; i++) {
        out[i] = keys.subarray(start, ends[i]);
        start = ends[i];
      }
    }
    return out;
  }

  decodeMany(keys) {
    return native.schemaDecodeMany(this.#h, keys);
  }

  range(prefix = [], predicate = undefined) {
    return withRender(native.schemaRange(this.#h, prefix, predicate));
  }

  ranges(prefix = [], predicate = undefined) {
    return native.schemaRanges(this.#h, prefix, predicate).map(withRender);
  }

  render(range, target, table) {
    return native.render(range.start, range.end, target, table);
  }
}

/** Decreasing row IDs for an upside-down table, on any store the CLI opens. */
class Allocator {
  #h;

  constructor(handle) {
    if (typeof handle !== 'object' || handle === null || !handle.__lexikey) {
      throw new TypeError('use await Allocator.open(storeUrl, table, options)');
    }
    this.#h = handle.__lexikey;
  }

  static async open(storeUrl, table, options = undefined) {
    const h = await native.allocOpen(storeUrl, table, options);
    return new Allocator({ __lexikey: h });
  }

  async insert(value) {
    return native.allocInsert(this.#h, value);
  }

  async newest() {
    return native.allocNewest(this.#h);
  }

  async oldest() {
    return native.allocOldest(this.#h);
  }

  async scan(limit = undefined) {
    return native.allocScan(this.#h, limit);
  }

  close() {
    native.allocClose(this.#h);
  }
}

function encode(components, options = undefined) {
  return native.encode(components, options);
}

function decode(key, options = undefined) {
  return native.decode(key, options);
}

function render(start, end, target, table = undefined) {
  return native.render(start, end, target, table);
}

function reverse(n) {
  return native.reverse(n);
}

function packWithVersionstamp(components) {
  return native.packWithVersionstamp(components);
}

module.exports = {
  encode,
  decode,
  render,
  reverse,
  packWithVersionstamp,
  Schema,
  Allocator,
  Versionstamp,
  DecodeError,
  EncodeError,
  AllocError,
  StoreError,
  version: native.version,
};
