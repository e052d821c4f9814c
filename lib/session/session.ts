// The session dir (<git-common-dir>/tug by default): metadata, lock, undo records, journal and caches for one repository.
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import type { Repo } from '../git/repo.js';
import { readJson, writeJson } from './files.js';
import { acquireLock, type LockHandle } from './lock.js';

export interface SessionMeta {
  version: '1';
  created_at: string;
  last_accessed: string;
  workspace_root: string;
  common_dir: string;
}

export interface Session {
  dir: string;
  meta: SessionMeta;
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

export async function openSession(repo: Repo, override?: string): Promise<Session> {
  const dir = sessionDirFor(repo, override);
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new TugError('WriteError', `cannot create the session dir ${dir}`, { details: { path: dir, reason: String(error) } });
  }
  const metaFile = path.join(dir, 'session.json');
  const now = new Date().toISOString();
  const existing = await readJson<SessionMeta>(metaFile);
  if (existing && (existing.version !== '1' || typeof existing.common_dir !== 'string')) {
    throw new TugError('SessionCorrupt', `${metaFile} has an unknown format`, { details: { path: metaFile, reason: 'unknown version' } });
  }
  if (existing && existing.common_dir !== repo.commonDir) {
    throw new TugError('SessionCorrupt', `session dir ${dir} belongs to another repository (${existing.common_dir})`, {
      details: { path: dir, reason: 'other repository' },
    });
  }
  const meta: SessionMeta = existing
    ? { ...existing, last_accessed: now }
    : { version: '1', created_at: now, last_accessed: now, workspace_root: repo.root, common_dir: repo.commonDir };
  // last_accessed is informational: refresh it at most once a minute rather than fsync on every call.
  const stale = !existing || Date.now() - Date.parse(existing.last_accessed) > 60_000;
  if (stale) await writeJson(metaFile, meta);
  return {
    dir,
    meta,
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

export async function lockSession(session: Session, waitMs: number): Promise<LockHandle> {
  return acquireLock(session.dir, { waitMs });
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
