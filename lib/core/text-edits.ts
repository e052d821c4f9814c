// Text-level edit requests for the file tools: exact-once replacement, whole-file rewrites as minimal line edits, line-ending care.
import { diffArrays } from 'diff';
import { TugError } from './errors.js';
import type { EditRequest } from './patchset.js';
import { utf8Length } from './text.js';

export interface TextStyle {
  /** The file's line break: CRLF when its first line break is one. */
  eol: '\n' | '\r\n';
  bom: boolean;
}

export function textStyle(text: string): TextStyle {
  const firstBreak = text.indexOf('\n');
  return { eol: firstBreak > 0 && text[firstBreak - 1] === '\r' ? '\r\n' : '\n', bom: text.startsWith('\uFEFF') };
}

/** Agents write LF; in a CRLF file every line break they write becomes CRLF (seed 001 gap 15: preserve on write). */
export function conformEol(text: string, style: TextStyle): string {
  return style.eol === '\r\n' ? text.replace(/\r?\n/g, '\r\n') : text;
}

/** A whole new content for an existing file, in its line-ending style and with its BOM kept. */
export function conformContent(content: string, style: TextStyle): string {
  const body = conformEol(content, style);
  return style.bom && !body.startsWith('\uFEFF') ? `\uFEFF${body}` : body;
}

export interface Match {
  line: number;
  col: number;
}

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) found.push(at);
  return found;
}

function positionAt(text: string, index: number): Match {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  const col = utf8Length(before.slice(before.lastIndexOf('\n') + 1)) + 1;
  return { line, col };
}

/**
 * The edit that replaces the one occurrence of `oldText` in `text`. No occurrence: TextNotFound with
 * lines that look alike; several: AmbiguousMatch with every location.
 */
export function replaceOnce(file: string, text: string, oldText: string, newText: string): EditRequest {
  const style = textStyle(text);
  let needle = conformEol(oldText, style);
  let replacement = conformEol(newText, style);
  let found = occurrences(text, needle);
  if (found.length === 0 && needle !== oldText) {
    // A file with mixed line breaks: the text as given may still match.
    found = occurrences(text, oldText);
    if (found.length > 0) (needle = oldText), (replacement = newText);
  }
  if (found.length === 0) {
    throw new TugError('TextNotFound', `old_text does not occur in ${file}`, { details: { path: file, similar: similarLines(text, oldText) } });
  }
  if (found.length > 1) {
    const matches = found.map((index) => positionAt(text, index));
    const where = matches.map((m) => `${m.line}:${m.col}`).join(', ');
    throw new TugError('AmbiguousMatch', `old_text occurs ${found.length} times in ${file} (at ${where}); it must match exactly once`, { details: { path: file, matches } });
  }
  const start = utf8Length(text.slice(0, found[0]));
  return { file, span: { start, end: start + utf8Length(needle) }, old_text: needle, new_text: replacement };
}

/** Lines that equal the first line of `oldText` once whitespace is ignored: the usual near miss. */
function similarLines(text: string, oldText: string): Array<{ line: number; text: string }> {
  const squash = (s: string) => s.replace(/\s+/g, '');
  const probe = squash(oldText.split('\n').find((l) => l.trim()) ?? '');
  if (!probe) return [];
  const lines = text.split('\n');
  const out: Array<{ line: number; text: string }> = [];
  for (const [i, line] of lines.entries()) {
    if (squash(line).includes(probe)) out.push({ line: i + 1, text: line.replace(/\r$/, '') });
    if (out.length === 5) break;
  }
  return out;
}

/**
 * A rewrite as line-level edits (the smallest diff), so the PatchSet and the commit show only what changed. Lines are
 * compared without their line break's CR, and a line that stays keeps its own bytes: a file with mixed line endings
 * keeps each untouched line's ending, byte for byte, whatever ending the caller wrote it back with.
 */
export function rewriteEdits(file: string, before: string, after: string): EditRequest[] {
  const oldLines = linesOf(before);
  const newLines = linesOf(after);
  const key = (line: string) => (line.endsWith('\r\n') ? `${line.slice(0, -2)}\n` : line);
  const edits: EditRequest[] = [];
  let offset = 0;
  let oldAt = 0;
  let newAt = 0;
  let pending: { start: number; old: string; next: string } | null = null;
  const flush = () => {
    if (pending) edits.push({ file, span: { start: pending.start, end: pending.start + utf8Length(pending.old) }, old_text: pending.old, new_text: pending.next });
    pending = null;
  };
  for (const part of diffArrays(oldLines.map(key), newLines.map(key))) {
    const count = part.count ?? part.value.length;
    if (!part.added && !part.removed) {
      flush();
      for (const line of oldLines.slice(oldAt, oldAt + count)) offset += utf8Length(line);
      oldAt += count;
      newAt += count;
      continue;
    }
    pending ??= { start: offset, old: '', next: '' };
    if (part.removed) {
      const removed = oldLines.slice(oldAt, oldAt + count).join('');
      pending.old += removed;
      offset += utf8Length(removed);
      oldAt += count;
    } else {
      pending.next += newLines.slice(newAt, newAt + count).join('');
      newAt += count;
    }
  }
  flush();
  return edits;
}

/** Lines with their line breaks (the last may have none). */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}
