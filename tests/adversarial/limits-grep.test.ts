// grep_file cannot hang on a pathological pattern, and the file tools stop at their size and time budgets by name.
import test from 'ava';
import { makeRepo } from '../helpers/repo.js';
import { tug } from '../helpers/cli.js';

async function tool(root: string, name: string, args: Record<string, unknown>, env: Record<string, string> = {}) {
  const run = await tug(root, ['tool', name, '--args', JSON.stringify(args)], { env });
  return { run };
}

test('a catastrophic-backtracking pattern over a long line returns at once (linear-time engine)', async (t) => {
  const repo = await makeRepo({ 'evil.txt': `${'a'.repeat(100_000)}b\n`, 'ok.py': 'x = 1\nY = 22\n' });
  t.teardown(() => repo.cleanup());
  // A "does not hang" guard only (a backtracking engine takes hours here; a loaded machine took 24 s); timing lives in tests/bench.
  t.timeout(600_000);
  const { run } = await tool(repo.root, 'grep_file', { pattern: '(a+)+$' });
  t.is(run.json?.status, 'ok', run.stdout + run.stderr);
  t.is(run.json.total_matches, 0);
  const normal = await tool(repo.root, 'grep_file', { pattern: '^y = (\\d+)$', case_insensitive: true });
  t.deepEqual(
    normal.run.json.matches.map((m: { path: string; line: number; column: number }) => [m.path, m.line, m.column]),
    [['ok.py', 2, 1]],
  );
  const bad = await tool(repo.root, 'grep_file', { pattern: '(a)\\1' });
  t.is(bad.run.json?.code, 'InvalidArgument', 'backreferences are not RE2 and say so');
});

test('grep_file stops at its time budget with LimitExceeded naming it', async (t) => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 200; i++) files[`f${i}.txt`] = `line ${i}\n`.repeat(200);
  const repo = await makeRepo(files);
  t.teardown(() => repo.cleanup());
  const { run } = await tool(repo.root, 'grep_file', { pattern: 'line' }, { TUG_GREP_TIME_LIMIT_MS: '1' });
  t.is(run.json?.code, 'LimitExceeded', run.stdout + run.stderr);
  t.is(run.json.details.limit, 'grep_time');
});

test('read_file and edit_file refuse a file over the one-file size limit before reading it', async (t) => {
  const repo = await makeRepo({ 'big.txt': 'x'.repeat(33 * 1024 * 1024) });
  t.teardown(() => repo.cleanup());
  const { run } = await tool(repo.root, 'read_file', { path: 'big.txt' });
  t.is(run.json?.code, 'LimitExceeded', run.stdout.slice(0, 2000) + run.stderr);
  t.is(run.json.details.limit, 'file_size');
  const edit = await tool(repo.root, 'edit_file', { path: 'big.txt', old_text: 'xx', new_text: 'y' });
  t.is(edit.run.json?.code, 'LimitExceeded', 'the edit tools stop at the same budget');
  t.is(await repo.git('status', '--porcelain'), '');
});
