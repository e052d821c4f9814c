// A long-lived tug starts git through its helper process: the same answers as git started directly (output, errors, input, environment, directory), calls side by side, a helper that dies, and the helper ended with its tug.
import test from 'ava';
import { keepInMemory } from '../lib/core/memory.js';
import { endGitHelper } from '../lib/git/git-helper.js';
import { git, gitBytes } from '../lib/git/run-git.js';
import { makeRepo } from './helpers/repo.js';

/** The pid of git's parent, asked of git itself: an alias runs a shell whose parent is git. */
const PARENT = ['-c', 'alias.parent=!cut -d" " -f4 /proc/$PPID/stat', 'parent'];

async function parentOfGit(cwd: string): Promise<number> {
  return Number((await git(PARENT, { cwd })).stdout.trim());
}

/** Calls until git comes from the helper (the first call starts it and runs git itself meanwhile). */
async function helperPid(cwd: string): Promise<number> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
    const parent = await parentOfGit(cwd);
    if (parent !== process.pid) return parent;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('git never came from the helper');
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// The flag is process-wide: this file's worker plays the daemon (ava runs each file in a process of its own).
keepInMemory();

test.serial('through the helper, git answers as when started directly', async (t) => {
  if (process.platform !== 'linux') return t.pass('the helper is for Linux, where Node forks');
  const repo = await makeRepo({ 'a.txt': 'alpha\n', 'dir/b.txt': 'beta\n' });
  try {
    const helper = await helperPid(repo.root);
    t.true(alive(helper));
    const both = async (run: () => Promise<unknown>) => {
      process.env['TUG_GIT_HELPER'] = '0';
      const direct = await run();
      delete process.env['TUG_GIT_HELPER'];
      const helped = await run();
      return { direct, helped };
    };
    const cases: Array<[string, () => Promise<unknown>]> = [
      ['output', () => git(['ls-files', '-z'], { cwd: repo.root }).then(({ pid: _pid, ...rest }) => rest)],
      ['a failure, allowed', () => git(['rev-parse', '--verify', 'no-such-ref'], { cwd: repo.root, allowFailure: true }).then(({ pid: _pid, ...rest }) => rest)],
      ['a failure, thrown', () => git(['cat-file', '-p', 'no-such-object'], { cwd: repo.root }).catch((error: Error) => error.message)],
      ['input', () => git(['hash-object', '--stdin'], { cwd: repo.root, input: 'héllo\n' }).then(({ pid: _pid, ...rest }) => rest)],
      ['binary input', () => git(['hash-object', '--stdin'], { cwd: repo.root, input: new Uint8Array([0, 255, 10, 1]) }).then(({ pid: _pid, ...rest }) => rest)],
      ['environment', () => git(['var', 'GIT_AUTHOR_IDENT'], { cwd: repo.root, env: { GIT_AUTHOR_NAME: 'Ann', GIT_AUTHOR_EMAIL: 'ann@example.com', GIT_AUTHOR_DATE: '@0 +0000' } }).then(({ pid: _pid, ...rest }) => rest)],
      ['directory', () => git(['rev-parse', '--show-prefix'], { cwd: `${repo.root}/dir` }).then(({ pid: _pid, ...rest }) => rest)],
      ['large output', () => git(['cat-file', '--batch'], { cwd: repo.root, input: 'HEAD:a.txt\n'.repeat(5_000) }).then((r) => r.stdout.length)],
      ['bytes', () => gitBytes(['cat-file', 'blob', 'HEAD:a.txt'], { cwd: repo.root }).then((bytes) => Buffer.from(bytes).toString())],
    ];
    for (const [name, run] of cases) {
      const { direct, helped } = await both(run);
      t.deepEqual(helped, direct, name);
    }
    const lengths = await Promise.all(Array.from({ length: 12 }, (_, i) => git(['cat-file', '--batch'], { cwd: repo.root, input: 'HEAD:a.txt\n'.repeat(i * 200 + 1) })));
    t.deepEqual(
      lengths.map((r) => r.stdout.length),
      Array.from({ length: 12 }, (_, i) => batchBytes(i * 200 + 1)),
      'calls side by side each get their own answer',
    );
    t.is(await parentOfGit(repo.root), helper, 'one helper serves every call');
  } finally {
    await repo.cleanup();
  }
});

/** Characters `cat-file --batch` prints for `n` requests of a.txt ("<oid> blob 6\nalpha\n\n"). */
function batchBytes(n: number): number {
  return n * (40 + ' blob 6\n'.length + 'alpha\n'.length + 1);
}

test.serial('a helper that dies fails the calls in flight, and the next calls start a new one', async (t) => {
  if (process.platform !== 'linux') return t.pass('the helper is for Linux, where Node forks');
  const repo = await makeRepo({ 'a.txt': 'alpha\n' });
  try {
    const first = await helperPid(repo.root);
    const inFlight = git(['-c', 'alias.wait=!sleep 2', 'wait'], { cwd: repo.root, allowFailure: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(first, 'SIGKILL');
    const failed = await inFlight;
    t.is(failed.exitCode, -1);
    t.regex(failed.stderr, /helper process ended/);
    t.is((await git(['rev-parse', 'HEAD'], { cwd: repo.root })).exitCode, 0, 'git still answers (started directly meanwhile)');
    const second = await helperPid(repo.root);
    t.not(second, first);
    await endGitHelper();
    t.false(alive(second), 'ended with its tug');
  } finally {
    await repo.cleanup();
  }
});
