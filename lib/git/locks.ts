// git's own lock files and in-progress states, checked before tug writes anything a git command also writes.
import { copyFile, lstat, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import type { ProcessIdentity } from '../session/owner.js';
import type { Repo } from './repo.js';
import { git } from './run-git.js';

/** Files git leaves in the git dir while a merge, rebase, cherry-pick, revert or bisect is under way. */
const IN_PROGRESS = [
  ['MERGE_HEAD', 'merge'],
  ['rebase-merge', 'rebase'],
  ['rebase-apply', 'rebase'],
  ['CHERRY_PICK_HEAD', 'cherry-pick'],
  ['REVERT_HEAD', 'revert'],
  ['BISECT_LOG', 'bisect'],
] as const;

export function indexLockPath(repo: Repo): string {
  return path.join(repo.gitDir, 'index.lock');
}

/** The lock git takes to move a loose ref; branches live in the common dir, HEAD-like refs in the worktree's own. */
export function refLockPath(repo: Repo, ref: string): string {
  return path.join(ref.startsWith('refs/') ? repo.commonDir : repo.gitDir, `${ref}.lock`);
}

export function lockedError(lockFile: string, reason: string): TugError {
  return new TugError('GitLocked', `${lockFile} exists (${reason}); tug changed nothing`, {
    details: { lock_file: lockFile, check: `fuser ${lockFile}`, reason },
  });
}

/** GitLocked when any of these lock files exists: someone else is writing, or crashed while writing. */
export async function assertUnlocked(lockFiles: readonly string[], reason: string): Promise<void> {
  for (const file of lockFiles) {
    if (await lstat(file).then(() => true, () => false)) throw lockedError(file, reason);
  }
}

/** The operation git is in the middle of in this worktree (merge, rebase, …), or null. */
export async function operationInProgress(repo: Repo): Promise<string | null> {
  for (const [file, name] of IN_PROGRESS) {
    if (await lstat(path.join(repo.gitDir, file)).then(() => true, () => false)) return name;
  }
  return null;
}

export interface HeldLock {
  path: string;
  /** Inode and change time (ns) of the lock file, so a later look can tell tug's lock from one created since (inodes get reused). */
  ino: number;
  ctime_ns: string;
}

/** What tug writes into a git lock it takes; git never reads a lock's content, and only the owner renames it. */
const MARK = 'tug-lock';

/**
 * Takes git's index lock the way git does (create-exclusive), so no git command writes the index while tug does. The
 * file names its owner (pid and process start time), so a tug killed before it could journal the lock is still known.
 */
export async function takeIndexLock(repo: Repo, owner: ProcessIdentity): Promise<HeldLock> {
  const file = indexLockPath(repo);
  let handle;
  try {
    handle = await open(file, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw lockedError(file, 'another git process is using the index');
    throw error;
  }
  try {
    await handle.writeFile(`${MARK} pid=${owner.pid} start=${owner.start ?? ''}\n`);
    const info = await handle.stat({ bigint: true });
    return { path: file, ino: Number(info.ino), ctime_ns: String(info.ctimeNs) };
  } catch (error) {
    await handle.close();
    await rm(file, { force: true });
    throw error;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The tug that created `lockFile`, or null when tug did not create it (or it is gone). */
export async function lockOwner(lockFile: string): Promise<ProcessIdentity | null> {
  const head = await readFile(lockFile).then((b) => b.subarray(0, 80).toString('latin1'), () => '');
  const match = /^tug-lock pid=(\d+) start=(\d*)\n/.exec(head);
  return match ? { pid: Number(match[1]), start: match[2] || null } : null;
}

/** Whether `lock` is still the very file tug created (same inode, same change time). */
export async function isOurLock(lock: HeldLock): Promise<boolean> {
  const info = await stat(lock.path, { bigint: true }).catch(() => null);
  return info !== null && Number(info.ino) === lock.ino && String(info.ctimeNs) === lock.ctime_ns;
}

/**
 * Writes into `temp` a copy of the index in which `paths` are as in commit `to` (staged, or removed where `to` lacks
 * them) and every other entry is untouched, the user's staged changes included. The real index is not written.
 */
export async function prepareIndex(repo: Repo, temp: string, to: string, paths: readonly string[]): Promise<void> {
  const real = path.join(repo.gitDir, 'index');
  await rm(temp, { force: true });
  await copyFile(real, temp).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  const listed = await git(['ls-tree', '-r', '-z', '--full-tree', to, '--', ...paths], { cwd: repo.root });
  const entries = new Map<string, string>();
  for (const line of listed.stdout.split('\0').filter(Boolean)) entries.set(line.slice(line.indexOf('\t') + 1), line);
  // Mode 0 removes an entry (git update-index --index-info).
  const input = paths.map((p) => entries.get(p) ?? `0 ${'0'.repeat(40)}\t${p}`).join('\0');
  await git(['update-index', '-z', '--index-info'], { cwd: repo.root, env: { GIT_INDEX_FILE: temp }, input: `${input}\0` });
}

/** Puts a prepared index in place and lets go of the lock; only for a lock tug holds. */
export async function installIndex(repo: Repo, temp: string, lock: HeldLock): Promise<void> {
  await rename(temp, path.join(repo.gitDir, 'index'));
  await rm(lock.path, { force: true });
}

/** Refreshes git's stat data for entries tug just staged; optional (another git may hold the lock by now). */
export async function refreshIndex(repo: Repo): Promise<void> {
  await git(['update-index', '-q', '--refresh'], { cwd: repo.root, allowFailure: true });
}

/** Stages `paths` from the working tree (additions, changes and deletions), the way `git add -A -- paths` would. */
export async function stagePaths(repo: Repo, paths: readonly string[]): Promise<void> {
  await git(['update-index', '--add', '--remove', '-q', '--', ...paths], { cwd: repo.root });
}
