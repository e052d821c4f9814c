// The single-file Python refactors (extract-variable, inline of a local): the worker computes byte-span edits with
// Python's own parser; a refusal comes back as data and becomes the TugError it names, located in the file.
import { TugError, type ErrorCode } from '../core/errors.js';
import type { EditRequest } from '../core/patchset.js';
import { lineStarts, offsetOf } from '../core/text.js';
import { askPython, type PythonSession } from './load-project.js';

/** The codes a refusal may carry; anything else is a worker bug. */
const REFUSALS: readonly ErrorCode[] = ['InvalidSelection', 'UnsafeRefactor', 'NameConflict', 'SymbolNotFound', 'SourceSyntaxError', 'InvalidArgument', 'UnsupportedOperation', 'ImportCycle'];

export interface Refusal {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

/**
 * A worker's refusal as the TugError it names, located at details.line/col in `file` (else in details.path, the
 * refusal's own file); a code no refactor refuses with is an InternalError. With `file`, the message names it.
 */
export function workerRefusal(refused: Refusal, file?: string): TugError {
  const { code, message, details } = refused;
  if (!REFUSALS.includes(code as ErrorCode)) return new TugError('InternalError', message, { details: { worker_code: code, ...details } });
  const where = file ?? (typeof details['path'] === 'string' ? details['path'] : undefined);
  const line = typeof details['line'] === 'number' ? details['line'] : undefined;
  const col = typeof details['col'] === 'number' ? details['col'] : undefined;
  return new TugError(code as ErrorCode, file ? `${file}: ${message}` : message, {
    details: file ? { path: file, ...details } : details,
    ...(where && line !== undefined && col !== undefined ? { location: { file: where, line, col } } : {}),
  });
}

interface WorkerEdit {
  span: [number, number];
  old_text: string;
  new_text: string;
}

type Answer<T> = (T & { edits: WorkerEdit[] }) | { refused: Refusal };

export interface LocalFile {
  path: string;
  bytes: Uint8Array;
}

/** Whether the file starts with a UTF-8 byte-order mark, which is no part of line 1's columns (as for Python). */
const hasBom = (bytes: Uint8Array) => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;

/** A 1-based line and byte column as an offset into the file, or InvalidPosition naming it. */
export function byteOffset(file: LocalFile, line: number, column: number): number {
  const starts = lineStarts(file.bytes);
  if (hasBom(file.bytes)) starts[0] = 3;
  const offset = offsetOf(file.bytes, starts, line, column);
  if (offset === null) {
    throw new TugError('InvalidPosition', `${file.path}:${line}:${column} is not inside the file`, { details: { path: file.path, line, col: column }, location: { file: file.path, line, col: column } });
  }
  return offset;
}

export async function askLocalRefactor<T extends object>(
  session: PythonSession,
  python: string | undefined,
  file: LocalFile,
  op: 'extract_variable' | 'extract_function' | 'inline_local',
  params: Record<string, unknown>,
): Promise<T & { edits: EditRequest[] }> {
  // The BOM stays in the text: the worker's byte offsets are then the file's (it skips the BOM for columns itself).
  const content = new TextDecoder('utf-8', { ignoreBOM: true }).decode(file.bytes);
  const answer = await askPython<Answer<T>>(session, python, op, { content, ...params });
  if ('refused' in answer) throw workerRefusal(answer.refused, file.path);
  const edits = answer.edits.map((e): EditRequest => ({ file: file.path, span: { start: e.span[0], end: e.span[1] }, old_text: e.old_text, new_text: e.new_text }));
  return { ...answer, edits };
}
