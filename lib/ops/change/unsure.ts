// The order of `unsure` entries in every result: by file, then line, then column, so the same input prints the same JSON.
import type { z } from 'zod';
import type { Unsure } from '../../core/schemas.js';

export type UnsureJSON = z.infer<typeof Unsure>;

export function orderUnsure(entries: readonly UnsureJSON[]): UnsureJSON[] {
  return [...entries].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col));
}
