// One tug at a time per session: an O_EXCL lock file holding the owner's pid, with stale-lock takeover.
import { rmSync } from 'node:fs';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import { throwIfCancelled } from '../core/cancel.js';
import { sessionWriteError } from './files.js';
import { ownerAlive, processStart } from './owner.js';

export interface LockOptions {
  /** Give up after this long; 0 means fail at once (--no-wait). */
  waitMs: number;
  pollMs?: number;
  /** A cancel while waiting ends the wait with Cancelled. */
  signal?: AbortSignal | undefined;
  /** Told once, when another call holds the lock and this one starts waiting (a front door shows it as progress). */
  onWait?: ((message: string) => void) | undefined;
}

export interface LockHandle {
  release(): Promise<void>;
  /** Owners of stale locks (a killed tug) this acquisition removed, for a warning. */
  cleared: Array<{ pid: number; lock_file: string }>;
}

interface LockOwner {
  pid: number;
  started_at: string;
  /** Process start time of `pid` (see owner.ts): a live pid with another start time is not the owner. */
  start?: string | null;
}

/**
 * Callers in one process (an MCP server or a library user running tool calls concurrently) queue here first:
 * the lock file holds a pid, so it cannot tell two callers of the same process apart.
 */
const queues = new Map<string, Promise<void>>();
/** Callers holding or waiting for each key, counted synchronously so "is anyone ahead of me" needs no await. */
const callers = new Map<string, number>();

async function inProcessTurn(key: string, options: LockOptions, started: number): Promise<() => void> {
  const { waitMs } = options;
  const busy = (callers.get(key) ?? 0) > 0;
  callers.set(key, (callers.get(key) ?? 0) + 1);
  const previous = queues.get(key) ?? Promise.resolve();
  let resolveMine!: () => void;
  const mine = new Promise<void>((resolve) => (resolveMine = resolve));
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    const left = (callers.get(key) ?? 1) - 1;
    if (left > 0) callers.set(key, left);
    else callers.delete(key);
    resolveMine();
  };
  const tail = previous.then(() => mine);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), Math.max(0, waitMs - (Date.now() - started)));
  });
  let cancelled: () => void = () => undefined;
  const aborted = new Promise<'cancelled'>((resolve) => {
    cancelled = () => resolve('cancelled');
    options.signal?.addEventListener('abort', cancelled, { once: true });
    if (options.signal?.aborted) cancelled();
  });
  const turn = previous.then(() => 'turn' as const);
  // Decided before awaiting: a race against an already settled promise always finds `turn` one microtask late, so it
  // would report every first caller as queued.
  const first = busy ? ('busy' as const) : await turn;
  if (first === 'busy' && waitMs > 0) options.onWait?.(`waiting for the session lock (another call in this process holds it; up to ${Math.round(waitMs / 1000)}s)`);
  const outcome = first === 'turn' ? first : await Promise.race([turn, timedOut, aborted]);
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', cancelled);
  if (outcome === 'cancelled') {
    release();
    throwIfCancelled(options.signal, 'while waiting for the session lock');
  }
  if (outcome === 'timeout') {
    // Giving up keeps the queue intact: whoever waits behind us still waits for `previous` first.
    release();
    throw new TugError('SessionLocked', `session is in use by another call in this process${waitNote(waitMs)}`, {
      details: { lock_holder_pid: process.pid, waited_seconds: Math.round((Date.now() - started) / 1000), lock_file: path.join(key, 'lock') },
    });
  }
  return release;
}

export async function acquireLock(sessionDir: string, options: LockOptions): Promise<LockHandle> {
  const started = Date.now();
  const releaseTurn = await inProcessTurn(path.resolve(sessionDir), options, started);
  try {
    const handle = await acquireFileLock(sessionDir, options, started);
    return {
      cleared: handle.cleared,
      async release() {
        try {
          await handle.release();
        } finally {
          releaseTurn();
        }
      },
    };
  } catch (error) {
    releaseTurn();
    throw error;
  }
}

async function acquireFileLock(sessionDir: string, options: LockOptions, started: number): Promise<LockHandle> {
  const lockFile = path.join(sessionDir, 'lock');
  const owner: LockOwner = { pid: process.pid, started_at: new Date().toISOString(), start: processStart(process.pid) };
  const draft = `${lockFile}.${process.pid}`;
  const cleared: LockHandle['cleared'] = [];
  let told = false;
  try {
    await writeFile(draft, JSON.stringify(owner));
  } catch (error) {
    throw sessionWriteError(error, sessionDir);
  }
  try {
    for (;;) {
      try {
        await link(draft, lockFile);
        return handleFor(lockFile, cleared);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw sessionWriteError(error, sessionDir);
      }
      const holder = await readOwner(lockFile);
      if (holder === null || !isAlive(holder)) {
        if ((await takeOverStale(lockFile, holder)) && holder) cleared.push({ pid: holder.pid, lock_file: lockFile });
        continue;
      }
      const waited = Date.now() - started;
      throwIfCancelled(options.signal, 'while waiting for the session lock');
      if (!told && waited < options.waitMs) {
        told = true;
        options.onWait?.(`waiting for the session lock (held by tug pid ${holder.pid}; up to ${Math.round(options.waitMs / 1000)}s)`);
      }
      if (waited >= options.waitMs) {
        throw new TugError('SessionLocked', `session is in use by another tug (pid ${holder.pid})${waitNote(options.waitMs)}`, {
          details: { lock_holder_pid: holder.pid, waited_seconds: Math.round(waited / 1000), lock_file: lockFile },
        });
      }
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
    }
  } finally {
    await rm(draft, { force: true });
  }
}

function handleFor(lockFile: string, cleared: LockHandle['cleared']): LockHandle {
  let released = false;
  const releaseSync = () => {
    if (released) return;
    released = true;
    try {
      // Synchronous on purpose: this also runs from the process 'exit' handler.
      rmSync(lockFile);
    } catch {
      // Already gone: nothing to release.
    }
  };
  process.once('exit', releaseSync);
  return {
    cleared,
    async release() {
      process.removeListener('exit', releaseSync);
      releaseSync();
    },
  };
}

async function readOwner(lockFile: string): Promise<LockOwner | null> {
  try {
    const owner = JSON.parse(await readFile(lockFile, 'utf8')) as LockOwner;
    return Number.isInteger(owner.pid) ? owner : null;
  } catch {
    return null;
  }
}

/** The lock file names this process only if a crash of an earlier process with our pid left it: that owner is gone. */
function isAlive(owner: LockOwner): boolean {
  if (owner.pid === process.pid) return false;
  return ownerAlive(owner);
}

/** Removes a lock whose owner is gone, but only if it is still the same stale lock; true when it removed it. */
async function takeOverStale(lockFile: string, seen: LockOwner | null): Promise<boolean> {
  const now = await readOwner(lockFile);
  if (JSON.stringify(now) !== JSON.stringify(seen)) return false;
  await rm(lockFile, { force: true });
  return true;
}

/** A lock wait that ran out says which deadline it was and how to raise it (a busy machine, a long apply). */
function waitNote(waitMs: number): string {
  return waitMs > 0 ? `; waited ${Math.round(waitMs / 1000)}s (the session lock wait; raise it with TUG_LOCK_TIMEOUT_MS)` : '';
}
