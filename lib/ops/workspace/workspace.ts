// Opens what every operation needs: the repository, the session, the lock for mutating work, and crash recovery.
import { configuredSessionDir } from './session-dir.js';
import type { WarningJSON } from '../../core/schemas.js';
import { discoverRepo, type Repo } from '../../git/repo.js';
import { DEFAULT_LOCK_WAIT_MS, lockSession, openSession, type Session } from '../../session/session.js';
import { clearOrphanedGitLocks, recoverInterruptedApply } from '../../workspace/recover.js';

export interface CommonInput {
  workspace?: string | undefined;
  session_dir?: string | undefined;
  no_wait?: boolean | undefined;
  /** How long to wait for the session lock, in seconds (no_wait wins; default TUG_LOCK_TIMEOUT_MS, else 30 s). */
  wait_s?: number | undefined;
}

export interface Workspace {
  repo: Repo;
  session: Session;
  /** Warnings raised while opening (a recovered apply), reported with the operation's result. */
  warnings: WarningJSON[];
  close(): Promise<void>;
}

export interface OpenOptions {
  lock: boolean;
  /** Skip crash recovery (`tug clean`, which resolves an interrupted apply its own way). */
  recover?: boolean;
  /** Open the session without writing to it (tug clean when the session dir is read-only or full). */
  readOnlySession?: boolean;
  /** A cancel stops the wait for the lock. */
  signal?: AbortSignal | undefined;
  /** Told once when the lock is held by another call and this one starts waiting. */
  onWait?: ((message: string) => void) | undefined;
}

export async function openWorkspace(input: CommonInput, options: OpenOptions): Promise<Workspace> {
  const repo = await discoverRepo(input.workspace ?? process.cwd());
  const warnings: WarningJSON[] = [];
  const sessionDir = input.session_dir ?? (process.env['TUG_SESSION_DIR'] ? undefined : await configuredSessionDir(repo, warnings));
  const session = await openSession(repo, sessionDir, { refresh: !options.readOnlySession });
  const waitMs = input.no_wait ? 0 : input.wait_s !== undefined ? input.wait_s * 1000 : Number(process.env['TUG_LOCK_TIMEOUT_MS'] ?? DEFAULT_LOCK_WAIT_MS);
  const lock = options.lock ? await lockSession(session, waitMs, { signal: options.signal, onWait: options.onWait }) : null;
  for (const note of session.notes) warnings.push({ ...note });
  for (const stale of lock?.cleared ?? []) {
    warnings.push({ code: 'StaleLockCleared', message: `removed the session lock of tug pid ${stale.pid}, which is no longer running`, details: { ...stale } });
  }
  if (lock && options.recover !== false) {
    try {
      const recovery = await recoverInterruptedApply(repo, session);
      if (recovery) {
        warnings.push({
          code: 'InterruptedApplyRecovered',
          message: `an earlier apply was interrupted; tug ${recovery.action === 'finished' ? 'finished' : 'rolled back'} it`,
          details: { action: recovery.action, files: recovery.files },
        });
        for (const lockFile of recovery.cleared_locks) {
          warnings.push({ code: 'StaleLockCleared', message: `removed ${lockFile}, left by a tug that was killed`, details: { lock_file: lockFile } });
        }
      }
      for (const lockFile of await clearOrphanedGitLocks(repo)) {
        warnings.push({ code: 'StaleLockCleared', message: `removed ${lockFile}, left by a tug that was killed`, details: { lock_file: lockFile } });
      }
    } catch (error) {
      await lock.release();
      throw error;
    }
  }
  return { repo, session, warnings, close: async () => lock?.release() };
}

/** Opens a workspace, runs `body`, and always releases the lock. */
export async function withWorkspace<T>(input: CommonInput, options: OpenOptions, body: (ws: Workspace) => Promise<T>): Promise<T> {
  const ws = await openWorkspace(input, options);
  try {
    return await body(ws);
  } finally {
    await ws.close();
  }
}
