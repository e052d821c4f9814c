// What long-lived processes keep in memory: bounded recent maps, and blob contents read once per id.
import test from 'ava';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { forgetRecent, keepInMemory, Recent } from '../lib/core/memory.js';
import { readBlobs } from '../lib/git/objects.js';
import { discoverRepo } from '../lib/git/repo.js';
import { makeRepo } from './helpers/repo.js';

test('Recent drops the least recently used entries beyond its weight, and forgetRecent empties it', (t) => {
  const recent = new Recent<string>(10, (v) => v.length);
  recent.set('a', 'xxxx');
  recent.set('b', 'xxxx');
  t.is(recent.get('a'), 'xxxx', 'reading a makes b the oldest');
  recent.set('c', 'xxxx');
  t.deepEqual([recent.get('a'), recent.get('b'), recent.get('c')], ['xxxx', undefined, 'xxxx']);
  recent.set('big', 'x'.repeat(11));
  t.is(recent.size, 0, 'an entry heavier than the bound is not kept either');
  recent.set('d', 'x');
  const stale = 'y';
  recent.drop('d', stale);
  t.is(recent.get('d'), 'x', 'drop leaves an entry that is not the value it was given');
  forgetRecent();
  t.is(recent.size, 0);
});

test('a long-lived process reads each blob from git once', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
  const gitRepo = await discoverRepo(repo.root);
  const oid = (await repo.git('rev-parse', 'HEAD:a.txt')).trim();
  const other = (await repo.git('rev-parse', 'HEAD:b.txt')).trim();
  keepInMemory();
  const first = await readBlobs(gitRepo, [oid]);
  t.is(Buffer.from(first.get(oid)!).toString(), 'alpha\n');
  // With the object gone from the repository, only memory can still answer.
  await rm(path.join(repo.root, '.git', 'objects', oid.slice(0, 2), oid.slice(2)));
  const again = await readBlobs(gitRepo, [oid, other]);
  t.is(Buffer.from(again.get(oid)!).toString(), 'alpha\n');
  t.is(Buffer.from(again.get(other)!).toString(), 'beta\n', 'the rest still comes from git');
  forgetRecent();
  t.false((await readBlobs(gitRepo, [oid])).has(oid), 'clean --cache forgets blobs too');
  await repo.cleanup();
});
