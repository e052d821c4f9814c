// The apply step: the only code that writes the user's working tree, all files or none, journaled against crashes.
import { chmod, lstat, mkdir, open, readFile, rename, rm, rmdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import { blobOid } from '../core/hash.js';
import { checkoutForms, cleanedOids } from '../git/checkout-form.js';
import { assertUnlocked, indexLockPath, installIndex, isOurLock, lockedError, operationInProgress, prepareIndex, refLockPath, refreshIndex, takeIndexLock } from '../git/locks.js';
import { readHead, type Repo } from '../git/repo.js';
import { readRef, updateRef } from '../git/refs.js';
import { syncDir } from '../session/files.js';
import { selfIdentity } from '../session/owner.js';
import type { Session } from '../session/session.js';
import { faultPoint } from './fault-points.js';
import { writeJournal, type Journal } from './journal.js';
import { assertSafeWrite } from './paths.js';

export interface FileWrite {
  /** Repo-relative posix path. */
  path: string;
  /** Blob the file must hold now; null: the file must not exist. */
  expectOid: string | null;
  /** New content; null deletes the file. */
  bytes: Uint8Array | null;
  /** Git mode for new files ('100755' makes them executable). */
  mode?: string;
}

export interface WriteOptions {
  /** Move a branch together with the files (the --commit and undo-of-commit cases). */
  refMove?: { ref: string; from: string; to: string };
  /** Also stage the written paths, so the index follows a moved branch. */
  updateIndex?: boolean;
  /** Skip the precondition for these paths (undo --force). */
  force?: boolean;
}

/** Files whose content is not what the caller expected (as `git add` would store it: autocrlf, eol attributes). */
export async function staleFiles(repo: Repo, writes: readonly FileWrite[]): Promise<string[]> {
  const differ: FileWrite[] = [];
  for (const write of writes) if ((await currentOid(repo, write.path)) !== write.expectOid) differ.push(write);
  const converted = differ.some((w) => w.expectOid !== null) ? await cleanedOids(repo, differ.filter((w) => w.expectOid !== null).map((w) => w.path)) : new Map<string, string>();
  return differ.filter((w) => w.expectOid === null || converted.get(w.path) !== w.expectOid).map((w) => w.path);
}

export async function currentOid(repo: Repo, relative: string): Promise<string | null> {
  try {
    return blobOid(await readFile(path.join(repo.root, relative)));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/**
 * Everything a branch move needs, checked before the first write: no merge or rebase under way, HEAD still on the
 * branch where the caller saw it, and no git lock on the branch or (when staging) the index.
 */
export async function assertRefMovable(repo: Repo, move: NonNullable<WriteOptions['refMove']>, updateIndex: boolean): Promise<void> {
  const busy = await operationInProgress(repo);
  if (busy) {
    throw new TugError('DirtyWorkingTree', `a ${busy} is in progress; finish or abort it first`, { details: { operation_in_progress: busy } });
  }
  const head = await readHead(repo);
  if (move.ref.startsWith('refs/heads/') && head.ref !== move.ref) {
    throw new TugError('RefUpdateConflict', `HEAD is no longer on ${move.ref}`, { details: { ref: move.ref, head: head.ref, expected: move.from } });
  }
  const now = await readRef(repo, move.ref);
  if (now !== move.from) {
    throw new TugError('RefUpdateConflict', `${move.ref} moved to ${now ?? 'nothing'} (expected ${move.from})`, { details: { ref: move.ref, expected: move.from, next: move.to } });
  }
  await assertUnlocked([refLockPath(repo, move.ref), ...(updateIndex ? [indexLockPath(repo)] : [])], 'another git process may be running');
}

/**
 * Writes every file or none. New contents (and, for a branch move, the new index) are prepared beside their targets
 * first; only when all exist does the journal flip to 'commit'. The commit phase then moves the branch (the one step
 * another process can refuse, so it goes first and a refusal still rolls everything back), renames the temps over the
 * targets and installs the index. A crash is resolved by recoverInterruptedApply.
 */
export async function writeWorkingTree(repo: Repo, session: Session, writes: readonly FileWrite[], options: WriteOptions = {}): Promise<string[]> {
  for (const write of writes) await assertSafeWrite(repo.root, write.path);
  const ordered = await checkoutForms(repo, [...writes].sort((a, b) => (a.path < b.path ? -1 : 1)));
  const assertFresh = async () => {
    if (options.force) return;
    const stale = await staleFiles(repo, ordered);
    if (stale.length > 0) {
      throw new TugError('SnapshotMismatch', `files changed since the snapshot: ${stale.join(', ')}`, { details: { changed_files: stale } });
    }
  };
  await assertFresh();
  const updateIndex = options.updateIndex ?? false;
  if (options.refMove) await assertRefMovable(repo, options.refMove, updateIndex);
  const id = randomBytes(6).toString('hex');
  const journal: Journal = {
    id,
    phase: 'prepare',
    created_at: new Date().toISOString(),
    owner: selfIdentity(),
    update_index: updateIndex,
    ...(options.refMove ? { ref_move: options.refMove } : {}),
    files: [],
  };
  for (const w of ordered) {
    journal.files.push({
      path: w.path,
      temp: w.bytes === null ? null : tempName(w.path, id),
      delete: w.bytes === null,
      before: options.force ? await currentOid(repo, w.path) : w.expectOid,
      after: w.bytes === null ? null : blobOid(w.bytes),
    });
  }
  await writeJournal(session.paths.journal, journal);
  try {
    for (const write of ordered) {
      if (write.bytes === null) continue;
      await writeTemp(repo, write, tempName(write.path, id));
      await faultPoint('apply-after-temp');
    }
    if (updateIndex && options.refMove) {
      const lock = await takeIndexLock(repo, journal.owner!);
      await faultPoint('apply-index-lock-unjournaled');
      journal.index = { lock, temp: path.join(repo.gitDir, `index.tug-${id}`) };
      await writeJournal(session.paths.journal, journal);
      await faultPoint('apply-after-index-lock');
      await prepareIndex(repo, journal.index.temp, options.refMove.to, journal.files.map((f) => f.path));
    }
    await assertFresh();
    journal.phase = 'commit';
    await writeJournal(session.paths.journal, journal);
  } catch (error) {
    await abandon(repo, session, journal);
    throw asWriteError(error);
  }
  await faultPoint('apply-after-commit-flip');
  if (options.refMove) {
    try {
      await updateRef(repo, options.refMove.ref, options.refMove.to, options.refMove.from, 'tug: apply');
    } catch (error) {
      await abandon(repo, session, journal);
      const lockFile = refLockPath(repo, options.refMove.ref);
      throw (await lstat(lockFile).then(() => true, () => false)) ? lockedError(lockFile, 'another git process took the branch lock') : error;
    }
    await faultPoint('apply-after-ref');
  }
  try {
    await renameAll(repo, journal);
    if (journal.index) {
      await installIndex(repo, journal.index.temp, journal.index.lock);
      await faultPoint('apply-after-index');
      await refreshIndex(repo);
    }
  } catch (error) {
    // Past the branch move there is no going back: the journal stays, and the next call finishes what is safe to finish.
    throw new TugError('WriteError', `the change was interrupted: ${String(error)}; the next tug call finishes it`, {
      details: { reason: String(error), journal: session.paths.journal },
      cause: error,
    });
  }
  await rm(session.paths.journal, { force: true });
  return ordered.map((w) => w.path);
}

function asWriteError(error: unknown): TugError {
  if (error instanceof TugError) return error;
  return new TugError('WriteError', `could not write: ${String(error)}`, { details: { reason: String(error) }, cause: error });
}

export function tempName(relative: string, id: string): string {
  return path.posix.join(path.posix.dirname(relative), `.${path.posix.basename(relative)}.tug-${id}`);
}

export async function writeTemp(repo: Repo, write: FileWrite, temp: string): Promise<void> {
  const target = path.join(repo.root, write.path);
  const existing = await lstat(target).catch(() => null);
  const mode = existing ? existing.mode & 0o777 : write.mode === '100755' ? 0o755 : 0o644;
  // New files may live in new directories (create_file, moves); an empty directory left by a rollback is harmless.
  if (!existing) await mkdir(path.dirname(target), { recursive: true });
  const handle = await open(path.join(repo.root, temp), 'wx', mode);
  try {
    await handle.writeFile(write.bytes!);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await chmod(path.join(repo.root, temp), mode);
}

/** Renames each temp over its target and deletes what the change deletes (live path: every file still holds its before-image). */
async function renameAll(repo: Repo, journal: Journal): Promise<void> {
  const dirs = new Set<string>();
  for (const file of journal.files) {
    const target = path.join(repo.root, file.path);
    if (file.delete) await removeFile(repo.root, target);
    else await rename(path.join(repo.root, file.temp!), target);
    dirs.add(path.dirname(target));
    await faultPoint('apply-after-rename');
  }
  for (const dir of dirs) await syncDir(dir);
}

export async function removeFile(root: string, target: string): Promise<void> {
  await rm(target, { force: true });
  await removeEmptyParents(root, path.dirname(target));
}

/** git does not track directories: deleting a directory's last file removes the directory, as `git rm` does. */
async function removeEmptyParents(root: string, dir: string): Promise<void> {
  for (let current = dir; current.startsWith(root + path.sep); current = path.dirname(current)) {
    if (!(await rmdir(current).then(() => true, () => false))) return;
  }
}

/** Undoes a prepare phase: temps, tug's own index lock and the prepared index go; the journal goes last. */
export async function abandon(repo: Repo, session: Session, journal: Journal): Promise<void> {
  await removeTemps(repo, journal);
  await releaseIndex(journal);
  await rm(session.paths.journal, { force: true });
}

export async function removeTemps(repo: Repo, journal: Journal): Promise<void> {
  for (const file of journal.files) if (file.temp) await rm(path.join(repo.root, file.temp), { force: true });
}

/** Drops the prepared index and, when it is still the one tug created, the index lock; true when a lock was removed. */
export async function releaseIndex(journal: Journal): Promise<boolean> {
  if (!journal.index) return false;
  await rm(journal.index.temp, { force: true });
  if (!(await isOurLock(journal.index.lock))) return false;
  await rm(journal.index.lock.path, { force: true });
  return true;
}
