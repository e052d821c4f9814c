// The session dir (<git-common-dir>/tug by default): metadata, lock, undo records, journal and caches for one repository.
import { constants } from 'node:fs';
import { access, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import type { Repo } from '../git/repo.js';
import { makeSessionDir, readJson, sessionWriteError, writeJson } from './files.js';
import { acquireLock, type LockHandle, type LockOptions } from './lock.js';

export interface SessionMeta {
  version: '1';
  created_at: string;
  last_accessed: string;
  workspace_root: string;
  common_dir: string;
}

/** Something openSession repaired, reported to the user as a warning. */
export interface SessionNote {
  code: 'SessionRebuilt';
  message: string;
  details: Record<string, unknown>;
}

export interface Session {
  dir: string;
  meta: SessionMeta;
  notes: SessionNote[];
  paths: {
    scratch: string;
    undo: string;
    journal: string;
    workers: string;
    facts: string;
    logs: string;
    snapshots: string;
  };
}

export const DEFAULT_LOCK_WAIT_MS = 30_000;

/** --session-dir, else $TUG_SESSION_DIR (relative to the repository root, whoever's cwd), else <git-common-dir>/tug. */
export function sessionDirFor(repo: Repo, override?: string): string {
  if (override) return path.resolve(override);
  const env = process.env['TUG_SESSION_DIR'];
  return env ? path.resolve(repo.root, env) : path.join(repo.commonDir, 'tug');
}

/** `refresh: false` opens a session without writing to it (tug clean on a read-only session dir). */
export async function openSession(repo: Repo, override?: string, options: { refresh?: boolean } = {}): Promise<Session> {
  const dir = sessionDirFor(repo, override);
  const refresh = options.refresh ?? true;
  if (refresh) {
    await makeSessionDir(dir);
    // A read-only mount (or repository) shows here, once, rather than as an errno deep inside a snapshot or cache write.
    await access(dir, constants.W_OK).catch((error: unknown) => {
      throw sessionWriteError(error, dir);
    });
  }
  const metaFile = path.join(dir, 'session.json');
  const now = new Date().toISOString();
  const notes: SessionNote[] = [];
  const existing = refresh ? await readMeta(metaFile, repo, notes) : undefined;
  const meta: SessionMeta = existing
    ? { ...existing, last_accessed: now }
    : { version: '1', created_at: now, last_accessed: now, workspace_root: repo.root, common_dir: repo.commonDir };
  // last_accessed is informational: refresh it at most once a minute rather than fsync on every call.
  const stale = !existing || !(Date.now() - Date.parse(existing.last_accessed) <= 60_000);
  if (stale && refresh) await writeJson(metaFile, meta);
  return {
    dir,
    meta,
    notes,
    paths: {
      scratch: path.join(dir, 'scratch'),
      undo: path.join(dir, 'undo'),
      journal: path.join(dir, 'apply-journal.json'),
      workers: path.join(dir, 'workers'),
      facts: path.join(dir, 'facts'),
      logs: path.join(dir, 'logs'),
      snapshots: path.join(dir, 'snapshots'),
    },
  };
}

/**
 * The session metadata, or undefined when there is none to keep. Metadata that cannot be used (unreadable, not JSON,
 * an unknown format, or written for another repository because the repository was copied or moved) is renamed to
 * session.json.corrupt-<time> and rebuilt, with a note: a session dir never becomes a dead end.
 */
async function readMeta(metaFile: string, repo: Repo, notes: SessionNote[]): Promise<SessionMeta | undefined> {
  let reason: string;
  try {
    const meta = await readJson<SessionMeta>(metaFile);
    if (meta === undefined) return undefined;
    if (meta === null || typeof meta !== 'object' || meta.version !== '1' || typeof meta.common_dir !== 'string' || typeof meta.last_accessed !== 'string') {
      reason = 'unknown format';
    } else if (meta.common_dir !== repo.commonDir) {
      reason = `written for the repository at ${meta.common_dir} (copied or moved)`;
    } else {
      return meta;
    }
  } catch (error) {
    reason = error instanceof TugError ? 'not valid JSON' : `unreadable (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  const aside = `${metaFile}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    await rename(metaFile, aside);
  } catch (error) {
    throw sessionWriteError(error, path.dirname(metaFile));
  }
  notes.push({
    code: 'SessionRebuilt',
    message: `session metadata ${metaFile} was ${reason}; moved it to ${path.basename(aside)} and started fresh`,
    details: { path: metaFile, moved_to: aside, reason },
  });
  return undefined;
}

export async function lockSession(session: Session, waitMs: number, extra: Pick<LockOptions, 'signal' | 'onWait'> = {}): Promise<LockHandle> {
  return acquireLock(session.dir, { waitMs, ...extra });
}

/** Total size in bytes and number of files under a directory (0 when absent). */
export async function directorySize(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const info = await stat(path.join(entry.parentPath, entry.name)).catch(() => null);
    files += 1;
    bytes += info?.size ?? 0;
  }
  return { files, bytes };
}

export async function removeDir(dir: string): Promise<boolean> {
  const existed = await stat(dir).then(() => true, () => false);
  await rm(dir, { recursive: true, force: true });
  return existed;
}
