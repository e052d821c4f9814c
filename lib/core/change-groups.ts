// Splits a file's change into reviewable units (runs of changed lines) and rebuilds a change from the units a person kept.
import { diffLines } from 'diff';
import type { EditRequest } from './patchset.js';

/** One contiguous run of removed and/or added lines: the unit a reviewer accepts or rejects. */
export interface ChangeGroup {
  /** Position of the group in its file, from 0. */
  index: number;
  /** 1-based line where the run starts in the old and in the new file. */
  oldLine: number;
  newLine: number;
  /** Byte span of the replaced lines in the old file, and the exact bytes there and after. */
  start: number;
  end: number;
  oldText: string;
  newText: string;
}

export interface DiffLine {
  kind: 'context' | 'removed' | 'added';
  /** The line without its end-of-line characters. */
  text: string;
  /** 1-based line numbers; absent on the side the line is not on. */
  oldLine?: number;
  newLine?: number;
  /** The ChangeGroup a removed or added line belongs to. */
  group?: number;
}

/** A hunk as `git diff` shows it: changed runs with up to `context` lines around them, close runs merged. */
export interface Hunk {
  index: number;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  lines: DiffLine[];
  /** Indexes of the ChangeGroups in this hunk, in order. */
  groups: number[];
}

export interface FileDiff {
  groups: ChangeGroup[];
  hunks: Hunk[];
}

const LINE = /[^\n]*\n|[^\n]+$/g;

function splitLines(text: string): string[] {
  return text.match(LINE) ?? [];
}

function display(line: string): string {
  return line.replace(/\r?\n$/, '');
}

export function diffFile(before: string, after: string, context = 3): FileDiff {
  const groups: ChangeGroup[] = [];
  const lines: DiffLine[] = [];
  let offset = 0;
  let oldLine = 1;
  let newLine = 1;
  let open: ChangeGroup | null = null;
  for (const part of diffLines(before, after)) {
    const partLines = splitLines(part.value);
    if (!part.added && !part.removed) {
      open = null;
      for (const line of partLines) {
        lines.push({ kind: 'context', text: display(line), oldLine: oldLine++, newLine: newLine++ });
        offset += Buffer.byteLength(line);
      }
      continue;
    }
    if (open === null) {
      open = { index: groups.length, oldLine, newLine, start: offset, end: offset, oldText: '', newText: '' };
      groups.push(open);
    }
    for (const line of partLines) {
      if (part.removed) {
        lines.push({ kind: 'removed', text: display(line), oldLine: oldLine++, group: open.index });
        offset += Buffer.byteLength(line);
        open.oldText += line;
        open.end = offset;
      } else {
        lines.push({ kind: 'added', text: display(line), newLine: newLine++, group: open.index });
        open.newText += line;
      }
    }
  }
  return { groups, hunks: hunksOf(lines, context) };
}

function hunksOf(lines: DiffLine[], context: number): Hunk[] {
  const ranges: Array<[number, number]> = [];
  lines.forEach((line, i) => {
    if (line.kind === 'context') return;
    const from = Math.max(0, i - context);
    const to = Math.min(lines.length - 1, i + context);
    const last = ranges[ranges.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else ranges.push([from, to]);
  });
  return ranges.map(([from, to], index) => {
    const slice = lines.slice(from, to + 1);
    const oldSide = slice.filter((l) => l.kind !== 'added');
    const newSide = slice.filter((l) => l.kind !== 'removed');
    return {
      index,
      oldStart: oldSide[0]?.oldLine ?? startBefore(lines, from, 'oldLine'),
      oldCount: oldSide.length,
      newStart: newSide[0]?.newLine ?? startBefore(lines, from, 'newLine'),
      newCount: newSide.length,
      lines: slice,
      groups: [...new Set(slice.flatMap((l) => (l.group === undefined ? [] : [l.group])))],
    };
  });
}

/** A hunk with nothing on one side is numbered after the last line before it, like git does. */
function startBefore(lines: DiffLine[], from: number, side: 'oldLine' | 'newLine'): number {
  for (let i = from - 1; i >= 0; i--) {
    const n = lines[i]![side];
    if (n !== undefined) return n;
  }
  return 0;
}

/** The edits that turn the old file into the old file plus only the accepted groups. */
export function acceptedEdits(file: string, groups: readonly ChangeGroup[], accepted: (index: number) => boolean): EditRequest[] {
  return groups
    .filter((g) => accepted(g.index))
    .map((g) => ({ file, span: { start: g.start, end: g.end }, old_text: g.oldText, new_text: g.newText }));
}
