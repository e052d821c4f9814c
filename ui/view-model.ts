// What each pane shows, as plain rows computed from the state, so layout and scrolling are tested without a terminal.
import type { ResultSummary, ReviewFile } from '../lib/review/types.js';
import type { ReviewState } from './review-state.js';

export type RowKind = 'hunk' | 'context' | 'removed' | 'added';

export interface DiffRow {
  kind: RowKind;
  /** Gutter + sign + text, ready to print (truncated by the renderer). */
  text: string;
  group?: number;
  accepted?: boolean;
  current?: boolean;
}

/** The diff of one file: hunk headers, then each line with a gutter saying `>` (cursor) and [x]/[ ] (decision) on a group's first line. */
export function diffRows(file: ReviewFile | undefined, decisions: readonly boolean[], cursorGroup: number): DiffRow[] {
  if (!file) return [];
  const rows: DiffRow[] = [];
  if (file.oldPath) rows.push({ kind: 'hunk', text: `renamed ${file.oldPath} -> ${file.path}` });
  if (!file.splittable && file.diff.groups.length === 0) rows.push({ kind: 'hunk', text: `${file.status} (not a text change; always kept)` });
  for (const hunk of file.diff.hunks) {
    rows.push({ kind: 'hunk', text: `@@ -${hunk.oldStart},${hunk.oldCount} +${hunk.newStart},${hunk.newCount} @@` });
    let previousGroup: number | undefined;
    for (const line of hunk.lines) {
      if (line.kind === 'context') {
        rows.push({ kind: 'context', text: `      ${line.text}` });
        previousGroup = undefined;
        continue;
      }
      const group = line.group!;
      const accepted = decisions[group] !== false;
      const current = group === cursorGroup;
      const first = group !== previousGroup;
      previousGroup = group;
      const gutter = first ? `${current ? '>' : ' '}[${accepted ? 'x' : ' '}] ` : `${current ? '>' : ' '}    `;
      rows.push({ kind: line.kind, text: `${gutter}${line.kind === 'removed' ? '-' : '+'}${line.text}`, group, accepted, current });
    }
  }
  return rows;
}

/** The slice of rows to draw in `height` lines: the cursor's group in view with its hunk header when it fits. */
export function visibleRows(rows: readonly DiffRow[], height: number): { rows: DiffRow[]; offset: number } {
  if (rows.length <= height || height <= 0) return { rows: rows.slice(0, Math.max(0, height)), offset: 0 };
  const first = rows.findIndex((r) => r.current);
  if (first === -1) return { rows: rows.slice(0, height), offset: 0 };
  let last = first;
  while (rows[last + 1]?.current) last += 1;
  let header = first;
  while (header > 0 && rows[header]!.kind !== 'hunk') header -= 1;
  let offset = last - header + 1 <= height ? header : first;
  if (offset + height <= last) offset = last - height + 1;
  offset = Math.max(0, Math.min(offset, rows.length - height));
  return { rows: rows.slice(offset, offset + height), offset };
}

export interface FileRow {
  text: string;
  current: boolean;
  state: 'all' | 'some' | 'none' | 'fixed';
}

export function fileRows(state: ReviewState): FileRow[] {
  return (state.result?.files ?? []).map((file, i) => {
    const decisions = state.decisions[i] ?? [];
    const kept = decisions.filter(Boolean).length;
    const mark = decisions.length === 0 ? 'fixed' : kept === decisions.length ? 'all' : kept === 0 ? 'none' : 'some';
    const box = { all: '[x]', some: '[~]', none: '[ ]', fixed: '[=]' }[mark];
    const counts = decisions.length === 0 ? '' : ` ${kept}/${decisions.length}`;
    return { text: `${i === state.file ? '>' : ' '}${box} ${file.path}${counts}`, current: i === state.file, state: mark };
  });
}

/** Two lines per result: where it is and when, then what it is. */
export function resultRows(results: readonly ResultSummary[], cursor: number, now: number): Array<{ text: string; current: boolean; detail: boolean }> {
  return results.flatMap((r, i) => [
    { text: `${i === cursor ? '>' : ' '} ${r.branch}  (${ageOf(r.createdAt, now)})`, current: i === cursor, detail: false },
    { text: `    ${r.operation}  ${r.symbol}  base ${r.base.slice(0, 7)}  ${r.files} file${r.files === 1 ? '' : 's'}  ${r.verification}`, current: i === cursor, detail: true },
  ]);
}

export function ageOf(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}

export const REVIEW_KEYS: ReadonlyArray<[string, string]> = [
  ['j/k', 'move'],
  ['tab', 'pane'],
  ['n/p', 'hunk'],
  ['space', 'accept/reject'],
  ['a/d', 'file'],
  ['v', 'verify'],
  ['c', 'commit'],
  ['m', 'merge'],
  ['x', 'apply'],
  ['u', 'undo'],
  ['?', 'help'],
  ['q', 'quit'],
];

export const LIST_KEYS: ReadonlyArray<[string, string]> = [
  ['j/k', 'move'],
  ['enter', 'open'],
  ['r', 'refresh'],
  ['?', 'help'],
  ['q', 'quit'],
];

/** Key hints packed into lines no wider than `width`. */
export function keyBarLines(keys: ReadonlyArray<[string, string]>, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const [key, what] of keys) {
    const item = `${key} ${what}`;
    if (line && line.length + 2 + item.length > width) {
      lines.push(line);
      line = item;
    } else line = line ? `${line}  ${item}` : item;
  }
  if (line) lines.push(line);
  return lines;
}

export const HELP: ReadonlyArray<[string, string]> = [
  ['j / k, arrows', 'next/previous change (diff pane) or file (files pane)'],
  ['tab, h / l', 'switch between the files pane and the diff pane'],
  ['n / p', 'next / previous hunk, across files'],
  ['space', 'accept/reject the change under the cursor (files pane: the file)'],
  ['a / d', 'accept / reject every change in the file'],
  ['v', 're-verify the accepted changes in a sandbox; commits nothing'],
  ['c', 'commit the accepted changes on the branch, verified again'],
  ['m', 'git merge the accepted changes into your branch (clean tree)'],
  ['x', 'write the accepted changes into the working tree, all or none'],
  ['u', 'undo the last commit, merge or apply made here'],
  ['esc', 'back to the list of tug/ branches'],
  ['?', 'this help (any key closes it)'],
  ['q', 'quit'],
];
