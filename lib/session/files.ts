// Small durable-file helpers for the session dir: every write is temp file + fsync + rename.
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { TugError } from '../core/errors.js';

/** errno values that mean "this directory cannot take a write", as opposed to a bug. */
const NOT_WRITABLE = new Set(['EROFS', 'EACCES', 'EPERM', 'ENOSPC', 'EDQUOT', 'ENOTDIR', 'EEXIST']);

/** SessionNotWritable for a write the filesystem refused (read-only, permissions, full); other errors unchanged. */
export function sessionWriteError(error: unknown, where: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (!code || !NOT_WRITABLE.has(code)) return error;
  return new TugError('SessionNotWritable', `cannot write the session dir ${where} (${code})`, {
    details: { path: where, reason: code },
    cause: error,
  });
}

const errno = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

/**
 * `mkdir -p` for the session dir, one level at a time. Node's recursive mkdir loops forever where the parent exists but
 * refuses new entries with ENOENT (`--session-dir /proc/tug`); here that is SessionNotWritable like any refused write.
 */
export async function makeSessionDir(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = path.resolve(dir); ; ) {
    try {
      if ((await stat(at)).isDirectory()) break;
      throw Object.assign(new Error(`${at} is not a directory`), { code: 'ENOTDIR' });
    } catch (error) {
      if (errno(error) !== 'ENOENT') throw sessionWriteError(error, dir);
      const parent = path.dirname(at);
      if (parent === at) break;
      missing.push(at);
      at = parent;
    }
  }
  for (const level of missing.reverse()) {
    try {
      await mkdir(level);
    } catch (error) {
      if (errno(error) === 'EEXIST' && (await stat(level).catch(() => undefined))?.isDirectory()) continue;
      // ENOENT although the parent exists: a filesystem (procfs, sysfs) that takes no new directories.
      const refused = errno(error) === 'ENOENT' ? Object.assign(new Error(`cannot create ${level}`), { code: 'EPERM' }) : error;
      throw sessionWriteError(refused, dir);
    }
  }
}

export async function writeFileAtomic(file: string, data: string | Uint8Array, mode?: number): Promise<void> {
  const temp = `${file}.tmp-${process.pid}-${randomBytes(3).toString('hex')}`;
  try {
    await makeSessionDir(path.dirname(file));
    const handle = await open(temp, 'w', mode ?? 0o644);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    // A half-written temp file (a full disk) must not stay behind.
    await rm(temp, { force: true }).catch(() => undefined);
    throw sessionWriteError(error, path.dirname(file));
  }
}

export async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Reads JSON written by tug; absent → undefined, unreadable → SessionCorrupt (never a stack trace). */
export async function readJson<T>(file: string): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new TugError('SessionCorrupt', `${file} is not valid JSON`, { details: { path: file, reason: String(error) }, cause: error });
  }
}

export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => null);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on directories; the rename itself is still atomic.
  } finally {
    await handle.close();
  }
}
