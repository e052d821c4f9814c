// One tug at a time per session: an O_EXCL lock file holding the owner's pid, with stale-lock takeover.
import { rmSync } from 'node:fs';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../core/errors.js';

export interface LockOptions {
  /** Give up after this long; 0 means fail at once (--no-wait). */
  waitMs: number;
  pollMs?: number;
}

export interface LockHandle {
  release(): Promise<void>;
}

interface LockOwner {
  pid: number;
  started_at: string;
}

/**
 * Callers in one process (an MCP server or a library user running tool calls concurrently) queue here first:
 * the lock file holds a pid, so it cannot tell two callers of the same process apart.
 */
const queues = new Map<string, Promise<void>>();

async function inProcessTurn(key: string, waitMs: number, started: number): Promise<() => void> {
  const previous = queues.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), Math.max(0, waitMs - (Date.now() - started)));
  });
  const outcome = await Promise.race([previous.then(() => 'turn' as const), timedOut]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    // Giving up keeps the queue intact: whoever waits behind us still waits for `previous` first.
    release();
    throw new TugError('SessionLocked', 'session is in use by another call in this process', {
      details: { lock_holder_pid: process.pid, waited_seconds: Math.round((Date.now() - started) / 1000), lock_file: path.join(key, 'lock') },
    });
  }
  return release;
}

export async function acquireLock(sessionDir: string, options: LockOptions): Promise<LockHandle> {
  const started = Date.now();
  const releaseTurn = await inProcessTurn(path.resolve(sessionDir), options.waitMs, started);
  try {
    const handle = await acquireFileLock(sessionDir, options, started);
    return {
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
  const owner: LockOwner = { pid: process.pid, started_at: new Date().toISOString() };
  const draft = `${lockFile}.${process.pid}`;
  await writeFile(draft, JSON.stringify(owner));
  try {
    for (;;) {
      try {
        await link(draft, lockFile);
        return handleFor(lockFile);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await readOwner(lockFile);
      if (holder === null || !isAlive(holder.pid)) {
        await takeOverStale(lockFile, holder);
        continue;
      }
      const waited = Date.now() - started;
      if (waited >= options.waitMs) {
        throw new TugError('SessionLocked', `session is in use by another tug (pid ${holder.pid})`, {
          details: { lock_holder_pid: holder.pid, waited_seconds: Math.round(waited / 1000), lock_file: lockFile },
        });
      }
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
    }
  } finally {
    await rm(draft, { force: true });
  }
}

function handleFor(lockFile: string): LockHandle {
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

function isAlive(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes a lock whose owner is gone, but only if it is still the same stale lock. */
async function takeOverStale(lockFile: string, seen: LockOwner | null): Promise<void> {
  const now = await readOwner(lockFile);
  if (JSON.stringify(now) === JSON.stringify(seen)) await rm(lockFile, { force: true });
}
