// readTreeBlobs reads a tree entry from its working-tree file only when that file still is the blob (same git hash),
// and from git otherwise: a changed, missing, filtered or non-regular file (a FIFO must not block) never stands in.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { mkdir, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { readBlobs, readTreeBlobs } from '../lib/git/objects.js';
import { discoverRepo } from '../lib/git/repo.js';
import { makeRepo } from './helpers/repo.js';

const FILES = {
  'same.py': 'x = 1\n',
  'changed.py': 'y = 2\n',
  'gone.py': 'z = 3\n',
  'fifo.py': 'f = 4\n',
  'dir.py': 'd = 5\n',
  'crlf.py': 'c = 6\n',
  'pkg/deep.py': 'deep = 7\n',
};

test('each blob is the committed content, read from disk only where the file hashes to it', async (t) => {
  const repo = await makeRepo(FILES);
  try {
    const tree = await repo.git('rev-parse', 'HEAD^{tree}');
    const entries = (await repo.git('ls-tree', '-r', tree))
      .split('\n')
      .map((line) => ({ oid: line.split(/\s+/)[2]!, path: line.split('\t')[1]! }));
    const oid = (file: string) => entries.find((e) => e.path === file)!.oid;
    await repo.write('changed.py', 'y = 22\n');
    await unlink(path.join(repo.root, 'gone.py'));
    await unlink(path.join(repo.root, 'fifo.py'));
    await execa('mkfifo', [path.join(repo.root, 'fifo.py')]);
    await unlink(path.join(repo.root, 'dir.py'));
    await mkdir(path.join(repo.root, 'dir.py'));
    await repo.write('crlf.py', 'c = 6\r\n');
    const handle = await discoverRepo(repo.root);
    const expected = await readBlobs(handle, entries.map((e) => e.oid));
    const got = await readTreeBlobs(handle, entries);
    t.is(got.size, entries.length);
    for (const e of entries) t.deepEqual(Buffer.from(got.get(e.oid)!), Buffer.from(expected.get(e.oid)!), e.path);

    // The unchanged files come from disk: with their objects gone from git (and out of the last two batches readBlobs
    // keeps in memory), they are still read.
    for (const text of ['other 1', 'other 2']) {
      await repo.write('other.txt', text);
      await readBlobs(handle, [await repo.git('hash-object', '-w', 'other.txt')]);
    }
    const loose = (id: string) => path.join(repo.root, '.git', 'objects', id.slice(0, 2), id.slice(2));
    await rm(loose(oid('same.py')));
    await rm(loose(oid('pkg/deep.py')));
    const fromDisk = await readTreeBlobs(handle, entries.filter((e) => e.path === 'same.py' || e.path === 'pkg/deep.py'));
    t.is(Buffer.from(fromDisk.get(oid('same.py'))!).toString(), 'x = 1\n');
    t.is(Buffer.from(fromDisk.get(oid('pkg/deep.py'))!).toString(), 'deep = 7\n');
  } finally {
    await repo.cleanup();
  }
});
