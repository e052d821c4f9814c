// A snapshot of an unchanged working tree answers the last tree without a write-tree (the same index bytes after `add -A` make the same tree), and any change, or the tree gone from the object store, writes it again.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import test from 'ava';
import { execa } from 'execa';
import { discoverRepo } from '../lib/git/repo.js';
import { writeSnapshotTree } from '../lib/git/snapshot.js';
import { gitCalls } from './helpers/git-calls.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';

/** The snapshot tree as git alone makes it: the real index copied, `add -A`, `write-tree`. */
async function plainTree(repo: TestRepo): Promise<string> {
  const index = path.join(repo.root, '.git', 'plain-index');
  await execa('cp', ['-p', path.join(repo.root, '.git', 'index'), index]);
  const env = { GIT_INDEX_FILE: index };
  await execa('git', ['add', '-A', '--', '.'], { cwd: repo.root, env });
  const tree = (await execa('git', ['write-tree'], { cwd: repo.root, env })).stdout.trim();
  await rm(index, { force: true });
  return tree;
}

test.serial('an unchanged working tree gets the last tree with one git process; a change, even of the same size, a new one', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n', 'src/one.ts': 'one\n' });
  try {
    await repo.write('a.txt', 'a changed\n');
    await repo.write('untracked.ts', 'new\n');
    const r = await discoverRepo(repo.root);
    const scratch = path.join(repo.root, '.git', 'tug-test-scratch');
    const first = await writeSnapshotTree(r, scratch);
    t.is(first, await plainTree(repo));
    const again = await gitCalls(() => writeSnapshotTree(r, scratch));
    t.is(again.value, first);
    t.is(again.calls.length, 1);
    t.true(again.calls[0]!.includes(' add -A '));
    // The same size as the file the last snapshot saw: add -A starts from the user's index again, so it is hashed again.
    await repo.write('a.txt', 'a chbnged\n');
    const changed = await gitCalls(() => writeSnapshotTree(r, scratch));
    t.not(changed.value, first);
    t.is(changed.value, await plainTree(repo));
    t.true(changed.calls.some((c) => c.endsWith(' write-tree')));
    await repo.write('untracked.ts', 'new\n');
    await repo.write('a.txt', 'a changed\n');
    t.is(await writeSnapshotTree(r, scratch), first);
  } finally {
    await repo.cleanup();
  }
});

test.serial('a remembered tree no longer a loose object (packed or pruned by git gc) is written again', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  try {
    await repo.write('b.txt', 'b\n');
    const r = await discoverRepo(repo.root);
    const scratch = path.join(repo.root, '.git', 'tug-test-scratch');
    const tree = await writeSnapshotTree(r, scratch);
    await rm(path.join(repo.root, '.git', 'objects', tree.slice(0, 2), tree.slice(2)));
    const again = await gitCalls(() => writeSnapshotTree(r, scratch));
    t.is(again.value, tree);
    t.true(again.calls.some((c) => c.endsWith(' write-tree')));
    t.is((await execa('git', ['cat-file', '-t', tree], { cwd: repo.root })).stdout.trim(), 'tree');
  } finally {
    await repo.cleanup();
  }
});
