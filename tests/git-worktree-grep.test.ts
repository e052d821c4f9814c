// The snapshot's files that mention a name, searched in the working tree, are exactly what a grep of the snapshot tree
// lists; any file changed since the snapshot, an attributes file, or a racily clean entry sends the search to the tree.
import { rm, symlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import test from 'ava';
import { discoverRepo } from '../lib/git/repo.js';
import { writeSnapshotTree } from '../lib/git/snapshot.js';
import { grepSnapshotWorktree } from '../lib/git/worktree-grep.js';
import { treeFilesMentioning } from '../lib/python/candidates.js';
import { gitCalls } from './helpers/git-calls.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';

const FILES = {
  'a.py': 'import tempfile\ntempfile.mkstemp()\n',
  'pkg/b.py': 'from tempfile import mkstemp\n',
  'pkg/c.py': 'x = 1\n',
  'gone.py': 'mkstemp\n',
  'stub.pyi': 'def mkstemp() -> int: ...\n',
  'notes.txt': 'mkstemp\n',
};
const GREP = ['grep', '-l', '-z', '--text', '--fixed-strings', '--no-color', '--no-textconv', '-e', 'mkstemp'];

/** A repository whose files are older than any index written from now on, with a dirty working tree. */
async function settled(): Promise<TestRepo> {
  const repo = await makeRepo(FILES);
  await rm(path.join(repo.root, 'gone.py'));
  await repo.write('untracked.py', 'mkstemp\n');
  await symlink('a.py', path.join(repo.root, 'link.py'));
  const past = new Date(Date.now() - 100_000);
  for (const file of ['a.py', 'pkg/b.py', 'pkg/c.py', 'stub.pyi', 'notes.txt', 'untracked.py']) await utimes(path.join(repo.root, file), past, past);
  return repo;
}

async function snapshot(repo: TestRepo): Promise<{ r: Awaited<ReturnType<typeof discoverRepo>>; tree: string }> {
  const r = await discoverRepo(repo.root);
  return { r, tree: await writeSnapshotTree(r, path.join(repo.root, '.git', 'tug-test-scratch')) };
}

async function treeGrep(repo: TestRepo, tree: string): Promise<string[]> {
  const out = await repo.git(...GREP, tree, '--', '*.py', '*.pyi').catch(() => '');
  return out.split('\0').filter(Boolean).map((p) => p.slice(tree.length + 1)).sort();
}

test.serial('a settled working tree is searched in place and gives the tree grep’s answer (untracked in, deleted and symlinks out)', async (t) => {
  const repo = await settled();
  try {
    const { r, tree } = await snapshot(repo);
    const { value, calls } = await gitCalls(() => grepSnapshotWorktree(r, tree, GREP, ['.py', '.pyi'], {}, 0));
    t.deepEqual([...value!].sort(), await treeGrep(repo, tree));
    t.deepEqual([...value!].sort(), ['a.py', 'pkg/b.py', 'stub.pyi', 'untracked.py']);
    t.is(calls.length, 2);
    t.false(calls[0]!.includes(tree));
    t.true(calls[1]!.includes(' diff-files '));
    t.deepEqual([...(await treeFilesMentioning(r, tree, ['mkstemp']))].sort(), await treeGrep(repo, tree));
    // Below the size where it pays, the tree is searched.
    t.is(await grepSnapshotWorktree(r, tree, GREP, ['.py', '.pyi'], {}), undefined);
    // So it is when the temporary directory cannot take the index.
    const tmp = process.env['TMPDIR'];
    process.env['TMPDIR'] = path.join(repo.root, 'no-such-dir');
    try {
      t.is(await grepSnapshotWorktree(r, tree, GREP, ['.py', '.pyi'], {}, 0), undefined);
    } finally {
      if (tmp === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = tmp;
    }
  } finally {
    await repo.cleanup();
  }
});

test.serial('a file changed after the snapshot, to or from mentioning the name, sends the search to the tree', async (t) => {
  for (const [file, text] of [['pkg/b.py', 'from tempfile import mkstemq\n'], ['pkg/c.py', 'x = mkstemp\n']] as const) {
    const repo = await settled();
    try {
      const { r, tree } = await snapshot(repo);
      await repo.write(file, text);
      t.is(await grepSnapshotWorktree(r, tree, GREP, ['.py', '.pyi'], {}, 0), undefined, file);
      const { value, calls } = await gitCalls(() => treeFilesMentioning(r, tree, ['mkstemp']));
      t.deepEqual([...value].sort(), await treeGrep(repo, tree), file);
      t.deepEqual([...value].sort(), ['a.py', 'pkg/b.py', 'stub.pyi', 'untracked.py'], file);
      t.true(calls.some((c) => c.includes(tree)), file);
    } finally {
      await repo.cleanup();
    }
  }
});

test.serial('an attributes file, or files changed in the second the index recorded them, send the search to the tree without a worktree grep', async (t) => {
  const repo = await settled();
  try {
    await repo.write('.gitattributes', '*.py text\n');
    await utimes(path.join(repo.root, '.gitattributes'), new Date(Date.now() - 100_000), new Date(Date.now() - 100_000));
    const first = await snapshot(repo);
    t.is(await grepSnapshotWorktree(first.r, first.tree, GREP, ['.py', '.pyi'], {}, 0), undefined);
    await rm(path.join(repo.root, '.gitattributes'));
    // Files written now are racily clean in an index written in the same second.
    await repo.write('pkg/c.py', 'y = 2\n');
    const second = await snapshot(repo);
    const { value, calls } = await gitCalls(() => grepSnapshotWorktree(second.r, second.tree, GREP, ['.py', '.pyi'], {}, 0));
    if (value === undefined) t.deepEqual(calls, []);
    else t.deepEqual([...value].sort(), await treeGrep(repo, second.tree));
  } finally {
    await repo.cleanup();
  }
});
