// Sandboxes are checkouts of the snapshot commit with a git dir of their own; tug edits and verifies there, never in the user's tree or repository.
import { chmod, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sha256 } from '../core/hash.js';
import { privateRoot, privateSubdir } from '../workspace/private-dir.js';
import type { Repo } from './repo.js';
import { createBorrowingCheckout, detachedHead, isBorrowingCheckout } from './checkout.js';
import { git, gitText } from './run-git.js';

export type SandboxMode = 'reuse' | 'fresh';

export interface Sandbox {
  path: string;
  mode: SandboxMode;
}

/**
 * Sandboxes live in the user's private directory, outside the repository (so tools there never see the user's parent
 * dirs) and out of other users' reach.
 */
export function sandboxRoot(sessionDir: string): string {
  return path.join(privateRoot(), 'tug-sandboxes', sha256(sessionDir).slice(0, 12));
}

/** The sandbox root, created inside the checked private directory (UnsafePath when that is not safe). */
async function ensureSandboxRoot(sessionDir: string): Promise<string> {
  return privateSubdir('tug-sandboxes', sha256(sessionDir).slice(0, 12));
}

/**
 * A checkout of `commit` with a git dir of its own (createBorrowingCheckout), so tests run there cannot touch the
 * user's refs, hooks or config. 'reuse' keeps one per session and moves it (only changed files are rewritten, which is
 * much faster on big trees); callers hold the session lock.
 */
export async function openSandbox(repo: Repo, sessionDir: string, commit: string, mode: SandboxMode): Promise<Sandbox> {
  const root = await ensureSandboxRoot(sessionDir);
  if (mode === 'reuse') {
    const shared = path.join(root, 'shared');
    if (await isBorrowingCheckout(repo, shared)) {
      await git(['checkout', '-q', '-f', '--detach', commit], { cwd: shared });
      await git(['clean', '-ffdxq'], { cwd: shared });
      return { path: shared, mode };
    }
    await replaceCheckout(repo, shared, commit);
    return { path: shared, mode };
  }
  const fresh = path.join(root, `run-${randomBytes(5).toString('hex')}`);
  await createBorrowingCheckout(repo, fresh, commit);
  return { path: fresh, mode };
}

/** Makes `dir` a borrowing checkout of `commit`, first removing what was there (a linked worktree of older tugs too). */
async function replaceCheckout(repo: Repo, dir: string, commit: string): Promise<void> {
  const marker = await stat(path.join(dir, '.git')).catch(() => null);
  if (marker?.isFile()) await git(['worktree', 'remove', '--force', dir], { cwd: repo.root, allowFailure: true });
  await rm(dir, { recursive: true, force: true });
  if (marker?.isFile()) await git(['worktree', 'prune'], { cwd: repo.root, allowFailure: true });
  await createBorrowingCheckout(repo, dir, commit);
}

/**
 * Writes new contents into the sandbox and returns the tree they make, built in the user's repository (its objects
 * are where the commit goes): the blobs hashed from the sandbox's files as they are, without filters, like tug's own.
 */
export async function writeSandboxFiles(
  repo: Repo,
  sandbox: Sandbox,
  files: ReadonlyArray<{ path: string; bytes: Uint8Array | null; mode: string }>,
): Promise<string> {
  for (const file of files) {
    const target = path.join(sandbox.path, file.path);
    if (file.bytes === null) {
      await rm(target, { force: true });
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.bytes);
    await chmod(target, file.mode === '100755' ? 0o755 : 0o644);
  }
  const written = files.filter((f) => f.bytes !== null);
  const oids = written.length === 0 ? [] : (await gitText(['hash-object', '-w', '--no-filters', '--stdin-paths'], { cwd: repo.root, input: written.map((f) => `${path.join(sandbox.path, f.path)}\n`).join('') })).split('\n').filter(Boolean);
  const byPath = new Map(written.map((f, i) => [f.path, oids[i]!]));
  // The sandbox's index already holds the base commit (its checkout made it), so only the changed entries are set
  // there (the blobs it reads through its alternate); the user's repository writes the trees from it.
  const entries = files.map((f) => (f.bytes === null ? `0 ${'0'.repeat(40)}\t${f.path}` : `${f.mode} ${byPath.get(f.path)!}\t${f.path}`));
  if (entries.length > 0) await git(['update-index', '-z', '--index-info'], { cwd: sandbox.path, input: entries.map((e) => `${e}\0`).join('') });
  return gitText(['write-tree'], { cwd: repo.root, env: { GIT_INDEX_FILE: path.join(sandbox.path, '.git', 'index') } });
}

/** Fresh sandboxes are removed after use; the shared one stays for the next operation. */
export async function closeSandbox(sandbox: Sandbox, keep: boolean): Promise<void> {
  if (keep || sandbox.mode === 'reuse') return;
  await rm(sandbox.path, { recursive: true, force: true });
}

/** This session's sandboxes (and the analysis checkout): the checkouts in its sandbox root, sorted. */
export async function listSandboxes(sessionDir: string): Promise<string[]> {
  const root = sandboxRoot(sessionDir);
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory()).map((e) => path.join(root, e.name)).sort();
}

/** Removes every sandbox of this session (tug clean --sandboxes), and linked worktrees older tugs left there. */
export async function removeAllSandboxes(repo: Repo, sessionDir: string): Promise<string[]> {
  const root = sandboxRoot(sessionDir);
  const removed = await listSandboxes(sessionDir);
  const list = await git(['worktree', 'list', '--porcelain'], { cwd: repo.root });
  for (const line of list.stdout.split('\n')) {
    const dir = line.startsWith('worktree ') ? line.slice('worktree '.length) : '';
    if (dir.startsWith(root + path.sep)) await git(['worktree', 'remove', '--force', dir], { cwd: repo.root, allowFailure: true });
  }
  await rm(root, { recursive: true, force: true });
  await git(['worktree', 'prune'], { cwd: repo.root });
  return removed;
}

export interface AnalysisTree {
  path: string;
  /** The commit the tree held before this call; null when the worktree was just created. */
  previous: string | null;
}

/**
 * A worktree that language servers read (rust-analyzer runs `cargo metadata`, which may write Cargo.lock, so it
 * never runs in the user's tree). It moves to `commit` in place so a warm server only re-reads what changed.
 */
export async function openAnalysisTree(repo: Repo, sessionDir: string, commit: string): Promise<AnalysisTree> {
  const dir = path.join(await ensureSandboxRoot(sessionDir), 'analysis');
  if (await isBorrowingCheckout(repo, dir)) {
    const previous = (await detachedHead(dir)) ?? (await gitText(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    if (previous !== commit) await git(['checkout', '-q', '-f', '--detach', commit], { cwd: dir });
    return { path: dir, previous };
  }
  await replaceCheckout(repo, dir, commit);
  return { path: dir, previous: null };
}
