'use strict';
// One process of alloc.test.js: opens the table, inserts N rows (values
// TAG-i) one after the other, prints [[id, value], ...] as JSON (IDs as
// decimal strings).
const lexikey = require('..');

async function main() {
  const [url, table, n, tag] = process.argv.slice(2);
  const a = await lexikey.Allocator.open(url, table);
  const got = [];
  for (let i = 0; i < Number(n); i++) {
    const value = `${tag}-${i}`;
    const id = await a.insert(Buffer.from(value));
    got.push([String(id), value]);
  }
  a.close();
  process.stdout.write(JSON.stringify(got));
}

main().catch((e) => {
  process.stderr.write(`${e.name}: ${e.message}\n`);
  process.exit(1);
});
