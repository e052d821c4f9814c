// The PatchSet IR: anchored edits resolved against snapshot content, checked for conflicts, and applied all-or-nothing in memory.
import { TugError } from './errors.js';
import { sha256 } from './hash.js';
import { lineStarts, offsetOf, positionOf, sameBytes, utf8 } from './text.js';

/** An edit as an agent or an analyzer proposes it, before it is checked against the file. */
export interface EditRequest {
  file: string;
  span?: { start: number; end: number };
  line?: number;
  col?: number;
  old_text: string;
  new_text: string;
  /** sha256 of the expected old bytes, as a stronger anchor than the text itself. */
  old_hash?: string;
  /** Text expected right before / after the span; lets a stale span be found again, once, nearby. */
  context?: { before?: string; after?: string };
}

/** A file as the snapshot holds it. */
export interface SourceFile {
  path: string;
  bytes: Uint8Array;
  oid: string;
  mode: string;
}

export interface ResolvedEdit {
  file: string;
  start: number;
  end: number;
  oldText: string;
  newText: string;
  line: number;
  col: number;
  /** Position of the edit in the request, kept for stable tie-breaking and error reports. */
  index: number;
}

/** A file that moves as part of the change (module renames); its edits are anchored to the old path. */
export interface FileMove {
  from: string;
  to: string;
}

export interface FileChange {
  path: string;
  /** Where the file ends up, when it moves. */
  newPath?: string;
  /** Whole-file changes (file tools, apply_patch); absent for an edited or moved file. */
  status?: 'added' | 'deleted';
  mode: string;
  /** The blob the file holds at the base; null for a file the change creates. */
  oldOid: string | null;
  before: Uint8Array;
  after: Uint8Array;
  edits: ResolvedEdit[];
}

export interface PatchSet {
  edits: ResolvedEdit[];
  files: FileChange[];
  moves: FileMove[];
}

/** How far from the stated span a context anchor may be found again (bytes, either side). */
export const CONTEXT_WINDOW = 4096;

/** Resolves every edit against its file, rejects overlaps, and computes each file's new bytes. */
export interface BuildOptions {
  /**
   * Caller-written edits (apply-patchset): the same edit twice is an error naming both, never silently merged.
   * Analyzers may propose one occurrence twice (two routes to one reference), so they keep the merge.
   */
  rejectDuplicates?: boolean;
}

export function buildPatchSet(requests: readonly EditRequest[], files: ReadonlyMap<string, SourceFile>, moves: readonly FileMove[] = [], options: BuildOptions = {}): PatchSet {
  // Line starts once per file: computing them per edit made many edits in one file quadratic.
  const startsOf = new Map<string, number[]>();
  const resolved = requests.map((request, index) => {
    const file = requireFile(files, request.file);
    let starts = startsOf.get(file.path);
    if (!starts) startsOf.set(file.path, (starts = lineStarts(file.bytes)));
    return resolveEdit(request, index, file, starts);
  });
  const sorted = resolved.sort(compareEdits);
  if (options.rejectDuplicates) rejectDuplicates(sorted);
  const edits = dedupe(sorted);
  rejectConflicts(edits);
  const moveOf = new Map(moves.map((m) => [m.from, m.to]));
  const groups = groupByFile(edits);
  for (const move of moves) if (!groups.has(move.from)) groups.set(move.from, []);
  const changes: FileChange[] = [];
  for (const [path, fileEdits] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const file = requireFile(files, path);
    const after = applyEdits(file.bytes, fileEdits);
    const newPath = moveOf.get(path);
    if (!sameBytes(after, file.bytes) || newPath !== undefined) {
      changes.push({ path, ...(newPath ? { newPath } : {}), mode: file.mode, oldOid: file.oid, before: file.bytes, after, edits: fileEdits });
    }
  }
  return { edits: edits.filter((e) => e.oldText !== e.newText), files: changes, moves: [...moves].sort((a, b) => (a.from < b.from ? -1 : 1)) };
}

function requireFile(files: ReadonlyMap<string, SourceFile>, path: string): SourceFile {
  const file = files.get(path);
  if (!file) throw new TugError('FileNotFound', `${path} is not in the snapshot`, { details: { path } });
  return file;
}

function resolveEdit(request: EditRequest, index: number, file: SourceFile, starts: number[]): ResolvedEdit {
  const oldBytes = utf8(request.old_text);
  const stated = statedSpan(request, index, file, starts, oldBytes.length);
  let start = stated.start;
  let end = stated.end;
  if (!anchorHolds(file.bytes, start, end, oldBytes, request.old_hash)) {
    const found = request.context ? searchContext(file, request, start, oldBytes) : null;
    if (found === null) {
      const actual = Buffer.from(file.bytes.subarray(start, Math.min(end, file.bytes.length))).toString('utf8');
      throw new TugError('AnchorMismatch', `edit ${index} does not match ${request.file} at bytes ${start}..${end}`, {
        details: { edit: describe(request, index), expected: request.old_text, actual },
      });
    }
    start = found;
    end = found + oldBytes.length;
  }
  if (splitsCharacter(file.bytes, start) || splitsCharacter(file.bytes, end)) {
    throw new TugError('InvalidPosition', `edit ${index} splits a UTF-8 character in ${request.file}`, {
      details: { edit: describe(request, index) },
    });
  }
  const { line, col } = positionOf(starts, start);
  return { file: request.file, start, end, oldText: request.old_text, newText: request.new_text, line, col, index };
}

function statedSpan(request: EditRequest, index: number, file: SourceFile, starts: number[], oldLength: number) {
  const lineCol = request.line !== undefined && request.col !== undefined ? lineColOffset(request, index, file, starts) : null;
  if (request.span) {
    const { start, end } = request.span;
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= file.bytes.length)) {
      throw new TugError('InvalidPosition', `edit ${index}: span ${start}..${end} is outside ${request.file} (${file.bytes.length} bytes)`, {
        details: { edit: describe(request, index), file_bytes: file.bytes.length },
      });
    }
    // Both given and different: which one the caller meant is a guess, so neither wins.
    if (lineCol !== null && lineCol !== start) {
      const at = positionOf(starts, start);
      throw new TugError('InvalidArgument', `edit ${index}: span ${start}..${end} starts at ${request.file}:${at.line}:${at.col}, not at line ${request.line} col ${request.col}`, {
        details: { argument: `edits[${index}]`, reason: 'span and line/col disagree', edit: describe(request, index), span_position: at },
      });
    }
    return { start, end };
  }
  if (lineCol !== null) return { start: lineCol, end: lineCol + oldLength };
  throw new TugError('InvalidArgument', `edit ${index} needs either span or line and col`, {
    details: { argument: `edits[${index}]`, reason: 'missing span or line/col' },
  });
}

/** Lines and columns count from 1; anything else, or past the file, is InvalidPosition (located only when printable). */
function lineColOffset(request: EditRequest, index: number, file: SourceFile, starts: number[]): number {
  const { line, col } = request as { line: number; col: number };
  const start = offsetOf(file.bytes, starts, line, col);
  if (start !== null) return start;
  const printable = Number.isSafeInteger(line) && Number.isSafeInteger(col) && line > 0 && col > 0;
  throw new TugError('InvalidPosition', `edit ${index}: ${request.file}:${line}:${col} is outside the file (${starts.length} lines; lines and columns start at 1)`, {
    details: { edit: describe(request, index), file_lines: starts.length },
    ...(printable ? { location: { file: request.file, line, col } } : {}),
  });
}

function anchorHolds(bytes: Uint8Array, start: number, end: number, oldBytes: Uint8Array, oldHash?: string): boolean {
  if (end > bytes.length || end - start !== oldBytes.length) return false;
  const slice = bytes.subarray(start, end);
  if (!sameBytes(slice, oldBytes)) return false;
  return oldHash === undefined || normalizeHash(oldHash) === sha256(slice);
}

function normalizeHash(hash: string): string {
  return hash.startsWith('sha256:') ? hash.slice('sha256:'.length) : hash;
}

/** Finds before+old+after within the window around the stated span; exactly one match or none. */
function searchContext(file: SourceFile, request: EditRequest, near: number, oldBytes: Uint8Array): number | null {
  const before = utf8(request.context?.before ?? '');
  const after = utf8(request.context?.after ?? '');
  const needle = Buffer.concat([before, oldBytes, after]);
  const haystack = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
  const lo = Math.max(0, near - CONTEXT_WINDOW - before.length);
  const hi = Math.min(haystack.length, near + CONTEXT_WINDOW + oldBytes.length + after.length);
  const matches: number[] = [];
  for (let at = haystack.indexOf(needle, lo); at !== -1 && at + needle.length <= hi; at = haystack.indexOf(needle, at + 1)) {
    matches.push(at + before.length);
    if (needle.length === 0) break;
  }
  if (matches.length > 1) {
    throw new TugError('AnchorMismatch', `edit anchor in ${request.file} matches ${matches.length} places`, {
      details: { edit: describe(request, -1), reason: 'ambiguous', matches },
    });
  }
  return matches[0] ?? null;
}

function splitsCharacter(bytes: Uint8Array, offset: number): boolean {
  const byte = bytes[offset];
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

function compareEdits(a: ResolvedEdit, b: ResolvedEdit): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.start - b.start || a.end - b.end || a.index - b.index;
}

function dedupe(edits: ResolvedEdit[]): ResolvedEdit[] {
  return edits.filter((e, i) => {
    const prev = edits[i - 1];
    return !(prev && prev.file === e.file && prev.start === e.start && prev.end === e.end && prev.newText === e.newText);
  });
}

function rejectDuplicates(sorted: ResolvedEdit[]): void {
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1]!;
    const b = sorted[i]!;
    if (a.file === b.file && a.start === b.start && a.end === b.end) {
      throw new TugError('InvalidArgument', `edits[${b.index}] repeats edits[${a.index}] (${a.file} bytes ${a.start}..${a.end}); give each change once`, {
        details: { argument: `edits[${b.index}]`, reason: 'duplicate edit', duplicates: [a.index, b.index] },
      });
    }
  }
}

/** Overlaps are errors, and so are two insertions at one point: their order would be a guess. */
function rejectConflicts(sorted: ResolvedEdit[]): void {
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1]!;
    const b = sorted[i]!;
    if (a.file !== b.file) continue;
    const overlap = b.start < a.end || (a.start === b.start && a.end === a.start && b.end === b.start);
    if (overlap) {
      throw new TugError('ConflictingEdits', `edits ${a.index} and ${b.index} overlap in ${a.file}`, {
        details: { conflicts: [toEditJSON(a), toEditJSON(b)] },
      });
    }
  }
}

function groupByFile(edits: ResolvedEdit[]): Map<string, ResolvedEdit[]> {
  const groups = new Map<string, ResolvedEdit[]>();
  for (const edit of edits) {
    const list = groups.get(edit.file) ?? [];
    list.push(edit);
    groups.set(edit.file, list);
  }
  return groups;
}

function applyEdits(bytes: Uint8Array, edits: ResolvedEdit[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let cursor = 0;
  for (const edit of edits) {
    parts.push(bytes.subarray(cursor, edit.start), utf8(edit.newText));
    cursor = edit.end;
  }
  parts.push(bytes.subarray(cursor));
  return Buffer.concat(parts);
}

function describe(request: EditRequest, index: number): Record<string, unknown> {
  return { index, file: request.file, span: request.span, line: request.line, col: request.col, old_text: request.old_text };
}

export interface EditJSON {
  file: string;
  span: { start: number; end: number };
  old_text: string;
  new_text: string;
  line: number;
  col: number;
}

export function toEditJSON(edit: ResolvedEdit): EditJSON {
  return { file: edit.file, span: { start: edit.start, end: edit.end }, old_text: edit.oldText, new_text: edit.newText, line: edit.line, col: edit.col };
}

export function summarize(patch: PatchSet): { files_changed: number; edits_count: number; bytes_added: number; bytes_removed: number } {
  let added = 0;
  let removed = 0;
  for (const e of patch.edits) {
    added += utf8(e.newText).length;
    removed += e.end - e.start;
  }
  for (const file of patch.files) {
    if (file.status === 'added') added += file.after.length;
    if (file.status === 'deleted') removed += file.before.length;
  }
  return { files_changed: patch.files.length, edits_count: patch.edits.length, bytes_added: added, bytes_removed: removed };
}
