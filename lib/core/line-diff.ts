// A file's unified diff hunks in time linear in its size: the edits say which lines changed, so the line diff
// (Myers, quadratic in the number of changed lines when run over the whole file) only runs inside each edited region.
import { diffLines } from 'diff';
import type { FileChange } from './patchset.js';
import { lineStarts } from './text.js';

interface Part {
  lines: string[];
  added?: boolean;
  removed?: boolean;
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Below this many (lines × edits) the whole-file diff is cheap and kept, so small changes print exactly as before;
 * above it the two may align a moved line differently (both are valid diffs of the same change).
 */
export const WHOLE_FILE_DIFF_LIMIT = 200_000;

/**
 * The hunk lines (`@@ … @@` and body, newline-terminated) of an edited file, with 3 lines of context, grouped as
 * `formatPatch(structuredPatch(…))` groups them; null when the change is not described by byte edits or is small
 * enough for the whole-file diff.
 */
export function editedHunks(change: FileChange, limit = WHOLE_FILE_DIFF_LIMIT): string | null {
  if (change.status !== undefined || change.edits.length === 0) return null;
  if (lineStarts(change.before).length * change.edits.length <= limit) return null;
  return formatHunks(toHunks(partsOf(change), 3));
}

/**
 * The hunk lines of a change that rewrites lines in place (the line count kept, each changed line's new text found
 * nowhere in the old file and its old text nowhere in the new one: a rename's usual change), or null. Then the only
 * lines a line diff can match are the unchanged ones, each to itself, so the whole-file diff is exactly: each run of
 * changed lines removed, then added. Built directly it is what `formatPatch(structuredPatch(…))` prints, without the
 * diff's search (about 10 ms of a 501-file rename's response, more in a cold process).
 */
export function inPlaceHunks(before: string, after: string): string | null {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  if (oldLines.length !== newLines.length) return null;
  const changed: number[] = [];
  for (let i = 0; i < oldLines.length; i++) if (oldLines[i] !== newLines[i]) changed.push(i);
  if (changed.length === 0) return null;
  const oldSet = new Set(oldLines);
  const newSet = new Set(newLines);
  for (const i of changed) if (newSet.has(oldLines[i]!) || oldSet.has(newLines[i]!)) return null;
  const parts: Part[] = [];
  let at = 0;
  for (let k = 0; k < changed.length; ) {
    let end = k;
    while (end + 1 < changed.length && changed[end + 1] === changed[end]! + 1) end++;
    const from = changed[k]!;
    const to = changed[end]! + 1;
    if (from > at) parts.push({ lines: oldLines.slice(at, from) });
    parts.push({ lines: oldLines.slice(from, to), removed: true }, { lines: newLines.slice(from, to), added: true });
    at = to;
    k = end + 1;
  }
  if (at < oldLines.length) parts.push({ lines: oldLines.slice(at) });
  return formatHunks(toHunks(parts, 3));
}

/** Equal runs and per-region line diffs, in file order, adjacent equal runs merged. */
function partsOf(change: FileChange): Part[] {
  const before = change.before;
  const starts = lineStarts(before);
  const lineCount = before.length === 0 ? 0 : before[before.length - 1] === 0x0a ? starts.length - 1 : starts.length;
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const startOfLine = (line: number): number => (line >= lineCount ? before.length : starts[line]!);
  const parts: Part[] = [];
  const push = (part: Part) => {
    if (part.lines.length === 0) return;
    const last = parts[parts.length - 1];
    if (last && !last.added && !last.removed && !part.added && !part.removed) last.lines.push(...part.lines);
    else parts.push(part);
  };
  let line = 0;
  let i = 0;
  const edits = change.edits;
  while (i < edits.length) {
    // A region: whole lines from the first edit's line through the line holding the first byte after the last edit.
    const first = Math.min(lineOf(edits[i]!.start), lineCount);
    let last = Math.min(lineOf(edits[i]!.end) + 1, lineCount);
    let j = i + 1;
    while (j < edits.length && Math.min(lineOf(edits[j]!.start), lineCount) < last) {
      last = Math.max(last, Math.min(lineOf(edits[j]!.end) + 1, lineCount));
      j++;
    }
    const from = startOfLine(first);
    const to = startOfLine(last);
    push({ lines: splitLines(decoder.decode(before.subarray(startOfLine(line), from))) });
    const pieces: Uint8Array[] = [];
    let cursor = from;
    for (let k = i; k < j; k++) {
      pieces.push(before.subarray(cursor, edits[k]!.start), Buffer.from(edits[k]!.newText, 'utf8'));
      cursor = edits[k]!.end;
    }
    pieces.push(before.subarray(cursor, to));
    const oldText = decoder.decode(before.subarray(from, to));
    const newText = decoder.decode(Buffer.concat(pieces));
    for (const piece of diffLines(oldText, newText)) {
      const part: Part = { lines: splitLines(piece.value) };
      if (piece.added) part.added = true;
      if (piece.removed) part.removed = true;
      push(part);
    }
    line = last;
    i = j;
  }
  push({ lines: splitLines(decoder.decode(before.subarray(startOfLine(line)))) });
  return parts;
}

interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** jsdiff's grouping of a line diff into hunks, step for step, so the output matches what it printed before. */
function toHunks(diff: Part[], context: number): Hunk[] {
  diff.push({ lines: [] });
  const contextLines = (lines: string[]) => lines.map((entry) => ' ' + entry);
  const hunks: Hunk[] = [];
  let oldRangeStart = 0;
  let newRangeStart = 0;
  let curRange: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (let i = 0; i < diff.length; i++) {
    const current = diff[i]!;
    const lines = current.lines;
    if (current.added || current.removed) {
      if (!oldRangeStart) {
        const prev = diff[i - 1];
        oldRangeStart = oldLine;
        newRangeStart = newLine;
        if (prev) {
          curRange = context > 0 ? contextLines(prev.lines.slice(-context)) : [];
          oldRangeStart -= curRange.length;
          newRangeStart -= curRange.length;
        }
      }
      for (const line of lines) curRange.push((current.added ? '+' : '-') + line);
      if (current.added) newLine += lines.length;
      else oldLine += lines.length;
    } else {
      if (oldRangeStart) {
        if (lines.length <= context * 2 && i < diff.length - 2) {
          for (const line of contextLines(lines)) curRange.push(line);
        } else {
          const contextSize = Math.min(lines.length, context);
          for (const line of contextLines(lines.slice(0, contextSize))) curRange.push(line);
          hunks.push({
            oldStart: oldRangeStart,
            oldLines: oldLine - oldRangeStart + contextSize,
            newStart: newRangeStart,
            newLines: newLine - newRangeStart + contextSize,
            lines: curRange,
          });
          oldRangeStart = 0;
          newRangeStart = 0;
          curRange = [];
        }
      }
      oldLine += lines.length;
      newLine += lines.length;
    }
  }
  return hunks;
}

function formatHunks(hunks: Hunk[]): string {
  const out: string[] = [];
  for (const hunk of hunks) {
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    out.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`);
    for (const line of hunk.lines) {
      if (line.endsWith('\n')) out.push(line.slice(0, -1));
      else out.push(line, '\\ No newline at end of file');
    }
  }
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}

/** Lines with their trailing newline kept (the last one may lack it); '' has none. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n').map((line) => `${line}\n`);
  if (text.endsWith('\n')) lines.pop();
  else lines.push(lines.pop()!.slice(0, -1));
  return lines;
}
