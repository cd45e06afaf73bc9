// The ES module entry point gives the CommonJS module's exports.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import lexikeyDefault, { encode, decode, Schema, Allocator, DecodeError, EncodeError, AllocError, StoreError } from 'lexikey';

const require = createRequire(import.meta.url);
const cjs = require('lexikey');

test('import and require give the same module', () => {
  assert.equal(lexikeyDefault, cjs);
  for (const [name, value] of Object.entries({ encode, decode, Schema, Allocator, DecodeError, EncodeError, AllocError, StoreError })) {
    assert.equal(value, cjs[name], name);
  }
  assert.equal(encode(['str:population', 'i64:3831868']), 'population#l80000000003A783C');
  assert.deepEqual(decode('population#l80000000003A783C'), ['population', 3831868n]);
});
