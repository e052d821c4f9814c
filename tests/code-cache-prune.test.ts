// Code caches do not pile up: writing one keeps the newest others and drops old ones and a killed writer's leftovers.
import test from 'ava';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { codeCacheDir, touchCodeCache, writeCodeCacheFile } from '../lib/workspace/user-cache.js';

const DAY = 24 * 3600;

test('writing a cache keeps the 23 most recently used others, drops those unused for 30 days and stale temporary files', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-cache-prune-'));
  const now = Date.now() / 1000;
  const age = async (name: string, days: number) => {
    await writeFile(path.join(dir, name), 'x');
    await utimes(path.join(dir, name), now - days * DAY, now - days * DAY);
  };
  for (let i = 0; i < 30; i++) await age(`cli-${String(i).padStart(2, '0')}.v8cache`, i / 10);
  await age('typescript-old.v8cache', 31);
  await age('cli-aa.v8cache.1234.tmp', 2);
  await age('cli-bb.v8cache.5678.tmp', 0);
  await age('notes.txt', 90);
  await age('typescript-in-use.v8cache', 40);
  touchCodeCache(path.join(dir, 'typescript-in-use.v8cache'));
  const file = path.join(dir, 'cli-new.v8cache');
  writeCodeCacheFile(file, 'key cmd', Buffer.from('V8 bytes'));

  t.is(await readFile(file, 'latin1'), 'key cmd\nV8 bytes');
  const left = (await readdir(dir)).sort();
  const caches = left.filter((name) => name.endsWith('.v8cache'));
  t.is(caches.length, 24, 'the new cache and the 23 most recently used others');
  t.deepEqual(caches.filter((n) => n !== 'cli-new.v8cache' && n !== 'typescript-in-use.v8cache'), Array.from({ length: 22 }, (_, i) => `cli-${String(i).padStart(2, '0')}.v8cache`));
  t.true(left.includes('typescript-in-use.v8cache'), 'a cache written long ago but used now is kept');
  t.false(left.includes('typescript-old.v8cache'));
  t.false(left.includes('cli-aa.v8cache.1234.tmp'), 'a killed writer\'s day-old temporary file');
  t.true(left.includes('cli-bb.v8cache.5678.tmp'), 'a temporary file another writer may still be writing');
  t.true(left.includes('notes.txt'), 'files that are no cache are left alone');
  await rm(dir, { recursive: true, force: true });
});

test('a cache that cannot be written (the cache home is a file) leaves nothing behind and throws nothing; TUG_CODE_CACHE=0 or no absolute cache home means none', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-cache-prune-'));
  const blocker = path.join(dir, 'not-a-dir');
  await writeFile(blocker, '');
  writeCodeCacheFile(path.join(blocker, 'cli-x.v8cache'), 'key', Buffer.from('bytes'));
  t.deepEqual(await readdir(dir), ['not-a-dir']);
  t.false(existsSync(path.join(blocker, 'cli-x.v8cache')));
  t.is(codeCacheDir({ TUG_CODE_CACHE: '0', XDG_CACHE_HOME: dir }), null);
  t.is(codeCacheDir({ XDG_CACHE_HOME: dir }), path.join(dir, 'tug'));
  t.is(codeCacheDir({ XDG_CACHE_HOME: 'relative' }), null);
  await rm(dir, { recursive: true, force: true });
});
