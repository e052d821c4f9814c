// Reads a command's input file (`--file`, `--args -`) with limits: a regular file or stdin, at most INPUT_LIMIT bytes,
// so `--file /dev/zero`, a FIFO nobody writes or a runaway pipe is a clear error instead of a hang or an out-of-memory.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { constants } from 'node:fs';
import path from 'node:path';
import { TugError } from '../core/errors.js';

/** 64 MiB: a 50,000-edit patchset is under 5 MiB. */
export const INPUT_LIMIT = 64 * 1024 * 1024;

/** The text of `file` ('-' is stdin), relative to `cwd`; InvalidArgument for anything but a regular file or a stream under the limit. */
export function readInputText(file: string, cwd: string, argument: string, limit = INPUT_LIMIT): string {
  if (file === '-') return readCapped(0, '-', argument, limit);
  const target = path.resolve(cwd, file);
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; the type check below refuses it anyway.
    fd = openSync(target, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new TugError('FileNotFound', `cannot read ${argument} ${file}`, { details: { path: file, reason: String((error as Error).message ?? error) } });
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) {
      const kind = info.isDirectory() ? 'a directory' : info.isCharacterDevice() ? 'a device' : info.isFIFO() ? 'a pipe' : info.isSocket() ? 'a socket' : 'not a regular file';
      throw invalid(file, argument, `${file} is ${kind}; give a regular file or - for stdin`, 'not a regular file');
    }
    if (info.size > limit) throw invalid(file, argument, `${file} is ${info.size} bytes, over the ${limit}-byte limit`, 'too large');
    return readCapped(fd, file, argument, limit);
  } finally {
    closeSync(fd);
  }
}

function readCapped(fd: number, name: string, argument: string, limit: number): string {
  const chunks: Buffer[] = [];
  let total = 0;
  const buffer = Buffer.alloc(1024 * 1024);
  for (;;) {
    let read: number;
    try {
      read = readSync(fd, buffer, 0, buffer.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // stdin set non-blocking by its producer: wait briefly and retry, like a blocking read would.
      if (code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      if (code === 'EOF') break;
      throw new TugError('InvalidArgument', `cannot read ${argument} ${name}: ${(error as Error).message}`, { details: { argument, reason: 'unreadable' } });
    }
    if (read === 0) break;
    total += read;
    if (total > limit) throw invalid(name, argument, `${argument} ${name} is over the ${limit}-byte limit`, 'too large');
    chunks.push(Buffer.from(buffer.subarray(0, read)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

function invalid(file: string, argument: string, message: string, reason: string): TugError {
  return new TugError('InvalidArgument', message, { details: { argument, path: file, reason } });
}
