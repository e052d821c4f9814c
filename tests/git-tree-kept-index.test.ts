// A result tree built from the snapshot's own index instead of a `read-tree` of its commit: the same tree as the plain road, one git process less (and its two started as one process), and the remembered index used only for the tree (and repository) it was written from.
import path from 'node:path';
import test from 'ava';
import { execa } from './helpers/execa.js';
import { discoverRepo } from '../lib/git/repo.js';
import { treeWithEntries, type PathEntry } from '../lib/git/revert-tree.js';
import { snapshotIndex, writeSnapshotTree } from '../lib/git/snapshot.js';
import { gitThenText } from '../lib/git/run-git.js';
import { gitCalls } from './helpers/git-calls.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';

/** A dirty working tree: a change, an untracked file, an intent-to-add file, a nested directory. */
async function dirtyRepo(): Promise<TestRepo> {
  const repo = await makeRepo({ 'a.txt': 'a\n', 'src/one.ts': 'one\n', 'src/deep/two.ts': 'two\n', 'lone/only.ts': 'only\n' });
  await repo.write('a.txt', 'a changed\n');
  await repo.write('untracked.ts', 'new\n');
  await repo.write('ita.ts', 'intent\n');
  await repo.git('add', '-N', 'ita.ts');
  return repo;
}

async function blob(repo: TestRepo, text: string): Promise<string> {
  return (await execa('git', ['hash-object', '-w', '--stdin'], { cwd: repo.root, input: text })).stdout.trim();
}

test.serial('a tree built from the snapshot index equals the one built by read-tree, with one git process less', async (t) => {
  const repo = await dirtyRepo();
  try {
    const r = await discoverRepo(repo.root);
    const scratch = path.join(repo.root, '.git', 'tug-test-scratch');
    const tree = await writeSnapshotTree(r, scratch);
    t.truthy(snapshotIndex(r, tree));
    const commit = await repo.git('commit-tree', tree, '-p', 'HEAD', '-m', 'snapshot');
    const entries: PathEntry[] = [
      { path: 'src/one.ts', oid: await blob(repo, 'one renamed\n'), mode: '100644' },
      { path: 'lone/only.ts', oid: null, mode: null },
      { path: 'fresh/dir/made.ts', oid: await blob(repo, 'made\n'), mode: '100755' },
      { path: 'untracked.ts', oid: null, mode: null },
    ];
    const seeded = await gitCalls(() => treeWithEntries(r, scratch, commit, entries, tree));
    const plain = await gitCalls(() => treeWithEntries(r, scratch, commit, entries));
    t.is(seeded.value, plain.value);
    t.is(seeded.calls.length, 2);
    t.true(seeded.calls[0]!.includes(' update-index '));
    t.true(seeded.calls[1]!.endsWith(' write-tree'));
    t.is(plain.calls.length, 3);
    t.true(plain.calls[0]!.includes('read-tree'));
    const listing = await repo.git('ls-tree', '-r', '--name-only', seeded.value);
    t.deepEqual(listing.split('\n').sort(), ['a.txt', 'fresh/dir/made.ts', 'ita.ts', 'src/deep/two.ts', 'src/one.ts']);
  } finally {
    await repo.cleanup();
  }
});

test.serial('the remembered index answers only for its own tree and repository, and a broken one falls back to read-tree', async (t) => {
  const repo = await dirtyRepo();
  const twin = await dirtyRepo();
  try {
    const r = await discoverRepo(repo.root);
    const w = await discoverRepo(twin.root);
    const scratch = path.join(repo.root, '.git', 'tug-test-scratch');
    const tree = await writeSnapshotTree(r, scratch);
    // The same files elsewhere make the same tree id, but the index is this repository's.
    t.is(snapshotIndex(w, tree), undefined);
    t.truthy(snapshotIndex(r, tree));
    // A changed working tree makes a new snapshot; the old tree's index is gone.
    await repo.write('a.txt', 'changed again\n');
    const next = await writeSnapshotTree(r, scratch);
    t.not(next, tree);
    t.is(snapshotIndex(r, tree), undefined);
    t.truthy(snapshotIndex(r, next));
    // A seed git cannot read: the plain road answers, with the right tree.
    const commit = await repo.git('commit-tree', next, '-p', 'HEAD', '-m', 'snapshot');
    const entries: PathEntry[] = [{ path: 'src/one.ts', oid: await blob(repo, 'x\n'), mode: '100644' }];
    const expected = await treeWithEntries(r, scratch, commit, entries);
    snapshotIndex(r, next)!.fill(7);
    const { value, calls } = await gitCalls(() => treeWithEntries(r, scratch, commit, entries, next));
    t.is(value, expected);
    t.true(calls.some((c) => c.includes('read-tree')));
  } finally {
    await repo.cleanup();
    await twin.cleanup();
  }
});

test.serial("two git commands as one process started from tug: stdin to the first, the second's output, either one's failure thrown", async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  try {
    const oid = await blob(repo, "it's quoted\n");
    const index = path.join(repo.root, '.git', 'tug-test-index');
    const env = { GIT_INDEX_FILE: index };
    // A path with a quote and a space goes through the shell untouched.
    const tree = await gitThenText(['update-index', '-z', '--index-info'], ['write-tree'], { cwd: repo.root, env, input: `100644 ${oid}\tit's a file\0` });
    t.is(await repo.git('ls-tree', '--name-only', tree), "it's a file");
    const spawned: string[] = [];
    const { calls } = await gitCalls(async () => {
      const error = await t.throwsAsync(gitThenText(['update-index', '--no-such-option'], ['write-tree'], { cwd: repo.root, env }));
      spawned.push(error?.message ?? '');
      await t.throwsAsync(gitThenText(['write-tree'], ['rev-parse', '--verify', 'no-such-ref'], { cwd: repo.root, env }));
    });
    t.regex(spawned[0]!, /update-index or write-tree failed/);
    // The first pair stops at its failed update-index; the second pair's write-tree runs, then its rev-parse fails.
    t.is(calls.length, 3, calls.join('\n'));
    t.true(calls[0]!.endsWith(' update-index --no-such-option'));
    t.true(calls[1]!.endsWith(' write-tree'));
    t.true(calls[2]!.endsWith(' rev-parse --verify no-such-ref'));
  } finally {
    await repo.cleanup();
  }
});
