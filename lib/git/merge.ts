// `git merge` of a tug branch into the current branch, for the review TUI's merge key: clean trees only, aborted on conflict.
import { TugError } from '../core/errors.js';
import { assertUnlocked, indexLockPath, operationInProgress, refLockPath } from './locks.js';
import type { Repo } from './repo.js';
import { readHead } from './repo.js';
import { trackedChanges } from './results.js';
import { git } from './run-git.js';

export interface MergeResult {
  /** The branch HEAD is on (refs/heads/…). */
  ref: string;
  from: string;
  to: string;
  fastForward: boolean;
}

/**
 * Merges `branch` into the checked-out branch. git writes the working tree here, which is why a
 * tree with uncommitted changes to tracked files is refused before git is asked to do anything.
 */
export async function mergeIntoHead(repo: Repo, branch: string, message: string): Promise<MergeResult> {
  const head = await readHead(repo);
  if (!head.ref || !head.oid) {
    throw new TugError('InvalidArgument', 'merging needs a checked-out branch with at least one commit', {
      details: { argument: 'merge', reason: head.ref ? 'unborn branch' : 'detached HEAD' },
    });
  }
  const busy = await operationInProgress(repo);
  if (busy) {
    throw new TugError('DirtyWorkingTree', `cannot merge ${branch}: a ${busy} is in progress; finish or abort it first`, {
      details: { operation_in_progress: busy, branch },
    });
  }
  await assertUnlocked([indexLockPath(repo), refLockPath(repo, head.ref)], 'another git process may be running');
  const dirty = await trackedChanges(repo);
  if (dirty.length > 0) {
    throw new TugError('DirtyWorkingTree', `cannot merge ${branch}: ${dirty.length} file(s) have uncommitted changes (${dirty.slice(0, 5).join(', ')})`, {
      details: { changed_files: dirty, branch },
    });
  }
  const result = await git(['merge', '--no-edit', '-m', message, `refs/heads/${branch}`], { cwd: repo.root, allowFailure: true });
  if (result.exitCode !== 0) {
    // Abort only a merge this call started: nothing was in progress before it (checked above).
    if (await operationInProgress(repo)) await git(['merge', '--abort'], { cwd: repo.root, allowFailure: true });
    throw new TugError('MergeConflict', `${branch} does not merge cleanly into ${head.ref.replace(/^refs\/heads\//, '')}; nothing was changed`, {
      details: { branch, git: `${result.stdout}${result.stderr}`.trim().slice(-2000) },
    });
  }
  const after = await readHead(repo);
  const parents = (await git(['rev-list', '--parents', '-n', '1', after.oid!], { cwd: repo.root })).stdout.trim().split(' ').slice(1);
  return { ref: head.ref, from: head.oid, to: after.oid!, fastForward: parents.length < 2 };
}
