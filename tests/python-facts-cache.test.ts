// The facts cache's packs: one read for a file set seen before, reuse of the newest pack after an edit, torn lines, pruning.
import test from 'ava';
import { appendFile, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FACTS_SCHEMA, FactsCache } from '../lib/python/facts-cache.js';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

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

test('a lookup that names the blobs it wants keeps only those lines of the newest pack, and all of its own', async (t) => {
  const dir = await cacheDir();
  const cache = new FactsCache(dir);
  const whole = FactsCache.key([oid(1), oid(2), oid(3)]);
  await cache.store(whole, new Map([[oid(1), facts(1)], [oid(2), facts(2)], [oid(3), facts(3)]]));
  const few = FactsCache.key([oid(2)]);
  t.deepEqual(await cache.lookup(few, (o) => o === oid(2)), new Map([[oid(2), facts(2)]]));
  t.deepEqual([...(await cache.lookup(whole, (o) => o === oid(2))).keys()], [oid(1), oid(2), oid(3)], 'the set\'s own pack is read whole');
  // Lines longer than the reader's chunk still come back whole.
  const big = JSON.stringify({ text: 'x'.repeat(3 << 20) });
  await cache.store(few, new Map([[oid(2), big]]));
  t.is((await cache.lookup(few)).get(oid(2)), big);
  await rm(dir, { recursive: true, force: true });
});

test('a draft pack is written as facts arrive, published with the rest, or discarded without a trace', async (t) => {
  const dir = await cacheDir();
  const cache = new FactsCache(dir);
  const packs = path.join(dir, FACTS_SCHEMA, 'packs');
  const key = FactsCache.key([oid(1), oid(2), oid(3)]);
  const draft = await cache.draft(key);
  draft.append(oid(2), facts(2));
  draft.append(oid(3), facts(3));
  t.deepEqual(await cache.lookup(key), new Map(), 'nothing is visible before publishing');
  await draft.publish([[oid(1), facts(1)]]);
  t.deepEqual(await cache.lookup(key), new Map([[oid(2), facts(2)], [oid(3), facts(3)], [oid(1), facts(1)]]));
  t.false(await cache.isEmpty());
  const other = await cache.draft(FactsCache.key([oid(4)]));
  other.append(oid(4), facts(4));
  await other.discard();
  t.deepEqual((await readdir(packs)).sort(), [`${key}.jsonl`]);
  await rm(dir, { recursive: true, force: true });
});

test('a facts cache that cannot be written (its folder removed or taken meanwhile) does not fail the command', async (t) => {
  const repo = await makeRepo({ 'a.py': 'def area(w, h):\n    return w * h\n\n\nprint(area(2, 3))\n' });
  const session = await cacheDir();
  // Where the session keeps its facts there is a file: every write of the cache fails (ENOTDIR), as when a
  // `tug clean --cache` removes the folder while another tug saves to it.
  await writeFile(path.join(session, 'facts'), 'not a folder');
  const run = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'a.py:1:5', '--to', 'size', '--session-dir', session], { env: { TUG_NO_DAEMON: '1' } });
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.references.length, 2);
  await rm(session, { recursive: true, force: true });
  await repo.cleanup();
});
