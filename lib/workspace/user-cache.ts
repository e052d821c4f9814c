// tug's directory in the user's cache (~/.cache/tug: V8 code caches, the Python launch memos), and how the code caches
// (the CLI bundle's, the TypeScript compiler's) are written: replaced atomically, and old ones pruned, since every
// install path, Node flag set and compiler file names its own file and nothing else would ever remove those a moved
// or upgraded install left behind.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** tug's directory in the user's cache (`$XDG_CACHE_HOME/tug`, else `~/.cache/tug`), or null when no absolute one is known. */
export function userCacheDir(env: NodeJS.ProcessEnv): string | null {
  const base = env['XDG_CACHE_HOME'] || (os.homedir() ? path.join(os.homedir(), '.cache') : '');
  if (!base || !path.isAbsolute(base)) return null;
  return path.join(base, 'tug');
}

/** Where code caches go: userCacheDir, or null when `TUG_CODE_CACHE=0` turns them off. */
export function codeCacheDir(env: NodeJS.ProcessEnv): string | null {
  return env['TUG_CODE_CACHE'] === '0' ? null : userCacheDir(env);
}

/** Caches kept beside a newly written one: the most recently used this many (touchCodeCache), none unused for MAX_AGE_MS. */
const KEEP = 24;
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;

/**
 * Writes `header` (one line) and V8's bytes as `file`, best effort and atomic: a reader sees the old file or the whole
 * new one, and a cache that cannot be written is simply not used. Then prunes the other caches of the directory.
 */
export function writeCodeCacheFile(file: string, header: string, data: Buffer): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(temp, Buffer.concat([Buffer.from(`${header}\n`, 'latin1'), data]));
    renameSync(temp, file);
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // Not even a directory to remove it from (the cache home is a file): nothing was written.
    }
    return;
  }
  pruneCodeCaches(path.dirname(file), file);
}

/**
 * Marks `file` as used now (its modification time), so that pruning, which keeps the newest, keeps the caches in use
 * however long ago they were written. Best effort.
 */
export function touchCodeCache(file: string): void {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // A cache that cannot be touched may be pruned sooner: it is made again then.
  }
}

/**
 * Removes the `.v8cache` files of `dir` beyond the KEEP most recently used or unused for MAX_AGE_MS, and temporary
 * files a killed writer left (older than a day), never `kept`. Runs only after a write, which is rare (a new build,
 * Node or command); a cache still in use that it removes is made again by its next run.
 */
export function pruneCodeCaches(dir: string, kept: string, now = Date.now()): void {
  try {
    pruneIn(dir, kept, now);
  } catch {
    // Best effort: a file that cannot be removed stays.
  }
}

function pruneIn(dir: string, kept: string, now: number): void {
  const names = readdirSync(dir);
  const caches: Array<{ file: string; mtime: number }> = [];
  for (const name of names) {
    const file = path.join(dir, name);
    if (file === kept) continue;
    const cache = name.endsWith('.v8cache');
    if (!cache && !/\.v8cache\.\d+\.tmp$/.test(name)) continue;
    const mtime = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
    if (mtime === undefined) continue;
    if (cache) caches.push({ file, mtime });
    else if (now - mtime > 24 * 3600 * 1000) rmSync(file, { force: true });
  }
  caches.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : 1));
  caches.forEach(({ file, mtime }, i) => {
    if (i >= KEEP - 1 || now - mtime > MAX_AGE_MS) rmSync(file, { force: true });
  });
}
