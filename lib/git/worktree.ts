// Sandboxes are git worktrees of the snapshot commit; tug edits and verifies there, never in the user's tree.
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sha256 } from '../core/hash.js';
import { privateRoot, privateSubdir } from '../workspace/private-dir.js';
import type { Repo } from './repo.js';
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
 * A worktree checked out at `commit`. 'reuse' keeps one worktree per session and moves it
 * (only changed files are rewritten, which is much faster on big trees); callers hold the session lock.
 */
export async function openSandbox(repo: Repo, sessionDir: string, commit: string, mode: SandboxMode): Promise<Sandbox> {
  const root = await ensureSandboxRoot(sessionDir);
  if (mode === 'reuse') {
    const shared = path.join(root, 'shared');
    if (await isWorktree(shared)) {
      await fullCheckout(shared);
      await git(['checkout', '-q', '-f', '--detach', commit], { cwd: shared });
      await git(['clean', '-ffdxq'], { cwd: shared });
      return { path: shared, mode };
    }
    await rm(shared, { recursive: true, force: true });
    await git(['worktree', 'prune'], { cwd: repo.root });
    await addWorktree(repo, shared, commit);
    return { path: shared, mode };
  }
  const fresh = path.join(root, `run-${randomBytes(5).toString('hex')}`);
  await addWorktree(repo, fresh, commit);
  return { path: fresh, mode };
}

async function addWorktree(repo: Repo, dir: string, commit: string): Promise<void> {
  await git(['worktree', 'add', '-f', '--detach', dir, commit], { cwd: repo.root });
  await fullCheckout(dir);
}

/**
 * `git worktree add` copies the user's sparse-checkout settings into the new worktree, where files outside the cone
 * would be missing for verification and `git add` refuses them; a sandbox always holds the whole tree. Asking git only
 * when the worktree has a sparse-checkout file keeps the common case free of an extra process.
 */
async function fullCheckout(dir: string): Promise<void> {
  const marker = await readFile(path.join(dir, '.git'), 'utf8').catch(() => '');
  const gitDir = /^gitdir: (.*)$/m.exec(marker)?.[1];
  if (!gitDir) return;
  const patterns = path.join(path.resolve(dir, gitDir.trim()), 'info', 'sparse-checkout');
  if (!(await stat(patterns).catch(() => null))) return;
  await git(['sparse-checkout', 'disable'], { cwd: dir });
  await rm(patterns, { force: true });
}

async function isWorktree(dir: string): Promise<boolean> {
  const marker = await stat(path.join(dir, '.git')).catch(() => null);
  if (!marker?.isFile()) return false;
  const check = await git(['rev-parse', '--is-inside-work-tree'], { cwd: dir, allowFailure: true });
  return check.exitCode === 0;
}

/** Writes new contents into the sandbox and returns the tree they make. */
export async function writeSandboxFiles(
  sandbox: Sandbox,
  files: ReadonlyArray<{ path: string; bytes: Uint8Array | null; mode?: string }>,
): Promise<string> {
  for (const file of files) {
    const target = path.join(sandbox.path, file.path);
    if (file.bytes === null) {
      await rm(target, { force: true });
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.bytes);
    if (file.mode) await chmod(target, file.mode === '100755' ? 0o755 : 0o644);
  }
  if (files.length > 0) await git(['add', '-A', '--', ...files.map((f) => f.path)], { cwd: sandbox.path });
  return gitText(['write-tree'], { cwd: sandbox.path });
}

/** Fresh sandboxes are removed after use; the shared one stays for the next operation. */
export async function closeSandbox(repo: Repo, sandbox: Sandbox, keep: boolean): Promise<void> {
  if (keep || sandbox.mode === 'reuse') return;
  await git(['worktree', 'remove', '--force', sandbox.path], { cwd: repo.root, allowFailure: true });
  await rm(sandbox.path, { recursive: true, force: true });
}

/** Removes every sandbox of this session (tug clean --sandboxes). */
export async function removeAllSandboxes(repo: Repo, sessionDir: string): Promise<string[]> {
  const root = sandboxRoot(sessionDir);
  const list = await git(['worktree', 'list', '--porcelain'], { cwd: repo.root });
  const removed: string[] = [];
  for (const line of list.stdout.split('\n')) {
    if (!line.startsWith('worktree ')) continue;
    const dir = line.slice('worktree '.length);
    if (!dir.startsWith(root + path.sep)) continue;
    await git(['worktree', 'remove', '--force', dir], { cwd: repo.root, allowFailure: true });
    removed.push(dir);
  }
  await rm(root, { recursive: true, force: true });
  await git(['worktree', 'prune'], { cwd: repo.root });
  return removed.sort();
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
  if (await isWorktree(dir)) {
    await fullCheckout(dir);
    const previous = (await gitText(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    if (previous !== commit) await git(['checkout', '-q', '-f', '--detach', commit], { cwd: dir });
    return { path: dir, previous };
  }
  await rm(dir, { recursive: true, force: true });
  await git(['worktree', 'prune'], { cwd: repo.root });
  await addWorktree(repo, dir, commit);
  return { path: dir, previous: null };
}
