// The review TUI's components rendered by ink-testing-library: layout at the terminal's size, keys, outcomes, NO_COLOR.
import test from 'ava';
import { createElement } from 'react';
import { render } from 'ink-testing-library';
import { App } from '../ui/App.js';
import { COLOR_THEME, PLAIN_THEME, themeFor } from '../ui/theme.js';
import { diffFile } from '../lib/core/change-groups.js';
import type { ReviewResult } from '../lib/review/types.js';
import { memoryKernel, sampleResult } from './helpers/review.js';

// Colours themselves are checked in a real terminal (review-e2e.test.ts): ava's own chalk fixes the colour level here.

type Rendered = ReturnType<typeof render>;

async function until(app: Rendered, check: (frame: string) => boolean, what: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const frame = app.lastFrame() ?? '';
    if (check(frame)) return frame;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}; last frame:\n${app.lastFrame()}`);
}

const strip = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');
const BRANCH = 'tug/rename/process_data-to-transform_data';

function mount(options: { branch?: string; plain?: boolean; answers?: Parameters<typeof memoryKernel>[0]; result?: () => ReviewResult } = {}) {
  const { kernel, calls } = memoryKernel(options.answers, options.result);
  const app = render(createElement(App, { createKernel: () => kernel, branch: options.branch, theme: options.plain ? PLAIN_THEME : COLOR_THEME, now: () => Date.parse('2024-01-01T00:05:00Z') }));
  return { app, calls };
}

test('a result opens with its files, hunks and the key bar, within the terminal', async (t) => {
  const { app } = mount({ branch: BRANCH });
  const frame = strip(await until(app, (f) => f.includes('@@'), 'the diff'));
  t.true(frame.includes(`${BRANCH}  kept 4/4  passed (syntax)`), frame);
  t.true(frame.includes('>[x] main.py 2/2'), frame);
  t.true(frame.includes('>[x] -from pkg.core import process_data'), frame);
  t.true(frame.includes('space accept/reject'), frame);
  t.true(frame.includes('q quit'), frame);
  const lines = frame.split('\n');
  t.true(lines.length <= 23, `one row short of 24 (ink clears the screen for a full-height frame): ${lines.length}`);
  t.true(lines.every((l) => l.length <= 100), 'no line wider than the terminal');
  app.unmount();
});

test('NO_COLOR: the plain theme has no colours or reverse video; markers carry the decisions', async (t) => {
  t.is(themeFor({ NO_COLOR: '1' }), PLAIN_THEME);
  t.is(themeFor({ NO_COLOR: '' }), COLOR_THEME, 'an empty NO_COLOR does not count (no-color.org)');
  t.deepEqual(Object.keys(PLAIN_THEME).filter((k) => PLAIN_THEME[k as keyof typeof PLAIN_THEME]), []);
  const { app } = mount({ branch: BRANCH, plain: true });
  await until(app, (f) => f.includes('@@'), 'the diff');
  app.stdin.write(' ');
  const frame = await until(app, (f) => f.includes('>[ ] -from'), 'the rejected marker');
  t.false(frame.includes('\x1b['), frame);
  t.true(frame.includes('[~] main.py 1/2'), frame);
  app.unmount();
});

test('a line with two edits: j moves between them, the current one is marked in the text, space rejects only it', async (t) => {
  const result = () => {
    const r = sampleResult();
    r.files = [{ path: 'main.py', status: 'modified', diff: diffFile('print(process_data(1), process_data(2))\n', 'print(transform_data(1), transform_data(2))\n'), splittable: true }];
    return r;
  };
  const { app, calls } = mount({ branch: BRANCH, plain: true, result, answers: { commit: { ok: true, message: 'committed 1 of 2 changes' } } });
  await until(app, (f) => f.includes('+print(‹transform_data›(1), transform_data(2))'), 'the first edit marked');
  app.stdin.write('j');
  await until(app, (f) => f.includes('+print(transform_data(1), ‹transform_data›(2))'), 'the second edit marked');
  app.stdin.write(' ');
  const frame = await until(app, (f) => f.includes('>[~] -print('), 'the line partly kept');
  t.true(frame.includes('change 2/2  line 1  "process_data" -> "transform_data"  rejected'), frame);
  t.true(frame.includes('kept 1/2'), frame);
  app.stdin.write('c');
  await until(app, (f) => f.includes('committed 1 of 2 changes'), 'the outcome');
  t.deepEqual(calls.find((c) => c.action === 'commit')?.decisions, [[true, false]]);
  app.unmount();
});

test('space rejects one change and c sends the decisions to the kernel, then shows its answer', async (t) => {
  const { app, calls } = mount({ branch: BRANCH, plain: true, answers: { commit: { ok: true, message: 'committed 3 of 4 changes' } } });
  await until(app, (f) => f.includes('@@'), 'the diff');
  app.stdin.write('j');
  await until(app, (f) => f.includes('>[x] -print(process_data(2))'), 'the cursor on the second change');
  app.stdin.write(' ');
  await until(app, (f) => f.includes('kept 3/4'), 'the header count');
  app.stdin.write('c');
  await until(app, (f) => f.includes('committed 3 of 4 changes'), 'the outcome');
  t.deepEqual(calls.find((c) => c.action === 'commit')?.decisions, [[true, false], [true, true]]);
  app.unmount();
});

test('a failed check shows its output in place of the diff', async (t) => {
  const verification = { status: 'failed' as const, mode: 'tests' as const, checks: [{ name: 'tests', status: 'failed' as const, exit_code: 1, command: ['python', '-m', 'pytest'], output: 'E   NameError: process_data', duration_ms: 0 }] };
  const { app } = mount({ branch: BRANCH, plain: true, answers: { verify: { ok: false, message: 'verification (tests) failed for 3 of 4 changes', verification } } });
  await until(app, (f) => f.includes('@@'), 'the diff');
  app.stdin.write('v');
  const frame = await until(app, (f) => f.includes('NameError'), 'the check output');
  t.true(frame.includes('check tests failed (exit 1)'), frame);
  t.true(frame.includes('$ python -m pytest'), frame);
  app.stdin.write('j');
  await until(app, (f) => f.includes('@@'), 'the diff again');
  t.pass();
  app.unmount();
});

test('the list shows tug/ branches with what they are; enter opens one; ? shows help', async (t) => {
  const { app, calls } = mount({ plain: true });
  const list = await until(app, (f) => f.includes(BRANCH), 'the list');
  t.true(list.includes(`> ${BRANCH}  (5m ago)`), list);
  t.true(list.includes('rename-symbol  process_data -> transform_data  base bbbbbbb  2 files  passed (syntax)'), list);
  app.stdin.write('?');
  await until(app, (f) => f.includes('Keys (any key closes this help)'), 'the help');
  app.stdin.write('x');
  app.stdin.write('\r');
  await until(app, (f) => f.includes('@@'), 'the opened result');
  t.true(calls.some((c) => c.action === `open ${BRANCH}`));
  app.unmount();
});

test('a resize re-lays out every pane to the new size', async (t) => {
  const { app } = mount({ branch: BRANCH, plain: true });
  await until(app, (f) => f.includes('@@'), 'the diff');
  Object.defineProperty(app.stdout, 'columns', { value: 60, configurable: true });
  Object.defineProperty(app.stdout, 'rows', { value: 16, configurable: true });
  app.stdout.emit('resize');
  const frame = await until(app, (f) => f.split('\n').length <= 15 && f.includes('v verify'), 'a 60×16 frame');
  t.true(frame.split('\n').every((l) => l.length <= 60), frame);
  t.true(frame.includes('q quit'), 'the key bar wraps, it is not cut');
  app.unmount();
});

test('c on an incomplete subset shows which rejected changes break against which kept ones and asks; y commits it', async (t) => {
  const incomplete = {
    rejected: [{ file: 'main.py', line: 10, old_text: 'print(process_data(2))', new_text: 'print(transform_data(2))' }],
    kept: [{ file: 'main.py', line: 1, old_text: 'from pkg.core import process_data', new_text: 'from pkg.core import transform_data' }],
    message: 'incomplete rename-symbol: 1 rejected change(s) (main.py:10) still names `process_data`',
  };
  const { app, calls } = mount({ branch: BRANCH, plain: true, answers: { commit: { ok: false, message: incomplete.message, incomplete } } });
  await until(app, (f) => f.includes('@@'), 'the diff');
  app.stdin.write('j');
  await until(app, (f) => f.includes('>[x] -print(process_data(2))'), 'the cursor on the call');
  app.stdin.write(' ');
  await until(app, (f) => f.includes('kept 3/4'), 'the call rejected');
  app.stdin.write('c');
  const asked = await until(app, (f) => f.includes('incomplete subset — y commits it anyway'), 'the question');
  t.true(asked.includes('rejected, so these references break:'), asked);
  t.true(asked.includes('main.py:10  print(process_data(2)) -> print(transform_data(2))'), asked);
  t.true(asked.includes('main.py:1  from pkg.core import process_data -> from pkg.core impo'), asked);
  app.stdin.write('y');
  await until(app, (f) => f.includes('commit done (confirmed)') && !f.includes('incomplete subset —'), 'the confirmed commit');
  t.deepEqual(calls.filter((c) => c.action === 'commit').map((c) => c.decisions), [[[true, false], [true, true]], [[true, false], [true, true]]]);
  t.deepEqual(calls.filter((c) => c.action === 'commit').map((c) => c.confirmIncomplete ?? false), [false, true]);
  app.unmount();
});
