// The apply step: the only code that writes the user's working tree, all files or none, journaled against crashes.
import { chmod, lstat, mkdir, open, readFile, rename, rm, rmdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import { blobOid } from '../core/hash.js';
import type { Repo } from '../git/repo.js';
import { checkoutForms, cleanedOids } from '../git/checkout-form.js';
import { readRef, updateRef } from '../git/refs.js';
import { git } from '../git/run-git.js';
import { syncDir, writeJson } from '../session/files.js';
import type { Session } from '../session/session.js';
import { readJournal, type Journal } from './journal.js';
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
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Writes every file or none. New contents go to temp files beside their targets first; only when all
 * exist does the journal flip to 'commit' and the renames start, so a crash can always be resolved:
 * before the flip it is rolled back, after it finished (see recoverInterruptedApply).
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
  const id = randomBytes(6).toString('hex');
  const journal: Journal = {
    id,
    phase: 'prepare',
    created_at: new Date().toISOString(),
    update_index: options.updateIndex ?? false,
    ...(options.refMove ? { ref_move: options.refMove } : {}),
    files: ordered.map((w) => ({ path: w.path, temp: w.bytes === null ? null : tempName(w.path, id), delete: w.bytes === null })),
  };
  await writeJson(session.paths.journal, journal);
  try {
    for (const write of ordered) {
      if (write.bytes === null) continue;
      await writeTemp(repo, write, tempName(write.path, id));
      faultPoint('apply-after-temp');
    }
    await assertFresh();
  } catch (error) {
    await rollBack(repo, journal);
    await rm(session.paths.journal, { force: true });
    throw error instanceof TugError ? error : new TugError('WriteError', `could not write: ${String(error)}`, { details: { reason: String(error) }, cause: error });
  }
  journal.phase = 'commit';
  await writeJson(session.paths.journal, journal);
  await finish(repo, journal);
  await rm(session.paths.journal, { force: true });
  return ordered.map((w) => w.path);
}

function tempName(relative: string, id: string): string {
  return path.posix.join(path.posix.dirname(relative), `.${path.posix.basename(relative)}.tug-${id}`);
}

async function writeTemp(repo: Repo, write: FileWrite, temp: string): Promise<void> {
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

/** Second half of an apply: move the ref, rename temps over targets, stage if asked. Safe to repeat. */
async function finish(repo: Repo, journal: Journal): Promise<void> {
  if (journal.ref_move) {
    const now = await readRef(repo, journal.ref_move.ref);
    if (now === journal.ref_move.from) await updateRef(repo, journal.ref_move.ref, journal.ref_move.to, journal.ref_move.from, 'tug: apply');
  }
  const dirs = new Set<string>();
  for (const file of journal.files) {
    const target = path.join(repo.root, file.path);
    if (file.delete) {
      await rm(target, { force: true });
      await removeEmptyParents(repo.root, path.dirname(target));
    } else if (await lstat(path.join(repo.root, file.temp!)).then(() => true, () => false)) await rename(path.join(repo.root, file.temp!), target);
    dirs.add(path.dirname(target));
    faultPoint('apply-after-rename');
  }
  for (const dir of dirs) await syncDir(dir);
  if (journal.update_index) {
    await git(['update-index', '--add', '--remove', '-q', '--', ...journal.files.map((f) => f.path)], { cwd: repo.root });
  }
}

/** git does not track directories: deleting a directory's last file removes the directory, as `git rm` does. */
async function removeEmptyParents(root: string, dir: string): Promise<void> {
  for (let current = dir; current.startsWith(root + path.sep); current = path.dirname(current)) {
    if (!(await rmdir(current).then(() => true, () => false))) return;
  }
}

async function rollBack(repo: Repo, journal: Journal): Promise<void> {
  for (const file of journal.files) if (file.temp) await rm(path.join(repo.root, file.temp), { force: true });
}

export interface Recovery {
  action: 'rolled_back' | 'finished';
  files: string[];
}

/** Finds an apply that a crash interrupted and completes or undoes it, whichever is safe. */
export async function recoverInterruptedApply(repo: Repo, session: Session): Promise<Recovery | null> {
  const journal = await readJournal(session.paths.journal);
  if (!journal) return null;
  const files = journal.files.map((f) => f.path);
  if (journal.phase === 'prepare') await rollBack(repo, journal);
  else await finish(repo, journal);
  await rm(session.paths.journal, { force: true });
  return { action: journal.phase === 'prepare' ? 'rolled_back' : 'finished', files };
}

/** Test hook: TUG_FAULT_INJECT=<point> kills tug with SIGKILL the first time it passes that point. */
function faultPoint(name: string): void {
  if (process.env['TUG_FAULT_INJECT'] === name) process.kill(process.pid, 'SIGKILL');
}
