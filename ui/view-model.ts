// What each pane shows, as plain rows computed from the state, so layout and scrolling are tested without a terminal.
import type { ResultSummary, ReviewFile } from '../lib/review/types.js';
import type { ReviewState } from './review-state.js';

export type RowKind = 'hunk' | 'context' | 'removed' | 'added';

/** A piece of a row whose line holds several edits: the changed pieces carry their edit's decision. */
export interface RowSegment {
  text: string;
  accepted?: boolean;
  current?: boolean;
}

export interface DiffRow {
  kind: RowKind;
  /** Gutter + sign + text, ready to print (truncated by the renderer). */
  text: string;
  /** The row's edits (several when one line holds several). */
  groups?: number[];
  /** False when every edit on the row is rejected. */
  accepted?: boolean;
  current?: boolean;
  /** For a line with several edits: the gutter and sign, then the line in pieces (together they are `text`). */
  prefix?: string;
  segments?: RowSegment[];
}

/** [x] every edit kept, [ ] none, [~] some (a line holding several edits). */
function box(decisions: readonly boolean[], groups: readonly number[]): string {
  const kept = groups.filter((g) => decisions[g] !== false).length;
  return kept === groups.length ? '[x]' : kept === 0 ? '[ ]' : '[~]';
}

/**
 * The diff of one file: hunk headers, then each line with a gutter saying `>` (cursor) and [x]/[ ]/[~] (decision)
 * on the first line of each edit; on a line holding several edits, the edit under the cursor is also marked in the text.
 */
export function diffRows(file: ReviewFile | undefined, decisions: readonly boolean[], cursorGroup: number): DiffRow[] {
  if (!file) return [];
  const rows: DiffRow[] = [];
  if (file.oldPath) rows.push({ kind: 'hunk', text: `renamed ${file.oldPath} -> ${file.path}` });
  if (!file.splittable && file.diff.groups.length === 0) rows.push({ kind: 'hunk', text: `${file.status} (not a text change; always kept)` });
  for (const hunk of file.diff.hunks) {
    rows.push({ kind: 'hunk', text: `@@ -${hunk.oldStart},${hunk.oldCount} +${hunk.newStart},${hunk.newCount} @@` });
    let previous = '';
    for (const line of hunk.lines) {
      if (line.kind === 'context') {
        rows.push({ kind: 'context', text: `      ${line.text}` });
        previous = '';
        continue;
      }
      const groups = line.groups ?? [];
      const key = groups.join(',');
      const current = groups.includes(cursorGroup);
      const accepted = groups.some((g) => decisions[g] !== false);
      const gutter = key !== previous ? `${current ? '>' : ' '}${box(decisions, groups)} ` : `${current ? '>' : ' '}    `;
      previous = key;
      const prefix = `${gutter}${line.kind === 'removed' ? '-' : '+'}`;
      const row: DiffRow = { kind: line.kind, text: `${prefix}${line.text}`, groups, accepted, current };
      if (line.segments) {
        row.prefix = prefix;
        row.segments = line.segments.map((s) =>
          s.group === undefined ? { text: s.text } : { text: s.text, accepted: decisions[s.group] !== false, current: s.group === cursorGroup },
        );
      }
      rows.push(row);
    }
  }
  return rows;
}

/** One line about the edit under the cursor: where it is, what it changes, whether it is kept. */
export function changeCaption(state: ReviewState): string {
  const file = state.result?.files[state.file];
  const group = file?.diff.groups[state.group];
  if (!file || !group) return '';
  const total = file.diff.groups.length;
  const kept = (state.decisions[state.file] ?? [])[state.group] !== false;
  const bare = (text: string) => text.replace(/\r?\n$/, '');
  const short = (text: string) => !bare(text).includes('\n') && bare(text).trim().length <= 30;
  const what = short(group.oldText) && short(group.newText) ? `  ${JSON.stringify(bare(group.oldText).trim())} -> ${JSON.stringify(bare(group.newText).trim())}` : '';
  return `change ${state.group + 1}/${total}  line ${group.oldLine}${what}  ${kept ? 'kept' : 'rejected'}`;
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
    { text: `${i === cursor ? '>' : ' '} ${r.branch}  (${ageOf(r.createdAt, now)})${r.stale ? '  base moved: open it and press r to replay' : ''}`, current: i === cursor, detail: false },
    {
      text: `    ${r.operation}  ${r.symbol}  base ${r.base.slice(0, 7)}  ${r.files} file${r.files === 1 ? '' : 's'}  ${r.verification}${r.steps > 1 ? `  ${r.steps} steps` : ''}`,
      current: i === cursor,
      detail: true,
    },
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
  ['y', 'keep an incomplete subset anyway (asked after c, m or x)'],
  ['u', 'undo the last commit, merge or apply made here'],
  ['r', 'replay a branch whose base moved, as a new branch'],
  ['esc', 'back to the list of tug/ branches'],
  ['?', 'this help (any key closes it)'],
  ['q', 'quit'],
];
