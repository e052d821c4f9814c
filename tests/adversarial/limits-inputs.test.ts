// Bad input gets a named error, never a hang, a stack trace or a silent correction; mixed line endings survive edits.
import test from 'ava';
import { execa } from '../helpers/execa.js';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { makeRepo, repoState, type TestRepo } from '../helpers/repo.js';
import { patchset, tug, TUG_BIN } from '../helpers/cli.js';

const SOURCE = { 'a.py': 'def foo():\n    return 1\n\nfoo()\n' };

function noStackTrace(t: { false: (v: boolean, m?: string) => void }, run: { stdout: string; stderr: string }): void {
  t.false(/\n\s+at .+:\d+:\d+/.test(run.stdout + run.stderr), `stack trace in output:\n${run.stdout}${run.stderr}`);
}

test('only regular files or stdin under the size limit are read as inputs', async (t) => {
  const repo = await makeRepo(SOURCE);
  const fifo = path.join(os.tmpdir(), `tug-fifo-${process.pid}`);
  t.teardown(async () => {
    await rm(fifo, { force: true });
    await repo.cleanup();
  });
  execFileSync('mkfifo', [fifo]);
  for (const file of ['/dev/zero', fifo, repo.root]) {
    const run = await tug(repo.root, ['apply-patchset', '-f', file]);
    t.is(run.json?.error?.code, 'InvalidArgument', `${file}: ${run.stdout}${run.stderr}`);
    t.is(run.json.error.details.reason, 'not a regular file');
  }
  // An endless stdin stops at the limit instead of filling memory.
  const endless = await execa('node', [TUG_BIN, 'apply-patchset', '-f', '-'], { cwd: repo.root, reject: false, inputFile: '/dev/zero', timeout: 60_000 });
  t.is(JSON.parse(endless.stdout).error.code, 'InvalidArgument');
  t.is(JSON.parse(endless.stdout).error.details.reason, 'too large');
  const args = await execa('node', [TUG_BIN, 'tool', 'write_file', '--args', '-'], { cwd: repo.root, reject: false, inputFile: '/dev/zero', timeout: 60_000 });
  // `tug tool` answers in the tool contract (`{error, code, exit_code, …}`), as a tool call would.
  t.is(JSON.parse(args.stdout).code, 'InvalidArgument');
  t.is(JSON.parse(args.stdout).details.reason, 'too large');
});

test('huge, negative and fractional positions are InvalidPosition, never a stack trace', async (t) => {
  const repo = await makeRepo(SOURCE);
  t.teardown(() => repo.cleanup());
  for (const at of ['a.py:99999999999999999999999:1', 'a.py:-1:1', 'a.py:1:-5', 'a.py:0:1']) {
    const run = await tug(repo.root, ['rename', at, 'bar']);
    t.is(run.json?.error?.code, 'InvalidPosition', `${at}: ${run.stdout}${run.stderr}`);
    noStackTrace(t, run);
  }
  const positions = [{ line: 1e300, col: 1 }, { line: -1, col: 1 }, { line: 1, col: 2 ** 60 }, { line: 1.5, col: 1 }, { span: { start: -1, end: 2 } }, { span: { start: 1e300, end: 1e301 } }];
  for (const position of positions) {
    const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'none'], { input: patchset([{ file: 'a.py', old_text: 'def', new_text: 'async def', ...position }]) });
    t.is(run.json?.error?.code, 'InvalidPosition', `${JSON.stringify(position)}: ${run.stdout}${run.stderr}`);
    noStackTrace(t, run);
  }
});

test('a span that disagrees with its line/col, a trailing slash and a repeated edit are InvalidArgument naming the edit', async (t) => {
  const repo = await makeRepo(SOURCE);
  t.teardown(() => repo.cleanup());
  const before = await repoState(repo);
  const cases: Array<[unknown[], RegExp]> = [
    [[{ file: 'a.py', span: { start: 4, end: 7 }, line: 4, col: 1, old_text: 'foo', new_text: 'bar' }], /edit 0: span 4\.\.7 starts at a\.py:1:5/],
    [[{ file: 'a.py/', line: 1, col: 5, old_text: 'foo', new_text: 'bar' }], /edits\[0\]\.file .*trailing slash/],
    [
      [
        { file: 'a.py', line: 1, col: 5, old_text: 'foo', new_text: 'bar' },
        { file: 'a.py', line: 4, col: 1, old_text: 'foo', new_text: 'bar' },
        { file: 'a.py', span: { start: 4, end: 7 }, old_text: 'foo', new_text: 'bar' },
      ],
      /edits\[2\] repeats edits\[0\]/,
    ],
  ];
  for (const [edits, message] of cases) {
    const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'none', '--apply'], { input: patchset(edits) });
    t.is(run.json?.error?.code, 'InvalidArgument', run.stdout + run.stderr);
    t.regex(run.json.error.message, message);
  }
  const overlap = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'none'], {
    input: patchset([
      { file: 'a.py', span: { start: 4, end: 7 }, old_text: 'foo', new_text: 'bar' },
      { file: 'a.py', span: { start: 5, end: 6 }, old_text: 'o', new_text: 'x' },
    ]),
  });
  t.is(overlap.json?.error?.code, 'ConflictingEdits');
  t.regex(overlap.json.error.message, /edits 0 and 1 overlap/);
  t.is(await repoState(repo), before);
});

async function mixedRepo(): Promise<TestRepo> {
  return makeRepo({ 'm.txt': 'a\r\nb\nc\r\nd\n' });
}

async function tool(repo: TestRepo, name: string, args: Record<string, unknown>) {
  const run = await tug(repo.root, ['tool', name, '--args', JSON.stringify(args)]);
  if (run.json?.status !== 'ok') throw new Error(`${name} failed: ${run.stdout}${run.stderr}`);
  return run;
}

test('mixed line endings are kept byte for byte by write_file, edit_file and apply_patch', async (t) => {
  const written = await mixedRepo();
  t.teardown(() => written.cleanup());
  await tool(written, 'write_file', { path: 'm.txt', content: 'a\nb\nc\nd\ne\n' });
  t.is(await written.readText('m.txt'), 'a\r\nb\nc\r\nd\ne\r\n', 'untouched lines keep their endings; the new line takes the first one');

  const edited = await mixedRepo();
  t.teardown(() => edited.cleanup());
  await tool(edited, 'edit_file', { path: 'm.txt', old_text: 'c\n', new_text: 'C\n' });
  t.is(await edited.readText('m.txt'), 'a\r\nb\nC\r\nd\n');

  const patched = await mixedRepo();
  t.teardown(() => patched.cleanup());
  await tool(patched, 'apply_patch', { patch: '--- a/m.txt\n+++ b/m.txt\n@@ -1,4 +1,5 @@\n a\n b\n-c\n+C\n+C2\n d\n' });
  t.is(await patched.readText('m.txt'), 'a\r\nb\nC\r\nC2\r\nd\n');
});
