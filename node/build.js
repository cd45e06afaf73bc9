'use strict';
// The install script of `npm install ./node`: builds the addon lexikey.node
// with @napi-rs/cli (cargo, release profile, the default stores) unless one
// is already there (scripts/node.sh build copies the test build's in).
// LEXIKEY_NODE_REBUILD=1 builds it again.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const here = __dirname;
const addon = path.join(here, 'lexikey.node');
if (fs.existsSync(addon) && !process.env.LEXIKEY_NODE_REBUILD) {
  process.exit(0);
}
const pkg = require.resolve('@napi-rs/cli/package.json', { paths: [here] });
const bin = require(pkg).bin;
const cli = path.join(path.dirname(pkg), typeof bin === 'string' ? bin : bin.napi);
execFileSync(
  process.execPath,
  [
    cli, 'build', '--release',
    '--manifest-path', path.join(here, 'Cargo.toml'),
    '--package-json-path', path.join(here, 'package.json'),
    '--output-dir', here,
    // The declarations are index.d.ts, written by hand: napi's go aside.
    '--dts', path.join('..', 'target', 'napi-generated.d.ts'),
  ],
  { stdio: 'inherit', cwd: here },
);
