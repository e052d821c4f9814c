// Crash recovery of an interrupted apply: finish or roll back only where every file still holds the journal's before- or
// after-image; anything else is left as it is and reported, with tug's intended content saved for the user.
import { copyFile, lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import { blobOid } from '../core/hash.js';
import { assertUnlocked, indexLockPath, isOurLock, lockedError, lockOwner, refLockPath, stagePaths } from '../git/locks.js';
import { ownerAlive } from '../session/owner.js';
import { readBlobs } from '../git/objects.js';
import { readHead, type Repo } from '../git/repo.js';
import { readRef, updateRef } from '../git/refs.js';
import type { Session } from '../session/session.js';
import { currentOid, releaseIndex, removeFile, removeTemps, writeTemp } from './apply.js';
import { faultPoint } from './fault-points.js';
import { readJournal, type Journal, type JournalFile } from './journal.js';

export interface Recovery {
  action: 'rolled_back' | 'finished';
  files: string[];
  /** git lock files a killed tug had created and this recovery removed. */
  cleared_locks: string[];
}

type FileState = 'done' | 'pending' | 'conflict';

/**
 * Finds an apply that a crash interrupted and completes or undoes it, whichever the journal says. Idempotent: every
 * step looks at what is on disk first, so a recovery killed halfway is simply run again.
 */
export async function recoverInterruptedApply(repo: Repo, session: Session): Promise<Recovery | null> {
  const journal = await readJournal(session.paths.journal);
  if (!journal) return null;
  const files = journal.files.map((f) => f.path);
  const cleared: string[] = [];
  if (journal.phase === 'prepare') {
    await removeTemps(repo, journal);
    if (await releaseIndex(journal)) cleared.push(journal.index!.lock.path);
    await rm(session.paths.journal, { force: true });
    return { action: 'rolled_back', files, cleared_locks: cleared };
  }
  const move = journal.ref_move;
  const refNow = move ? await readRef(repo, move.ref) : null;
  // A branch that moved elsewhere, or a checkout of another branch since, means the user took over: finish nothing.
  const headRef = move?.ref.startsWith('refs/heads/') ? (await readHead(repo)).ref : null;
  const refMoved = move !== undefined && ((refNow !== move.from && refNow !== move.to) || (headRef !== null && headRef !== move.ref));
  const states = new Map<JournalFile, FileState>();
  for (const file of journal.files) states.set(file, await stateOf(repo, file));
  const conflicts = journal.files.filter((f) => states.get(f) === 'conflict');
  if (conflicts.length > 0 || refMoved) {
    const saved = await saveIntended(repo, session, journal, refMoved ? journal.files : conflicts);
    // The index lock goes (only if still tug's own): the user's way out is their own git, which it would block. A later
    // finish stages the paths afresh instead of installing the prepared index.
    await releaseIndex(journal);
    const what = [...conflicts.map((f) => f.path), ...(refMoved ? [`${move!.ref} (now ${refNow ?? 'deleted'})`] : [])];
    throw new TugError('RecoveryConflict', `an interrupted change was not finished: changed since: ${what.join(', ')}`, {
      details: {
        conflicting_files: conflicts.map((f) => f.path),
        ...(refMoved ? { ref: move!.ref, expected: [move!.from, move!.to], actual: refNow, head: headRef } : {}),
        saved,
        journal: session.paths.journal,
      },
    });
  }
  if (move && refNow === move.from) {
    await assertUnlocked([refLockPath(repo, move.ref)], 'another git process may be running');
    await updateRef(repo, move.ref, move.to, move.from, 'tug: finish interrupted apply');
  }
  for (const file of journal.files) {
    if (states.get(file) === 'pending') await finishFile(repo, session, journal, file);
    await faultPoint('recover-after-file');
  }
  await removeTemps(repo, journal);
  await finishIndex(repo, journal, cleared);
  await rm(session.paths.journal, { force: true });
  return { action: 'finished', files, cleared_locks: cleared };
}

/** done: holds the after-image; pending: still the before-image; conflict: anything else (the user's edit). */
async function stateOf(repo: Repo, file: JournalFile): Promise<FileState> {
  const now = await currentOid(repo, file.path);
  if (file.after === undefined) {
    // A journal from before images were recorded: the old rule (rename a temp that is still there).
    return file.temp && (await exists(path.join(repo.root, file.temp))) ? 'pending' : 'done';
  }
  if (now === file.after) return 'done';
  if (file.before === undefined || now === file.before) return 'pending';
  return 'conflict';
}

async function finishFile(repo: Repo, session: Session, journal: Journal, file: JournalFile): Promise<void> {
  const target = path.join(repo.root, file.path);
  if (file.delete) return removeFile(repo.root, target);
  const temp = path.join(repo.root, file.temp!);
  if (file.after === undefined || (await oidOf(temp)) === file.after) return rename(temp, target);
  const bytes = await intendedBytes(repo, session, journal, file);
  if (!bytes) {
    throw new TugError('RecoveryConflict', `the new content of ${file.path} is lost; the file was left as it is`, {
      details: { conflicting_files: [file.path], saved: {}, journal: session.paths.journal },
    });
  }
  await rm(temp, { force: true });
  await writeTemp(repo, { path: file.path, expectOid: file.before ?? null, bytes }, file.temp!);
  await rename(temp, target);
}

/** tug's intended content of a file: its temp, a copy saved by an earlier recovery, or the blob in git. */
async function intendedBytes(repo: Repo, session: Session, journal: Journal, file: JournalFile): Promise<Uint8Array | null> {
  if (!file.after) return null;
  for (const candidate of [path.join(repo.root, file.temp!), savedPath(session, journal, file)]) {
    const bytes = await readFile(candidate).catch(() => null);
    if (bytes && blobOid(bytes) === file.after) return bytes;
  }
  return (await readBlobs(repo, [file.after])).get(file.after) ?? null;
}

function savedPath(session: Session, journal: Journal, file: JournalFile): string {
  return path.join(session.dir, 'recovery', journal.id, file.path);
}

/** Copies tug's intended content of each file into the session dir; null for a file the change deletes. */
export async function saveIntended(repo: Repo, session: Session, journal: Journal, files: readonly JournalFile[]): Promise<Record<string, string | null>> {
  const saved: Record<string, string | null> = {};
  for (const file of files) {
    const bytes = file.delete ? null : await intendedBytes(repo, session, journal, file);
    if (!bytes) {
      saved[file.path] = null;
      continue;
    }
    const target = savedPath(session, journal, file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, bytes);
    saved[file.path] = target;
  }
  return saved;
}

/** The index half: install the index tug prepared while its lock is still tug's, else stage the paths afresh. */
async function finishIndex(repo: Repo, journal: Journal, cleared: string[]): Promise<void> {
  if (journal.index && (await isOurLock(journal.index.lock))) {
    if (await exists(journal.index.temp)) await rename(journal.index.temp, path.join(repo.gitDir, 'index'));
    await rm(journal.index.lock.path, { force: true });
    cleared.push(journal.index.lock.path);
    return;
  }
  if (journal.index) await rm(journal.index.temp, { force: true });
  if (!journal.update_index) return;
  if (await exists(indexLockPath(repo))) throw lockedError(indexLockPath(repo), 'another git process is using the index');
  await stagePaths(repo, journal.files.map((f) => f.path));
}

/** `tug clean` with an interrupted apply: keep tug's content and the journal under recovery/<id>, touch no user file. */
export async function discardInterruptedApply(repo: Repo, session: Session): Promise<string | null> {
  let journal: Journal | undefined;
  try {
    journal = await readJournal(session.paths.journal);
  } catch {
    // An unreadable journal is moved aside as it is; there is nothing in it tug could act on.
    const aside = path.join(session.dir, 'recovery', `journal.corrupt-${Date.now()}.json`);
    await mkdir(path.dirname(aside), { recursive: true });
    await rename(session.paths.journal, aside);
    return aside;
  }
  if (!journal) return null;
  const dir = path.join(session.dir, 'recovery', journal.id);
  await saveIntended(repo, session, journal, journal.files.filter((f) => !f.delete));
  await mkdir(dir, { recursive: true });
  await copyFile(session.paths.journal, path.join(dir, 'journal.json'));
  await removeTemps(repo, journal);
  await releaseIndex(journal);
  await rm(session.paths.journal, { force: true });
  return dir;
}

async function oidOf(file: string): Promise<string | null> {
  const bytes = await readFile(file).catch(() => null);
  return bytes ? blobOid(bytes) : null;
}

async function exists(file: string): Promise<boolean> {
  return lstat(file).then(() => true, () => false);
}

/**
 * git locks a killed tug created but never journaled (killed between taking the lock and writing the journal): known by
 * the owner line tug writes into them, removed only when that owner (pid and start time) is gone. Returns what it removed.
 */
export async function clearOrphanedGitLocks(repo: Repo): Promise<string[]> {
  const lockFile = indexLockPath(repo);
  const owner = await lockOwner(lockFile);
  if (!owner || ownerAlive(owner) || owner.pid === process.pid) return [];
  await rm(lockFile, { force: true });
  return [lockFile];
}
