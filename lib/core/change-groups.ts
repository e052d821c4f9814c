// Splits a file's change into reviewable units, one per edit where it can tell them apart, and rebuilds a change from the units a person kept.
import { diffLines, diffWordsWithSpace } from 'diff';
import type { EditRequest } from './patchset.js';

/**
 * One edit a reviewer accepts or rejects: a changed line pair, one of several edits within a line, or a run of
 * changed lines that does not pair up line by line.
 */
export interface ChangeGroup {
  /** Position of the group in its file, from 0. */
  index: number;
  /** 1-based line where the edit starts in the old and in the new file. */
  oldLine: number;
  newLine: number;
  /** Byte span of the replaced text in the old file, and the exact bytes there and after. */
  start: number;
  end: number;
  oldText: string;
  newText: string;
}

/** A piece of a line that holds several edits: changed pieces name their group. */
export interface Segment {
  text: string;
  group?: number;
}

export interface DiffLine {
  kind: 'context' | 'removed' | 'added';
  /** The line without its end-of-line characters. */
  text: string;
  /** 1-based line numbers; absent on the side the line is not on. */
  oldLine?: number;
  newLine?: number;
  /** The ChangeGroups on a removed or added line: one, or each edit of a line that holds several. */
  groups?: number[];
  /** For a line that holds several edits, its text in pieces (joined, they are `text`). */
  segments?: Segment[];
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

/** More separate edits than this on one line (a rewritten line, not a rename) and the line is decided as a whole. */
const MAX_EDITS_PER_LINE = 8;

const LINE = /[^\n]*\n|[^\n]+$/g;

function splitLines(text: string): string[] {
  return text.match(LINE) ?? [];
}

function display(line: string): string {
  return line.replace(/\r?\n$/, '');
}

function eolOf(line: string): string {
  return line.slice(display(line).length);
}

interface OldLine {
  text: string;
  line: number;
  start: number;
}

interface NewLine {
  text: string;
  line: number;
}

/** Builds the groups and display lines of a file, one run of changed lines (between unchanged ones) at a time. */
class FileDiffer {
  readonly groups: ChangeGroup[] = [];
  readonly lines: DiffLine[] = [];

  addGroup(fields: Omit<ChangeGroup, 'index'>): number {
    this.groups.push({ index: this.groups.length, ...fields });
    return this.groups.length - 1;
  }

  /**
   * A run of removed and added lines between unchanged ones. When both sides have as many lines, line i became
   * line i' and each pair is its own edit, shown together (- then +); otherwise the run is one edit.
   */
  run(removed: OldLine[], added: NewLine[], at: { start: number; oldLine: number; newLine: number }): void {
    if (removed.length === 0 && added.length === 0) return;
    if (removed.length !== added.length) {
      const group = this.addGroup({
        oldLine: removed[0]?.line ?? at.oldLine,
        newLine: added[0]?.line ?? at.newLine,
        start: at.start,
        end: at.start + removed.reduce((n, l) => n + Buffer.byteLength(l.text), 0),
        oldText: removed.map((l) => l.text).join(''),
        newText: added.map((l) => l.text).join(''),
      });
      for (const l of removed) this.lines.push({ kind: 'removed', text: display(l.text), oldLine: l.line, groups: [group] });
      for (const l of added) this.lines.push({ kind: 'added', text: display(l.text), newLine: l.line, groups: [group] });
      return;
    }
    removed.forEach((old, i) => this.pair(old, added[i]!));
  }

  private pair(old: OldLine, now: NewLine): void {
    const edits = eolOf(old.text) === eolOf(now.text) ? wordEdits(display(old.text), display(now.text)) : [];
    if (edits.length < 2 || edits.length > MAX_EDITS_PER_LINE) {
      const group = this.addGroup({ oldLine: old.line, newLine: now.line, start: old.start, end: old.start + Buffer.byteLength(old.text), oldText: old.text, newText: now.text });
      this.lines.push({ kind: 'removed', text: display(old.text), oldLine: old.line, groups: [group] });
      this.lines.push({ kind: 'added', text: display(now.text), newLine: now.line, groups: [group] });
      return;
    }
    const groups = edits.map((e) =>
      this.addGroup({ oldLine: old.line, newLine: now.line, start: old.start + e.oldOffset, end: old.start + e.oldOffset + Buffer.byteLength(e.oldText), oldText: e.oldText, newText: e.newText }),
    );
    const pieces = (side: 'old' | 'new'): Segment[] =>
      edits.flatMap((e, i) => {
        const before = side === 'old' ? e.oldBefore : e.newBefore;
        const changed: Segment = { text: side === 'old' ? e.oldText : e.newText, group: groups[i]! };
        return before ? [{ text: before }, changed] : [changed];
      });
    const tail = (side: 'old' | 'new', text: string): Segment[] => {
      const last = edits[edits.length - 1]!;
      const rest = text.slice((side === 'old' ? last.oldEnd : last.newEnd));
      return rest ? [{ text: rest }] : [];
    };
    const oldText = display(old.text);
    const newText = display(now.text);
    this.lines.push({ kind: 'removed', text: oldText, oldLine: old.line, groups, segments: [...pieces('old'), ...tail('old', oldText)] });
    this.lines.push({ kind: 'added', text: newText, newLine: now.line, groups, segments: [...pieces('new'), ...tail('new', newText)] });
  }
}

interface WordEdit {
  /** Unchanged text between the previous edit (or the line start) and this one, on each side. */
  oldBefore: string;
  newBefore: string;
  oldText: string;
  newText: string;
  /** Byte offset of the edit in the old line. */
  oldOffset: number;
  /** UTF-16 index just past the edit on each side. */
  oldEnd: number;
  newEnd: number;
}

/** The separate edits that turn one line into another: changed words with unchanged text between them. */
function wordEdits(before: string, after: string): WordEdit[] {
  const edits: WordEdit[] = [];
  let oldAt = 0;
  let newAt = 0;
  let oldBefore = '';
  let newBefore = '';
  let open: WordEdit | null = null;
  for (const part of diffWordsWithSpace(before, after)) {
    if (!part.added && !part.removed) {
      open = null;
      oldBefore += part.value;
      newBefore += part.value;
      oldAt += part.value.length;
      newAt += part.value.length;
      continue;
    }
    if (open === null) {
      open = { oldBefore, newBefore, oldText: '', newText: '', oldOffset: Buffer.byteLength(before.slice(0, oldAt)), oldEnd: oldAt, newEnd: newAt };
      edits.push(open);
      oldBefore = '';
      newBefore = '';
    }
    if (part.removed) {
      open.oldText += part.value;
      oldAt += part.value.length;
      open.oldEnd = oldAt;
    } else {
      open.newText += part.value;
      newAt += part.value.length;
      open.newEnd = newAt;
    }
  }
  return edits;
}

export function diffFile(before: string, after: string, context = 3): FileDiff {
  const differ = new FileDiffer();
  let offset = 0;
  let oldLine = 1;
  let newLine = 1;
  let removed: OldLine[] = [];
  let added: NewLine[] = [];
  let at = { start: 0, oldLine: 1, newLine: 1 };
  const flush = () => {
    differ.run(removed, added, at);
    removed = [];
    added = [];
  };
  for (const part of diffLines(before, after)) {
    const partLines = splitLines(part.value);
    if (!part.added && !part.removed) {
      flush();
      for (const line of partLines) {
        differ.lines.push({ kind: 'context', text: display(line), oldLine: oldLine++, newLine: newLine++ });
        offset += Buffer.byteLength(line);
      }
      at = { start: offset, oldLine, newLine };
      continue;
    }
    for (const line of partLines) {
      if (part.removed) {
        removed.push({ text: line, line: oldLine++, start: offset });
        offset += Buffer.byteLength(line);
      } else {
        added.push({ text: line, line: newLine++ });
      }
    }
  }
  flush();
  return { groups: differ.groups, hunks: hunksOf(differ.lines, context) };
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
      groups: [...new Set(slice.flatMap((l) => l.groups ?? []))],
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
