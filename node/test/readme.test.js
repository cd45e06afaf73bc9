'use strict';
// Every ```js example of node/README.md runs, as a module of its own
// (require('lexikey') is this package), and its assertions hold.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

test('node/README.md has examples', () => {
  assert.ok(blocks.length >= 5, `${blocks.length} examples`);
});

blocks.forEach((code, i) => {
  test(`node/README.md example ${i + 1}`, async () => {
    const file = path.join(__dirname, `readme-example-${i + 1}.js`);
    const m = new Module(file, module);
    m.filename = file;
    m.paths = Module._nodeModulePaths(path.dirname(file));
    m._compile(code, file);
    await m.exports;
  });
});
