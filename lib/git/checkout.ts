// Throwaway checkouts for run_command: a repository of their own that borrows the user's objects, so nothing run there reaches the user's refs, stash or config.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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
    await git(['init', '-q', dir], { cwd: base });
    await writeFile(path.join(dir, '.git', 'objects', 'info', 'alternates'), `${path.join(repo.commonDir, 'objects')}\n`);
    await git(['checkout', '-q', '--detach', commit], { cwd: dir });
  } catch (error) {
    await rm(base, { recursive: true, force: true });
    throw error;
  }
  return { path: dir, base };
}

export async function removeThrowawayCheckout(checkout: ThrowawayCheckout): Promise<void> {
  await rm(checkout.base, { recursive: true, force: true });
}
