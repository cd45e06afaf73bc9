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
const args = [
  'build', '--release',
  '--manifest-path', path.join(here, 'Cargo.toml'),
  '--package-json-path', path.join(here, 'package.json'),
  '--output-dir', here,
  // The declarations are index.d.ts, written by hand: napi's go aside.
  '--dts', path.join('..', 'target', 'napi-generated.d.ts'),
];
let cli;
try {
  // Installed with the package (npm install in node/, or a workspace).
  const pkg = require.resolve('@napi-rs/cli/package.json', { paths: [here, process.env.INIT_CWD || here] });
  const bin = require(pkg).bin;
  cli = path.join(path.dirname(pkg), typeof bin === 'string' ? bin : bin.napi);
} catch {
  cli = null;
}
if (cli) {
  execFileSync(process.execPath, [cli, ...args], { stdio: 'inherit', cwd: here });
} else {
  // `npm install ./node` from another project links this folder without
  // installing its dependencies first: run the pinned @napi-rs/cli with npx.
  const version = require('./package.json').dependencies['@napi-rs/cli'];
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  execFileSync(npx, ['--yes', '-p', `@napi-rs/cli@${version}`, 'napi', ...args], { stdio: 'inherit', cwd: here });
}
