'use strict';
// The allocator from Node on real stores: 4 processes x 200 inserts on
// Redis (scripts/with-stores.sh exports LEXIKEY_REDIS_URL) and on one redb
// file -> 800 unique IDs, contiguous from the top, every row present with
// its value, scan newest first. Store calls run off the event loop.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile, spawnSync } = require('node:child_process');
const { promisify } = require('node:util');
const lexikey = require('..');
const support = require('./support');

const PROCS = 4;
const PER = 200;
const TOP = 2n ** 64n - 1n;
const run = promisify(execFile);

async function fourProcesses(url, table) {
  const worker = path.join(__dirname, 'alloc-worker.js');
  const outs = await Promise.all(
    Array.from({ length: PROCS }, (_, p) => run(process.execPath, [worker, url, table, String(PER), `p${p}`], { maxBuffer: 1 << 24 })),
  );
  const got = [];
  for (const { stdout } of outs) {
    const mine = JSON.parse(stdout).map(([id, v]) => [BigInt(id), v]);
    for (let i = 1; i < mine.length; i++) assert.ok(mine[i][0] < mine[i - 1][0], 'each process sees decreasing IDs');
    got.push(...mine);
  }
  const ids = got.map(([id]) => id);
  assert.equal(new Set(ids).size, PROCS * PER, 'duplicate IDs');
  const sorted = [...ids].sort((a, b) => (a < b ? -1 : 1));
  assert.equal(sorted[0], TOP - BigInt(PROCS * PER) + 1n, 'contiguous from the top');
  assert.equal(sorted[sorted.length - 1], TOP);
  const a = await lexikey.Allocator.open(url, table);
  try {
    const rows = await a.scan();
    assert.deepEqual(rows.map(([id]) => id), sorted, 'newest (smallest ID) first');
    const byId = new Map(got.map(([id, v]) => [id, v]));
    for (const [id, v] of rows) assert.equal(v.toString(), byId.get(id));
    const newest = await a.newest();
    assert.equal(newest[0], sorted[0]);
    assert.equal((await a.oldest())[0], TOP);
    assert.equal((await a.scan(3)).length, 3);
  } finally {
    a.close();
  }
}

test('4 processes x 200 inserts on Redis: 800 unique IDs, newest first', async (t) => {
  const url = process.env.LEXIKEY_REDIS_URL;
  if (!url) {
    if (process.env.LEXIKEY_REQUIRE_STORES) assert.fail('LEXIKEY_REDIS_URL is not set');
    t.skip('LEXIKEY_REDIS_URL is not set: run under scripts/with-stores.sh (scripts/test.sh does)');
    return;
  }
  await fourProcesses(url, `node-${process.pid}-${Date.now()}`);
});

test('4 processes x 200 inserts on one redb file: 800 unique IDs, newest first', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lexikey-node-redb-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  await fourProcesses(`redb:${path.join(dir, 'ids.redb')}`, 'events');
});

test('the event loop runs while the allocator waits for its store', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lexikey-node-loop-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const a = await lexikey.Allocator.open(`redb:${path.join(dir, 'x.redb')}`, 't');
  let ticks = 0;
  const timer = setInterval(() => (ticks += 1), 0);
  const pending = Array.from({ length: 100 }, (_, i) => a.insert(`v${i}`));
  assert.ok(pending[0] instanceof Promise);
  const ids = await Promise.all(pending);
  clearInterval(timer);
  a.close();
  assert.equal(new Set(ids).size, 100);
  assert.ok(ticks > 0, 'timers fired while inserts were under way');
  await assert.rejects(a.insert('x'), RangeError, 'a closed allocator refuses calls');
});

test('store and allocator errors: StoreError with the command line message, AllocError with a kind', async () => {
  await assert.rejects(lexikey.Allocator.open('redis://127.0.0.1:1', 't'), (e) => {
    assert.ok(e instanceof lexikey.StoreError && e instanceof Error);
    const cli = spawnSync(support.cli, ['alloc', '--store', 'redis://127.0.0.1:1', '--table', 't', 'x'], { encoding: 'utf8' });
    assert.equal(cli.status, 2);
    assert.equal(`lexikey: error: ${e.message}`, cli.stderr.trim());
    return true;
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lexikey-node-floor-'));
  try {
    const a = await lexikey.Allocator.open(`redb:${path.join(dir, 'f.redb')}`, 't', { start: 5n, floor: 4n });
    assert.equal(await a.insert('a'), 5n);
    assert.equal(await a.insert('b'), 4n);
    await assert.rejects(a.insert('c'), (e) => e instanceof lexikey.AllocError && e.kind === 'exhausted');
    a.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
