// The root tree read from an index's cache-tree extension is write-tree's answer whenever the reader gives one, for every
// index layout git writes (versions 2, 3 and 4, long names, SHA-256), and none when the cache tree is not valid.
import { copyFile, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import test from 'ava';
import { cachedRootTree } from '../lib/git/index-file.js';
import { discoverRepo } from '../lib/git/repo.js';
import { listTreePaths, writeSnapshotTree } from '../lib/git/snapshot.js';
import { execa } from './helpers/execa.js';
import { gitCalls } from './helpers/git-calls.js';
import { makeRepo, racilyCleanEdit } from './helpers/repo.js';

const deep = `${'d'.repeat(200)}/`.repeat(21) + 'long-name.txt';

async function indexTree(root: string): Promise<string | undefined> {
  return cachedRootTree(await readFile(path.join(root, '.git', 'index')));
}

const git = async (cwd: string, ...args: string[]) => (await execa('git', args, { cwd })).stdout;

test('each index version and layout gives write-tree’s tree, and an invalidated root gives none', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n', 'src/one.ts': 'one\n', 'src/deep/two.ts': 'two\n' });
  try {
    t.is(await indexTree(repo.root), await repo.git('rev-parse', 'HEAD^{tree}'));
    // A name longer than the entry's 12-bit length field (no such file can be made, but an index entry can).
    t.true(deep.length > 0xfff);
    const blobId = (await execa('git', ['hash-object', '-w', '--stdin'], { cwd: repo.root, input: 'long\n' })).stdout;
    await repo.git('update-index', '--add', '--cacheinfo', `100644,${blobId},${deep}`);
    t.is(await indexTree(repo.root), undefined);
    const head = await repo.git('write-tree');
    t.is(await indexTree(repo.root), head);
    const version = async () => (await readFile(path.join(repo.root, '.git', 'index'))).readUInt32BE(4);
    // An intent-to-add entry makes a version 3 index (extended flags); git keeps the root invalid while it is there.
    await repo.write('ita.ts', 'x\n');
    await repo.git('add', '-N', 'ita.ts');
    t.is(await repo.git('write-tree'), head);
    t.is(await version(), 3);
    t.is(await indexTree(repo.root), undefined);
    // A skip-worktree entry keeps version 3, with a valid root.
    await repo.git('rm', '-q', '--cached', 'ita.ts');
    await repo.git('update-index', '--skip-worktree', 'a.txt');
    t.is(await repo.git('write-tree'), head);
    t.is(await version(), 3);
    t.is(await indexTree(repo.root), head);
    await repo.git('update-index', '--index-version', '4');
    t.is(await repo.git('write-tree'), head);
    t.is(await version(), 4);
    t.is(await indexTree(repo.root), head);
    await repo.git('update-index', '--index-version', '2', '--no-skip-worktree', 'a.txt');
    await repo.write('src/one.ts', 'changed\n');
    await repo.git('add', 'src/one.ts');
    t.is(await indexTree(repo.root), undefined);
    const written = await repo.git('write-tree');
    t.not(written, head);
    t.is(await indexTree(repo.root), written);
    // A split index keeps entries in another file: not read.
    await repo.git('update-index', '--split-index');
    await repo.git('write-tree');
    t.is(await indexTree(repo.root), undefined);
    t.is(cachedRootTree(Buffer.from('DIRC')), undefined);
    t.is(cachedRootTree(Buffer.alloc(0)), undefined);
  } finally {
    await repo.cleanup();
  }
});

test('a SHA-256 repository’s index gives its 64-digit tree', async (t) => {
  const repo = await makeRepo({});
  try {
    await rm(path.join(repo.root, '.git'), { recursive: true });
    await git(repo.root, 'init', '-q', '--object-format=sha256');
    await repo.write('a.txt', 'a\n');
    await repo.write('sub/b.txt', 'b\n');
    await git(repo.root, 'add', '-A');
    const tree = await git(repo.root, 'write-tree');
    t.is(tree.length, 64);
    t.is(await indexTree(repo.root), tree);
  } finally {
    await repo.cleanup();
  }
});

test.serial('a clean checkout’s snapshot is its cache tree, without write-tree; a change or a packed tree goes through git', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n', 'src/one.ts': 'one\n' });
  try {
    const r = await discoverRepo(repo.root);
    const scratch = path.join(repo.root, '.git', 'tug-test-scratch');
    const head = await repo.git('rev-parse', 'HEAD^{tree}');
    const clean = await gitCalls(() => writeSnapshotTree(r, scratch));
    t.is(clean.value, head);
    t.deepEqual(clean.calls.map((c) => c.split(' ').find((w) => !w.startsWith('-') && !w.includes('='))), ['add']);
    // An untracked file: add -A invalidates the root.
    await repo.write('new.ts', 'new\n');
    const dirty = await gitCalls(() => writeSnapshotTree(r, scratch));
    t.not(dirty.value, head);
    t.true(dirty.calls.some((c) => c.endsWith(' write-tree')));
    await rm(path.join(repo.root, 'new.ts'));
    // Only a mode changed: the same blobs, another tree.
    await execa('chmod', ['+x', path.join(repo.root, 'a.txt')]);
    const mode = await gitCalls(() => writeSnapshotTree(r, scratch));
    t.not(mode.value, head);
    t.is(await repo.git('ls-tree', mode.value, 'a.txt'), `100755 blob ${await repo.git('rev-parse', 'HEAD:a.txt')}\ta.txt`);
    await execa('chmod', ['-x', path.join(repo.root, 'a.txt')]);
    t.is(await writeSnapshotTree(r, scratch), head);
    // The tree packed (a clone, a gc): no longer loose, so write-tree answers (and checks it).
    await repo.git('gc', '-q');
    const packed = await gitCalls(() => writeSnapshotTree(r, scratch));
    t.is(packed.value, head);
    t.true(packed.calls.some((c) => c.endsWith(' write-tree')));
    // Unless the caller knows it is HEAD's tree; another tree known proves nothing.
    const known = await gitCalls(() => writeSnapshotTree(r, scratch, Promise.resolve(head)));
    t.is(known.value, head);
    t.false(known.calls.some((c) => c.endsWith(' write-tree')));
    const other = await gitCalls(() => writeSnapshotTree(r, scratch, Promise.resolve('4b825dc642cb6eb9a060e54bf8d69288fbee4904')));
    t.is(other.value, head);
    t.true(other.calls.some((c) => c.endsWith(' write-tree')));
    t.is(await writeSnapshotTree(r, scratch, Promise.reject(new Error('no HEAD'))), head);
    // The user's index is never written.
    const index = path.join(repo.root, '.git', 'index');
    await copyFile(index, `${index}.before`);
    await writeSnapshotTree(r, scratch);
    t.deepEqual(await readFile(index), await readFile(`${index}.before`));
  } finally {
    await repo.cleanup();
  }
});

test.serial('the snapshot’s listing comes from its index, without git, and equals ls-tree’s, for every index version', async (t) => {
  for (const version of ['2', '3', '4']) {
    const repo = await makeRepo({ 'a.txt': 'a\n', 'src/one.ts': 'one\n', 'src/deep/two.ts': 'two\n', 'a-b/c.txt': 'c\n', 'a.b': 'x\n', 'é/ü.txt': 'u\n', [`${'n'.repeat(250)}/${'m'.repeat(250)}.txt`]: 'long\n' });
    try {
      await repo.git('update-index', '--index-version', version);
      await repo.write('a.txt', 'changed\n');
      await repo.write('untracked/new.ts', 'new\n');
      await repo.write('ita.ts', 'intent\n');
      await repo.git('add', '-N', 'ita.ts');
      await execa('ln', ['-s', 'a.txt', 'link'], { cwd: repo.root });
      await execa('chmod', ['+x', path.join(repo.root, 'src', 'one.ts')]);
      await rm(path.join(repo.root, 'src', 'deep', 'two.ts'));
      const r = await discoverRepo(repo.root);
      const tree = await writeSnapshotTree(r, path.join(repo.root, '.git', 'tug-test-scratch'));
      const listed = await gitCalls(() => listTreePaths(r, tree));
      t.deepEqual(listed.calls, [], version);
      const byGit = (await repo.git('ls-tree', '-r', '-z', '--full-tree', tree)).split('\0').filter(Boolean).map((record) => {
        const tab = record.indexOf('\t');
        const [mode, type, oid] = record.slice(0, tab).split(' ');
        return { mode: mode!, type: type!, oid: oid!, path: record.slice(tab + 1) };
      });
      t.deepEqual(listed.value, byGit, version);
      t.true(byGit.some((e) => e.mode === '120000') && byGit.some((e) => e.mode === '100755') && byGit.some((e) => e.path === 'ita.ts'));
    } finally {
      await repo.cleanup();
    }
  }
});

test.serial('a same-size edit in the second the index was written is in the snapshot although that index holds a valid cache tree', async (t) => {
  const repo = await makeRepo({ 'b.py': 'x = 1\n', 'c.py': 'c\n' });
  try {
    t.true(await racilyCleanEdit(repo, { writeTree: true }), 'could not make the edit within one second');
    t.is(await indexTree(repo.root), await repo.git('rev-parse', 'HEAD^{tree}'));
    const tree = await writeSnapshotTree(await discoverRepo(repo.root), path.join(repo.root, '.git', 'tug-test-scratch'));
    t.is(await repo.git('rev-parse', `${tree}:b.py`), await repo.git('hash-object', 'b.py'));
  } finally {
    await repo.cleanup();
  }
});
