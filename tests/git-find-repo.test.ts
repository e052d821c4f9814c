// The repository found by walking up from a directory in Node is git's own answer wherever the walk answers, and the
// walk leaves to git every layout where git's rules go beyond it (bare, inside a git dir, core.worktree, ownership…).
import { chown, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { walkToRepo } from '../lib/git/find-repo.js';
import { discoverRepo, discoverWithGit } from '../lib/git/repo.js';
import { execa } from './helpers/execa.js';
import { gitCalls } from './helpers/git-calls.js';
import { makeRepo } from './helpers/repo.js';

async function scratch(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tug-find-repo-')));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

const git = async (cwd: string, ...args: string[]) => (await execa('git', args, { cwd })).stdout;

/** Where the walk answers, its answer is git's; where it does not, git answers (or refuses) alone. */
async function agrees(t: import('ava').ExecutionContext, dir: string, walks: boolean): Promise<void> {
  const walked = await walkToRepo(dir);
  const byGit = await discoverWithGit(dir).catch((error: Error) => error);
  if (walks) t.deepEqual(walked, byGit, dir);
  else t.is(walked, undefined, dir);
}

test.serial('a plain repository, from its top, a nested directory and through a symlink: git answers nothing the walk does not', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n', 'sub/dir with space/é.txt': 'x\n' });
  const out = await scratch();
  try {
    await symlink(path.join(repo.root, 'sub'), path.join(out.dir, 'link'));
    for (const dir of [repo.root, path.join(repo.root, 'sub'), path.join(repo.root, 'sub', 'dir with space'), path.join(out.dir, 'link', 'dir with space')]) {
      await agrees(t, dir, true);
    }
    t.is((await walkToRepo(path.join(out.dir, 'link')))?.prefix, 'sub');
    // Once the walk has answered, discoverRepo starts no git at all.
    const { value, calls } = await gitCalls(() => discoverRepo(path.join(repo.root, 'sub')));
    t.is(value.prefix, 'sub');
    t.deepEqual(calls, []);
  } finally {
    await repo.cleanup();
    await out.cleanup();
  }
});

test.serial('a linked worktree and a separate git dir (a gitdir: file) give git answers', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n', 'sub/b.txt': 'b\n' });
  const out = await scratch();
  try {
    await git(repo.root, 'worktree', 'add', '-q', path.join(out.dir, 'wt'));
    await agrees(t, path.join(out.dir, 'wt'), true);
    await agrees(t, path.join(out.dir, 'wt', 'sub'), true);
    const linked = await walkToRepo(path.join(out.dir, 'wt', 'sub'));
    t.is(linked?.commonDir, path.join(repo.root, '.git'));
    t.not(linked?.gitDir, linked?.commonDir);
    await mkdir(path.join(out.dir, 'separate'));
    await git(path.join(out.dir, 'separate'), 'init', '-q', '--separate-git-dir', path.join(out.dir, 'store.git'));
    await mkdir(path.join(out.dir, 'separate', 'x'));
    await agrees(t, path.join(out.dir, 'separate', 'x'), true);
    // A relative gitdir: line is read from the file's directory.
    await writeFile(path.join(out.dir, 'separate', '.git'), 'gitdir: ../store.git\n');
    await agrees(t, path.join(out.dir, 'separate', 'x'), true);
  } finally {
    await repo.cleanup();
    await out.cleanup();
  }
});

test.serial('layouts where git decides: bare, inside .git, core.worktree, core.bare, includes, a skipped .git, a ceiling, another owner', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n', 'sub/b.txt': 'b\n' });
  const out = await scratch();
  try {
    await git(out.dir, 'init', '-q', '--bare', 'bare.git');
    await agrees(t, path.join(out.dir, 'bare.git'), false);
    await agrees(t, path.join(repo.root, '.git', 'refs'), false);
    // An empty `.git` directory is no repository: git goes on to the one above; the walk leaves that to git.
    await mkdir(path.join(repo.root, 'sub', '.git'));
    await agrees(t, path.join(repo.root, 'sub'), false);
    t.is((await discoverRepo(path.join(repo.root, 'sub'))).root, repo.root);
    await rm(path.join(repo.root, 'sub', '.git'), { recursive: true });
    for (const [key, value] of [['core.worktree', out.dir], ['core.bare', 'true'], ['include.path', 'elsewhere']] as const) {
      await git(repo.root, 'config', key, value);
      await agrees(t, path.join(repo.root, 'sub'), false);
      await execa('git', ['config', '--unset', key], { cwd: repo.root, env: { GIT_DIR: path.join(repo.root, '.git') } });
      await agrees(t, path.join(repo.root, 'sub'), true);
    }
    process.env['GIT_CEILING_DIRECTORIES'] = path.dirname(repo.root);
    try {
      await agrees(t, repo.root, false);
    } finally {
      delete process.env['GIT_CEILING_DIRECTORIES'];
    }
    if (process.geteuid?.() === 0) {
      await chown(path.join(repo.root, '.git'), 65534, 65534);
      await agrees(t, repo.root, false);
      await chown(path.join(repo.root, '.git'), 0, 0);
    }
    await agrees(t, repo.root, true);
  } finally {
    await repo.cleanup();
    await out.cleanup();
  }
});

test.serial('a submodule is git’s to answer or the walk answers as git does', async (t) => {
  const inner = await makeRepo({ 'lib.txt': 'lib\n' });
  const outer = await makeRepo({ 'a.txt': 'a\n' });
  try {
    await execa('git', ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', inner.root, 'mod'], { cwd: outer.root });
    const walked = await walkToRepo(path.join(outer.root, 'mod'));
    if (walked) t.deepEqual(walked, await discoverWithGit(path.join(outer.root, 'mod')));
    t.is((await discoverRepo(path.join(outer.root, 'mod'))).root, path.join(outer.root, 'mod'));
  } finally {
    await inner.cleanup();
    await outer.cleanup();
  }
});
