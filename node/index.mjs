// The ES module entry point: the CommonJS module's exports, by name.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const lexikey = require('./index.js');

export const {
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
  version,
} = lexikey;
export default lexikey;
