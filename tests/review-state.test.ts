// The review TUI's decisions as a pure state machine: keys in, state and effects out, no terminal involved.
import test from 'ava';
import { acceptedEdits, diffFile } from '../lib/core/change-groups.js';
import { buildPatchSet } from '../lib/core/patchset.js';
import { initialState, step, type Event, type KeyInfo, type ReviewState, type Step } from '../ui/review-state.js';
import { changeCaption, diffRows, HELP, keyBarLines, resultRows, REVIEW_KEYS, visibleRows } from '../ui/view-model.js';
import { CORE_AFTER, CORE_BEFORE, MAIN_AFTER, MAIN_BEFORE, SAMPLE_SUMMARY, sampleResult } from './helpers/review.js';

function press(state: ReviewState, ...keys: Array<string | KeyInfo>): Step {
  let current: Step = { state };
  for (const k of keys) {
    const event: Event = typeof k === 'string' ? { type: 'key', input: k, key: {} } : { type: 'key', input: '', key: k };
    current = step(current.state, event);
  }
  return current;
}

function opened(): ReviewState {
  const start = initialState('tug/rename/process_data-to-transform_data');
  return step(start.state, { type: 'opened', result: sampleResult() }).state;
}

test('change groups: contiguous changed lines, hunks with 3 lines of context, far changes in separate hunks', (t) => {
  const main = diffFile(MAIN_BEFORE, MAIN_AFTER);
  t.is(main.groups.length, 2);
  t.is(main.hunks.length, 2, 'eight unchanged lines apart: two hunks');
  t.deepEqual(main.hunks.map((h) => [h.oldStart, h.oldCount, h.newStart, h.newCount]), [[1, 4, 1, 4], [7, 4, 7, 4]]);
  const core = diffFile(CORE_BEFORE, CORE_AFTER);
  t.is(core.hunks.length, 1, 'close changes share a hunk');
  t.deepEqual(core.hunks[0]!.groups, [0, 1], 'a hunk can hold several groups, each decided on its own');
  t.is(core.groups[1]!.oldText, '    return process_data(3)\n');
  t.is(core.groups[1]!.newLine, 6);
});

test('accepted groups rebuild the file through the PatchSet, byte-exact (CRLF and UTF-8 kept)', (t) => {
  const before = 'a = "é"\r\nf()\r\nx\r\ny\r\nz\r\nw\r\nf()\r\n';
  const after = 'a = "é"\r\ng()\r\nx\r\ny\r\nz\r\nw\r\ng()\r\n';
  const { groups } = diffFile(before, after);
  t.is(groups.length, 2);
  const file = { path: 'a.py', bytes: Buffer.from(before), oid: 'x', mode: '100644' };
  const keepSecond = buildPatchSet(acceptedEdits('a.py', groups, (i) => i === 1), new Map([['a.py', file]]));
  t.is(Buffer.from(keepSecond.files[0]!.after).toString(), 'a = "é"\r\nf()\r\nx\r\ny\r\nz\r\nw\r\ng()\r\n');
  const all = buildPatchSet(acceptedEdits('a.py', groups, () => true), new Map([['a.py', file]]));
  t.is(Buffer.from(all.files[0]!.after).toString(), after);
});

const PER_EDIT_BEFORE = 'from core import process_data\nx = process_data(1)\ny = process_data(2)\nprint(process_data(x), "é", process_data(y))\nz = 1\n';
const PER_EDIT_AFTER = 'from core import transform_data\nx = transform_data(1)\ny = transform_data(2)\nprint(transform_data(x), "é", transform_data(y))\nz = 1\n';

function rebuild(before: string, keep: (group: number) => boolean): string {
  const { groups } = diffFile(before, before === PER_EDIT_BEFORE ? PER_EDIT_AFTER : before);
  const file = { path: 'a.py', bytes: Buffer.from(before), oid: 'x', mode: '100644' };
  return Buffer.from(buildPatchSet(acceptedEdits('a.py', groups, keep), new Map([['a.py', file]])).files[0]?.after ?? Buffer.from(before)).toString();
}

test('per edit: adjacent changed lines are one decision each, and so is each of several edits within one line', (t) => {
  const { groups, hunks } = diffFile(PER_EDIT_BEFORE, PER_EDIT_AFTER);
  t.is(hunks.length, 1);
  t.deepEqual(
    groups.map((g) => [g.oldLine, g.oldText, g.newText]),
    [
      [1, 'from core import process_data\n', 'from core import transform_data\n'],
      [2, 'x = process_data(1)\n', 'x = transform_data(1)\n'],
      [3, 'y = process_data(2)\n', 'y = transform_data(2)\n'],
      [4, 'process_data', 'transform_data'],
      [4, 'process_data', 'transform_data'],
    ],
  );
  const bytes = Buffer.from(PER_EDIT_BEFORE);
  t.deepEqual([groups[3]!.start, groups[4]!.start], [76, 99], 'byte offsets (the é before the second call site is two bytes)');
  t.true(groups.every((g) => bytes.subarray(g.start, g.end).toString() === g.oldText));
  const lines = hunks[0]!.lines.filter((l) => l.kind !== 'context');
  t.deepEqual(
    lines.map((l) => `${l.kind === 'removed' ? '-' : '+'}${l.groups!.join(',')}`),
    ['-0', '+0', '-1', '+1', '-2', '+2', '-3,4', '+3,4'],
    'each line pair is shown together, - then +',
  );
  t.deepEqual(lines[7]!.segments, [{ text: 'print(' }, { text: 'transform_data', group: 3 }, { text: '(x), "é", ' }, { text: 'transform_data', group: 4 }, { text: '(y))' }]);
  t.is(rebuild(PER_EDIT_BEFORE, (g) => g !== 2 && g !== 4), 'from core import transform_data\nx = transform_data(1)\ny = process_data(2)\nprint(transform_data(x), "é", process_data(y))\nz = 1\n');
  t.is(rebuild(PER_EDIT_BEFORE, () => true), PER_EDIT_AFTER);
});

test('per edit: runs that do not pair up line by line, changed line endings and rewritten lines stay one decision', (t) => {
  t.is(diffFile('a\nold1\nold2\nb\n', 'a\nnew\nb\n').groups.length, 1, 'two lines became one');
  t.is(diffFile('f(a, a)\r\n', 'f(b, b)\n').groups.length, 1, 'the line ending changed too');
  const rewritten = diffFile('a b c d e f g h i j k l m n o p q r\n', 'A b C d E f G h I j K l M n O p Q r\n');
  t.is(rewritten.groups.length, 1, 'more than eight separate edits: one decision for the line');
  t.is(rewritten.hunks[0]!.lines[0]!.segments, undefined);
  const crlf = diffFile('f(a, a)\r\n', 'f(b, b)\r\n');
  t.deepEqual(crlf.groups.map((g) => [g.start, g.end, g.newText]), [[2, 3, 'b'], [5, 6, 'b']]);
});

test('per edit: j visits each edit of a line; the row shows [~] when some are kept and the caption names the edit', (t) => {
  const result = sampleResult();
  result.files = [{ path: 'a.py', status: 'modified', diff: diffFile(PER_EDIT_BEFORE, PER_EDIT_AFTER), splittable: true }];
  let s = step(initialState(result.branch).state, { type: 'opened', result }).state;
  s = press(s, 'j', 'j', 'j', 'j').state;
  t.is(s.group, 4, 'the second call site on line 4');
  t.is(changeCaption(s), 'change 5/5  line 4  "process_data" -> "transform_data"  kept');
  s = press(s, ' ').state;
  t.deepEqual(s.decisions, [[true, true, true, true, false]]);
  t.is(changeCaption(s), 'change 5/5  line 4  "process_data" -> "transform_data"  rejected');
  const rows = diffRows(result.files[0], s.decisions[0]!, s.group).filter((r) => r.groups?.includes(4));
  t.deepEqual(rows.map((r) => r.text), ['>[~] -print(process_data(x), "é", process_data(y))', '>    +print(transform_data(x), "é", transform_data(y))']);
  t.deepEqual(
    rows[1]!.segments!.map((seg) => [seg.text, seg.accepted, seg.current]),
    [['print(', undefined, undefined], ['transform_data', true, false], ['(x), "é", ', undefined, undefined], ['transform_data', false, true], ['(y))', undefined, undefined]],
  );
  t.is(rows[1]!.prefix, '>    +');
  s = press(s, 'k', ' ').state;
  t.deepEqual(s.decisions, [[true, true, true, false, false]]);
  t.is(diffRows(result.files[0], s.decisions[0]!, s.group).find((r) => r.groups?.includes(4))!.text.slice(0, 4), '>[ ]');
});

test('opening a result accepts every change and puts the cursor on the first one', (t) => {
  const state = opened();
  t.is(state.screen, 'review');
  t.deepEqual(state.decisions, [[true, true], [true, true]]);
  t.deepEqual([state.file, state.group, state.focus], [0, 0, 'diff']);
});

test('j/k walk the changes across files; n/p jump hunks; tab and h/l switch panes', (t) => {
  let s = opened();
  s = press(s, 'j').state;
  t.deepEqual([s.file, s.group], [0, 1]);
  s = press(s, 'j').state;
  t.deepEqual([s.file, s.group], [1, 0], 'j crosses into the next file');
  s = press(s, 'j', 'j').state;
  t.deepEqual([s.file, s.group], [1, 1], 'stops at the last change');
  t.is(s.message?.tone, 'info');
  s = press(s, { upArrow: true }, 'k').state;
  t.deepEqual([s.file, s.group], [0, 1]);
  s = press(s, 'p').state;
  t.deepEqual([s.file, s.group], [0, 0], 'p: previous hunk');
  s = press(s, 'n', 'n').state;
  t.deepEqual([s.file, s.group], [1, 0], 'n: next hunk, across files; the two core.py groups share one hunk');
  s = press(s, { tab: true }).state;
  t.is(s.focus, 'files');
  s = press(s, 'k').state;
  t.deepEqual([s.file, s.group], [0, 0], 'in the files pane j/k move by file');
  s = press(s, 'l').state;
  t.is(s.focus, 'diff');
});

test('space toggles one change; a/d decide a whole file; space in the files pane flips the file', (t) => {
  let s = press(opened(), 'j', ' ').state;
  t.deepEqual(s.decisions, [[true, false], [true, true]]);
  s = press(s, ' ').state;
  t.deepEqual(s.decisions, [[true, true], [true, true]]);
  s = press(s, 'd').state;
  t.deepEqual(s.decisions, [[false, false], [true, true]]);
  s = press(s, 'a').state;
  t.deepEqual(s.decisions, [[true, true], [true, true]]);
  s = press(s, { tab: true }, 'j', ' ').state;
  t.deepEqual(s.decisions, [[true, true], [false, false]]);
  s = press(s, ' ').state;
  t.deepEqual(s.decisions, [[true, true], [true, true]]);
});

test('v, c, m and x ask the kernel with the current decisions and block keys until it answers', (t) => {
  for (const [key, type] of [['v', 'verify'], ['c', 'commit'], ['m', 'merge'], ['x', 'apply']] as const) {
    const s = press(opened(), ' ');
    const next = press(s.state, key);
    t.is(next.effect?.type, type);
    t.deepEqual((next.effect as { decisions: boolean[][] }).decisions, [[false, true], [true, true]]);
    t.truthy(next.state.busy);
    const blocked = press(next.state, 'j', 'q');
    t.is(blocked.effect, undefined, 'busy: no effect, not even quit');
    t.deepEqual([blocked.state.file, blocked.state.group], [0, 0]);
  }
});

test('a committed subset replaces the result; a failed check shows its output until a key; u takes actions back in order', (t) => {
  let s = press(opened(), ' ', 'c').state;
  const fewer = sampleResult('d'.repeat(40));
  fewer.files[0]!.diff = diffFile(MAIN_BEFORE, MAIN_AFTER.replace('import transform_data', 'import process_data'));
  s = step(s, {
    type: 'outcome',
    effect: 'commit',
    outcome: { ok: true, message: 'committed 3 of 4', result: fewer, undo: { kind: 'commit', branch: fewer.branch, from: fewer.commit, to: 'c'.repeat(40), label: 'the review commit' } },
  }).state;
  t.is(s.busy, null);
  t.is(s.result?.commit, 'd'.repeat(40));
  t.deepEqual(s.decisions, [[true], [true, true]], 'the new tip holds only accepted changes, all kept');
  t.deepEqual(s.log, ['committed 3 of 4']);

  s = press(s, 'x').state;
  const failed = { status: 'failed' as const, mode: 'tests' as const, checks: [{ name: 'tests', status: 'failed' as const, output: 'E assert 1 == 2', duration_ms: 0 }] };
  s = step(s, { type: 'outcome', effect: 'apply', outcome: { ok: false, message: 'verification failed', verification: failed } }).state;
  t.is(s.verification?.checks[0]?.output, 'E assert 1 == 2');
  t.is(s.message?.tone, 'error');
  s = press(s, 'j').state;
  t.is(s.verification, null, 'any key closes the output');
  t.deepEqual([s.file, s.group], [0, 0], '…without moving');

  const undo = press(s, 'u');
  t.deepEqual(undo.effect, { type: 'undo', entry: { kind: 'commit', branch: fewer.branch, from: fewer.commit, to: 'c'.repeat(40), label: 'the review commit' } });
  s = step(undo.state, { type: 'outcome', effect: 'undo', outcome: { ok: true, message: 'undone', result: sampleResult() } }).state;
  t.deepEqual(s.undo, []);
  t.is(press(s, 'u').effect, undefined, 'nothing left to undo');
});

test('kernel errors are shown with code and hint; ? opens help and any key closes it; q quits', (t) => {
  let s = press(opened(), 'm').state;
  s = step(s, { type: 'failed', effect: 'merge', error: { code: 'DirtyWorkingTree', message: 'cannot merge', hint: 'commit first' } }).state;
  t.is(s.message?.text, 'DirtyWorkingTree: cannot merge (commit first)');
  s = press(s, '?').state;
  t.true(s.help);
  s = press(s, 'q').state;
  t.false(s.help, 'q closes help rather than quitting');
  t.deepEqual(press(s, 'q').effect, { type: 'quit' });
});

test('the list: j/k and enter open a branch; esc goes back from a result opened there', (t) => {
  const start = initialState();
  t.deepEqual(start.effect, { type: 'list' });
  let s = step(start.state, { type: 'listed', results: [{ branch: 'tug/a', commit: 'a', operation: 'o', symbol: 's', base: 'b', files: 1, verification: 'passed (syntax)', createdAt: '', steps: 1 }] }).state;
  const open = press(s, { return: true });
  t.deepEqual(open.effect, { type: 'open', branch: 'tug/a' });
  s = step(open.state, { type: 'opened', result: sampleResult() }).state;
  t.deepEqual(press(s, { escape: true }).effect, { type: 'list' });
  t.is(press(opened(), { escape: true }).effect, undefined, 'opened directly: nothing to go back to');
});

test('the diff pane marks decisions and the cursor, and scrolls to keep the current change in view', (t) => {
  const file = sampleResult().files[1]!;
  const rows = diffRows(file, [true, false], 1);
  t.deepEqual(
    rows.map((r) => r.text),
    [
      '@@ -1,6 +1,6 @@',
      ' [x] -def process_data(x):',
      '     +def transform_data(x):',
      '          return x * 2',
      '      ',
      '      ',
      '      def more():',
      '>[ ] -    return process_data(3)',
      '>    +    return transform_data(3)',
    ],
  );
  const { rows: shown } = visibleRows(rows, 4);
  t.true(shown.some((r) => r.current), 'the current change is visible in a short pane');
  t.is(shown[shown.length - 1]!.text, '>    +    return transform_data(3)');
  t.true(keyBarLines(REVIEW_KEYS, 80).every((l) => l.length <= 80));
  t.is(keyBarLines(REVIEW_KEYS, 80).length, 2);
  t.true(HELP.every(([key, what]) => `${key.padEnd(14)} ${what}`.length <= 80), 'help fits 80 columns');
});

test('the list says how many logged steps built a branch when there were several', (t) => {
  const now = Date.parse(SAMPLE_SUMMARY.createdAt) + 7_200_000;
  t.is(resultRows([SAMPLE_SUMMARY], 0, now)[1]!.text, '    rename-symbol  process_data -> transform_data  base bbbbbbb  2 files  passed (syntax)');
  t.is(resultRows([{ ...SAMPLE_SUMMARY, steps: 5 }], 0, now)[1]!.text, '    rename-symbol  process_data -> transform_data  base bbbbbbb  2 files  passed (syntax)  5 steps');
  t.is(resultRows([SAMPLE_SUMMARY], 0, now)[0]!.text, `> ${SAMPLE_SUMMARY.branch}  (2h ago)`);
});

test('an incomplete subset refused by the kernel asks first: y sends it again confirmed, any other key cancels', (t) => {
  const incomplete = {
    rejected: [{ file: 'main.py', line: 10, old_text: 'print(process_data(2))', new_text: 'print(transform_data(2))' }],
    kept: [{ file: 'main.py', line: 1, old_text: 'from pkg.core import process_data', new_text: 'from pkg.core import transform_data' }],
    message: 'incomplete rename-symbol: 1 rejected change(s) (main.py:10) still names `process_data`',
  };
  for (const [key, action] of [['c', 'commit'], ['m', 'merge'], ['x', 'apply']] as const) {
    const asked = press(opened(), 'j', ' ', key);
    t.is(asked.effect?.type, action);
    const refused = step(asked.state, { type: 'outcome', effect: action, outcome: { ok: false, message: incomplete.message, incomplete } }).state;
    t.deepEqual(refused.confirm?.incomplete, incomplete);
    t.regex(refused.message?.text ?? '', /^y keeps this incomplete subset anyway, any other key cancels: incomplete rename-symbol/);
    const yes = press(refused, 'y');
    t.like(yes.effect, { type: action, confirmIncomplete: true, decisions: [[true, false], [true, true]] });
    t.is(yes.state.confirm, null);
    const no = press(refused, 'n');
    t.is(no.effect, undefined);
    t.is(no.state.confirm, null);
    t.regex(no.state.message?.text ?? '', /^cancelled: the incomplete subset was not/);
  }
  const verified = step(press(opened(), ' ', 'v').state, { type: 'outcome', effect: 'verify', outcome: { ok: false, message: `verification (syntax) passed for 3 of 4 changes, but ${incomplete.message}`, incomplete } }).state;
  t.is(verified.confirm, null, 'v only reports; nothing to confirm');
});
