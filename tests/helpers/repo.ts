// Temporary git repositories for tests: real git, fixed identities and dates so commit ids are reproducible.
import { execa } from './execa.js';
import { rmSync } from 'node:fs';
import { appendFile, mkdtemp, mkdir, readFile, writeFile, realpath, rm, stat, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sandboxRoot } from '../../lib/git/worktree.js';

export const FIXED_ENV = {
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_COMMITTER_NAME: 'Test Author',
  GIT_COMMITTER_EMAIL: 'author@example.com',
  GIT_AUTHOR_DATE: '@1700000000 +0000',
  GIT_COMMITTER_DATE: '@1700000000 +0000',
};

/**
 * A pytest.ini for the packages tests write with a tests/ folder (pytest runs on them with or without it): it blocks the
 * two plugins a Python install often auto-loads (hypothesis, pytest-benchmark), which these packages never use and which
 * cost about 0.8 CPU s of every sandboxed run's start; blocking an absent one does nothing.
 */
export const NO_PYTEST_PLUGINS = '-p no:hypothesispytest -p no:benchmark';
export const PYTEST_INI = { 'pytest.ini': `[pytest]\naddopts = ${NO_PYTEST_PLUGINS}\n` };

/** The identity and line-ending settings every test repository has (`git config` would write the same). */
const REPO_CONFIG = '[user]\n\tname = Test Author\n\temail = author@example.com\n[core]\n\tautocrlf = false\n';

export interface TestRepo {
  root: string;
  git(...args: string[]): Promise<string>;
  write(file: string, content: string | Uint8Array): Promise<void>;
  read(file: string): Promise<Buffer>;
  readText(file: string): Promise<string>;
  cleanup(): Promise<void>;
}

/** A repository with the given files committed once (unless commit is false). */
export async function makeRepo(files: Record<string, string | Uint8Array>, options: { commit?: boolean } = {}): Promise<TestRepo> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tug-test-')));
  // The shared sandbox of this repo's default session lives in the user's private dir (see lib/git/worktree.ts).
  const sandbox = sandboxRoot(path.join(root, '.git', 'tug'));
  removeAtExit(root, sandbox);
  const git = async (...args: string[]) => (await execa('git', args, { cwd: root, env: FIXED_ENV })).stdout;
  const write = async (file: string, content: string | Uint8Array) => {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  };
  // Two processes, not six: each one forked from a test worker costs it a few ms of CPU, and ~1,500 repositories are
  // made in a run. The settings are what `git config` would write, appended as git's own config syntax.
  await git('init', '-q', '-b', 'main', '.');
  await appendFile(path.join(root, '.git', 'config'), REPO_CONFIG);
  for (const [file, content] of Object.entries(files)) await write(file, content);
  if (options.commit !== false && Object.keys(files).length > 0) {
    await execa('sh', ['-c', 'git add -A && git commit -q -m initial'], { cwd: root, env: FIXED_ENV });
  }
  return {
    root,
    git,
    write,
    read: (file) => readFile(path.join(root, file)),
    readText: (file) => readFile(path.join(root, file), 'utf8'),
    cleanup: async () => {
      await rm(sandbox, { recursive: true, force: true });
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Everything a read-only or non-applying tug call must leave byte-identical. */
export async function repoState(repo: TestRepo): Promise<string> {
  const index = await readFile(path.join(repo.root, '.git', 'index')).catch(() => Buffer.alloc(0));
  const head = await readFile(path.join(repo.root, '.git', 'HEAD'), 'utf8');
  const refs = await repo.git('for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads', 'refs/tags');
  // Without --no-optional-locks, status may refresh and rewrite the very index this compares (a racily clean entry).
  const status = await repo.git('--no-optional-locks', 'status', '--porcelain=v1', '--untracked-files=all');
  const files = await repo.git('ls-files', '-s', '--cached', '--others', '--exclude-standard');
  return JSON.stringify({ index: index.toString('base64'), head, refs, status, files });
}

/**
 * Edits `b.py` from `x = 1` to `x = 2` (same size) in the second its index entry was written, so that only its content
 * tells git it changed (a racily clean entry); `writeTree` also makes the index's cache tree valid before the edit.
 * Whether it managed (on a loaded machine the steps can straddle a second boundary; each try is cheap).
 */
export async function racilyCleanEdit(repo: TestRepo, options: { writeTree?: boolean } = {}): Promise<boolean> {
  const file = path.join(repo.root, 'b.py');
  const index = path.join(repo.root, '.git', 'index');
  // One whole second in the past for the file, its cached stat and the index: git can only tell by content.
  const past = new Date((Math.floor(Date.now() / 1000) - 100) * 1000);
  for (let attempt = 0; attempt < 60; attempt++) {
    await repo.write('b.py', 'x = 1\n');
    await utimes(file, past, past);
    await repo.git('add', 'b.py');
    if (options.writeTree) await repo.git('write-tree');
    const cached = Math.floor((await stat(file)).ctimeMs / 1000);
    await utimes(index, past, past);
    await repo.write('b.py', 'x = 2\n');
    await utimes(file, past, past);
    if (Math.floor((await stat(file)).ctimeMs / 1000) === cached) return true;
  }
  return false;
}

const leftAtExit: string[] = [];

/** Removes `dir` when this test file's process exits, whatever its tests did (a test that failed never cleaned up). */
function removeAtExit(...dirs: string[]): void {
  if (leftAtExit.length === 0) {
    process.once('exit', () => {
      for (const each of leftAtExit) rmSync(each, { recursive: true, force: true });
    });
  }
  leftAtExit.push(...dirs);
}

/** A new directory in the system's temporary one, removed when this test file's process exits, whatever its tests did. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  removeAtExit(dir);
  return dir;
}
