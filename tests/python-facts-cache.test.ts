// The facts cache's packs: one read for a file set seen before, reuse of the newest pack after an edit, torn lines, pruning.
import test from 'ava';
import { appendFile, mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FACTS_SCHEMA, FactsCache } from '../lib/python/facts-cache.js';

const oid = (n: number) => n.toString(16).padStart(40, '0');
const facts = (n: number) => JSON.stringify({ n });

async function cacheDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'tug-facts-'));
}

test('a set seen before is one pack; a changed set reuses the newest pack for what it shares', async (t) => {
  const dir = await cacheDir();
  const cache = new FactsCache(dir);
  t.true(await cache.isEmpty());
  const first = FactsCache.key([oid(1), oid(2)]);
  t.is(first, FactsCache.key([oid(2), oid(1), oid(2)]), 'the key is the set, not the order');
  t.deepEqual(await cache.lookup(first), new Map());
  await cache.store(first, new Map([[oid(1), facts(1)], [oid(2), facts(2)]]));
  t.false(await cache.isEmpty());
  t.deepEqual(await cache.lookup(first), new Map([[oid(1), facts(1)], [oid(2), facts(2)]]));
  // After an edit: oid(2) became oid(3). The newest pack still answers for oid(1).
  const second = FactsCache.key([oid(1), oid(3)]);
  const reused = await cache.lookup(second);
  t.is(reused.get(oid(1)), facts(1));
  t.false(reused.has(oid(3)));
  await rm(dir, { recursive: true, force: true });
});

test('a torn line is no error: lookup hands it on with its blob id, so the reader reports CacheCorrupt and parses again', async (t) => {
  const dir = await cacheDir();
  const cache = new FactsCache(dir);
  const key = FactsCache.key([oid(1), oid(2)]);
  await cache.store(key, new Map([[oid(1), facts(1)]]));
  await appendFile(path.join(dir, FACTS_SCHEMA, 'packs', `${key}.jsonl`), `${oid(2)} {"n": 2`);
  const lines = await cache.lookup(key);
  t.deepEqual([...lines.keys()], [oid(1), oid(2)]);
  t.is(lines.get(oid(2)), '{"n": 2');
  await appendFile(path.join(dir, FACTS_SCHEMA, 'packs', `${key}.jsonl`), `\nnot-a-blob-id {}\n`);
  t.deepEqual([...(await cache.lookup(key)).keys()], [oid(1), oid(2)], 'a line without a blob id cannot be attributed and is skipped');
  await rm(dir, { recursive: true, force: true });
});

test('old packs are pruned; the newest ones stay', async (t) => {
  const dir = await cacheDir();
  const cache = new FactsCache(dir);
  const packs = path.join(dir, FACTS_SCHEMA, 'packs');
  const keys: string[] = [];
  for (let i = 0; i < 20; i++) {
    const key = FactsCache.key([oid(i)]);
    keys.push(key);
    await cache.store(key, new Map([[oid(i), facts(i)]]));
    // Distinct modification times, oldest first, whatever the file system's resolution.
    const when = new Date(Date.now() - (20 - i) * 60_000);
    await utimes(path.join(packs, `${key}.jsonl`), when, when);
  }
  const left = (await readdir(packs)).filter((n) => n.endsWith('.jsonl'));
  t.true(left.length <= 17, `${left.length} packs left`);
  t.true(left.includes(`${keys[19]}.jsonl`));
  t.false(left.includes(`${keys[0]}.jsonl`));
  await rm(dir, { recursive: true, force: true });
});
