// The facts of a huge file that is gone leave the cache: 123 MB of stale facts once made every later rename slow until
// `tug clean --cache`. Packs beyond a byte budget (the newest pack always stays) are dropped, oldest first.
import test from 'ava';
import { mkdtemp, readdir, rm, stat, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FACTS_SCHEMA, FactsCache, PACK_BUDGET } from '../../lib/python/facts-cache.js';

const oid = (n: number) => n.toString(16).padStart(40, '0');

test('a pack holding a huge deleted file is dropped once the next set is stored; small recent packs stay', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-facts-budget-'));
  const cache = new FactsCache(dir);
  const packs = path.join(dir, FACTS_SCHEMA, 'packs');
  const huge = JSON.stringify({ references: 'r'.repeat(PACK_BUDGET + 1024) });
  const withHuge = FactsCache.key([oid(1), oid(2), oid(99)]);
  await cache.store(withHuge, new Map([[oid(1), '{"n":1}'], [oid(2), '{"n":2}'], [oid(99), huge]]));
  t.true((await stat(path.join(packs, `${withHuge}.jsonl`))).size > PACK_BUDGET, 'the newest pack stays, however large');
  const older = new Date(Date.now() - 60_000);
  await utimes(path.join(packs, `${withHuge}.jsonl`), older, older);
  // The huge file was deleted: the next set lacks it.
  const without = FactsCache.key([oid(1), oid(2)]);
  await cache.store(without, new Map([[oid(1), '{"n":1}'], [oid(2), '{"n":2}']]));
  const left = (await readdir(packs)).filter((n) => n.endsWith('.jsonl')).sort();
  t.deepEqual(left, [`${without}.jsonl`], 'the pack with the deleted huge file is gone');
  t.is((await cache.lookup(without)).size, 2);
  // Small packs of other sets (branches, recent edits) are kept as before.
  for (let i = 3; i < 8; i++) await cache.store(FactsCache.key([oid(1), oid(i)]), new Map([[oid(1), '{"n":1}'], [oid(i), `{"n":${i}}`]]));
  t.is((await readdir(packs)).filter((n) => n.endsWith('.jsonl')).length, 6);
  await rm(dir, { recursive: true, force: true });
});
