// The facts of a huge file that is gone leave the cache: 123 MB of stale facts once made every later rename slow until
// `tug clean --cache`. Packs beyond a byte budget (the newest pack always stays) are dropped, oldest first. While the
// file is there, its facts are kept once outside the packs (a per-file budget), so a lookup of other files never reads
// them and a new pack never copies them.
import test from 'ava';
import { mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FACTS_SCHEMA, FactsCache, FILE_BUDGET, PACK_BUDGET } from '../../lib/python/facts-cache.js';

const oid = (n: number) => n.toString(16).padStart(40, '0');

test('the facts of a huge deleted file are dropped once the next set is stored; small recent packs stay', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-facts-budget-'));
  const cache = new FactsCache(dir);
  const packs = path.join(dir, FACTS_SCHEMA, 'packs');
  const huge = JSON.stringify({ references: 'r'.repeat(PACK_BUDGET + 1024) });
  const withHuge = FactsCache.key([oid(1), oid(2), oid(99)]);
  await cache.store(withHuge, new Map([[oid(1), '{"n":1}'], [oid(2), '{"n":2}'], [oid(99), huge]]));
  t.is((await cache.lookup(withHuge)).get(oid(99)), huge, 'the newest set keeps its huge entry');
  const older = new Date(Date.now() - 60_000);
  await utimes(path.join(packs, `${withHuge}.jsonl`), older, older);
  await utimes(path.join(dir, FACTS_SCHEMA, 'big', `${oid(99)}.json`), older, older);
  // The huge file was deleted: the next set lacks it.
  const without = FactsCache.key([oid(1), oid(2)]);
  await cache.store(without, new Map([[oid(1), '{"n":1}'], [oid(2), '{"n":2}']]));
  t.deepEqual(await readdir(path.join(dir, FACTS_SCHEMA, 'big')), [], 'the huge facts are gone');
  const left = await Promise.all((await readdir(packs)).filter((n) => n.endsWith('.jsonl')).map((n) => stat(path.join(packs, n))));
  t.true(left.reduce((sum, info) => sum + info.size, 0) < 4096, 'what is left on disk is small');
  t.false((await cache.lookup(withHuge)).has(oid(99)), 'the old set finds no facts for it (parsed again if it comes back)');
  t.is((await cache.lookup(without)).size, 2);
  // Small packs of other sets (branches, recent edits) are kept as before.
  for (let i = 3; i < 8; i++) await cache.store(FactsCache.key([oid(1), oid(i)]), new Map([[oid(1), '{"n":1}'], [oid(i), `{"n":${i}}`]]));
  t.is((await readdir(packs)).filter((n) => n.endsWith('.jsonl')).length, 7);
  await rm(dir, { recursive: true, force: true });
});

test('one huge file is kept once: new packs do not copy it, lookups of other files do not read it', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-facts-file-budget-'));
  const cache = new FactsCache(dir);
  const packs = path.join(dir, FACTS_SCHEMA, 'packs');
  const huge = JSON.stringify({ references: 'r'.repeat(4 * FILE_BUDGET) });
  const small = (n: number) => `{"n":${n}}`;
  // Edit after edit: each set has the huge file and one changed small file, as renames after edits make them.
  for (let i = 1; i <= 4; i++) {
    const lines = new Map([[oid(99), huge], [oid(i), small(i)]]);
    await cache.store(FactsCache.key(lines.keys()), lines);
  }
  const sizes = await Promise.all((await readdir(packs)).filter((n) => n.endsWith('.jsonl')).map(async (n) => (await stat(path.join(packs, n))).size));
  t.is(sizes.length, 4);
  t.true(sizes.every((size) => size < FILE_BUDGET), `no pack holds the huge entry (${sizes.join(', ')} bytes)`);
  const big = await readdir(path.join(dir, FACTS_SCHEMA, 'big'));
  t.deepEqual(big, [`${oid(99)}.json`], 'its facts are on disk once');
  // A later set that lacks the small file of the newest pack: only the asked-for lines come back.
  const key = FactsCache.key([oid(99), oid(7)]);
  const some = await cache.lookup(key, (o) => o === oid(4));
  t.deepEqual([...some.keys()], [oid(4)]);
  const all = await cache.lookup(key, (o) => o === oid(99));
  t.is(all.get(oid(99)), huge, 'the huge entry is read back whole when asked for');
  // A damaged big file is a miss the reader detects, and storing the parsed facts again repairs it.
  await writeFile(path.join(dir, FACTS_SCHEMA, 'big', `${oid(99)}.json`), '{"refer');
  const damaged = (await cache.lookup(key, (o) => o === oid(99))).get(oid(99)) ?? '';
  t.throws(() => JSON.parse(damaged), undefined, 'the reader sees damage (CacheCorrupt) and parses the file again');
  await cache.store(key, new Map([[oid(99), huge], [oid(7), small(7)]]));
  t.is((await cache.lookup(key)).get(oid(99)), huge);
  await rm(dir, { recursive: true, force: true });
});
