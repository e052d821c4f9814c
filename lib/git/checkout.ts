// Checkouts with a repository of their own that borrows the user's objects, so nothing run there reaches the user's refs, stash, hooks or config: run_command's throwaway ones, and the sandboxes (worktree.ts).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Repo } from './repo.js';
import { git } from './run-git.js';

export interface ThrowawayCheckout {
  /** The working tree, holding `commit`'s files. */
  path: string;
  /** Its private parent directory (mode 0700), removed whole afterwards. */
  base: string;
}

/**
 * A fresh `git init` whose object store lists the user's as an alternate (read only, nothing copied), checked out at
 * `commit`. Unlike a linked worktree (whose git dir is inside the user's), `git branch -D`, `git stash clear` or
 * `git config` there change only this throwaway repository; it has no remote pointing back either.
 */
export async function openThrowawayCheckout(repo: Repo, commit: string): Promise<ThrowawayCheckout> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'tug-run-'));
  const dir = path.join(base, 'checkout');
  try {
    await createBorrowingCheckout(repo, dir, commit);
  } catch (error) {
    await rm(base, { recursive: true, force: true });
    throw error;
  }
  return { path: dir, base };
}

/** `git init` in `dir` (created if missing), the user's objects as its alternate, checked out at `commit`. */
export async function createBorrowingCheckout(repo: Repo, dir: string, commit: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await git(['init', '-q', dir], { cwd: dir });
  await writeFile(alternatesFile(dir), `${userObjects(repo)}\n`);
  await git(['checkout', '-q', '-f', '--detach', commit], { cwd: dir });
}

/** Whether `dir` is a checkout createBorrowingCheckout made for this repository (not a linked worktree, not another's). */
export async function isBorrowingCheckout(repo: Repo, dir: string): Promise<boolean> {
  const alternates = await readFile(alternatesFile(dir), 'utf8').catch(() => null);
  return alternates !== null && alternates.trim() === userObjects(repo);
}

/** The commit a borrowing checkout's detached HEAD names, read from its file (a git process costs more than the call). */
export async function detachedHead(dir: string): Promise<string | null> {
  const head = await readFile(path.join(dir, '.git', 'HEAD'), 'utf8').catch(() => '');
  return /^[0-9a-f]{40}(?:[0-9a-f]{24})?\n?$/.test(head) ? head.trim() : null;
}

function alternatesFile(dir: string): string {
  return path.join(dir, '.git', 'objects', 'info', 'alternates');
}

function userObjects(repo: Repo): string {
  return path.join(repo.commonDir, 'objects');
}

export async function removeThrowawayCheckout(checkout: ThrowawayCheckout): Promise<void> {
  await rm(checkout.base, { recursive: true, force: true });
}
