// The budgets of the file tools, in one place: how big a file they read, how much grep_file searches and for how
// long. Reaching one is LimitExceeded naming the limit, never a hang or an out-of-memory.
import { TugError } from '../../core/errors.js';

/** A single file a tool reads into memory (read_file, grep_file, edits): 32 MiB. */
export const FILE_SIZE_LIMIT = 32 * 1024 * 1024;
/** All files one grep_file call searches together: 256 MiB. */
export const GREP_BYTES_LIMIT = 256 * 1024 * 1024;
/** Wall time one grep_file call may search; TUG_GREP_TIME_LIMIT_MS overrides it (milliseconds). */
export function grepTimeLimitMs(): number {
  const raw = Number(process.env['TUG_GREP_TIME_LIMIT_MS']);
  return Number.isFinite(raw) && raw > 0 ? raw : 20_000;
}

export function limitExceeded(limit: string, message: string, details: Record<string, unknown> = {}): TugError {
  return new TugError('LimitExceeded', message, { details: { limit, ...details } });
}

/** Refuses a file over FILE_SIZE_LIMIT before its bytes are read. */
export function assertFileSize(shown: string, size: number): void {
  if (size > FILE_SIZE_LIMIT) {
    throw limitExceeded('file_size', `${shown} is ${size} bytes, over the ${FILE_SIZE_LIMIT}-byte limit for one file`, { path: shown, size, max: FILE_SIZE_LIMIT });
  }
}
