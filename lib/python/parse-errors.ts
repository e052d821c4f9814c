// Files that do not parse: which ones a rename cannot ignore, and the SourceSyntaxError that names them.
import { TugError } from '../core/errors.js';
import type { Unparsable } from './worker-pool.js';

/** Whether a file's bytes hold the name as a whole word. */
export function mentions(bytes: Uint8Array | undefined, name: string): boolean {
  if (!bytes) return false;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${name}(?![\\p{L}\\p{N}_])`, 'u').test(text);
}

/** SourceSyntaxError for files that do not parse and that a rename cannot ignore (the first one is the error's place). */
export function unparsableError(files: Unparsable[], message: string): TugError {
  const first = files[0]!;
  return new TugError('SourceSyntaxError', message, {
    details: { file: first.path, line: first.line, col: first.col, message: first.message, files: files.map((u) => ({ file: u.path, line: u.line, col: u.col, message: u.message })) },
    location: { file: first.path, line: first.line ?? 1, col: first.col ?? 1 },
  });
}
