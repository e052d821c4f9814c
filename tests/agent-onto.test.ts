// A scripted agent builds one branch with `onto`, the branch is merged and then undone; concurrent calls are serialized without deadlock.
import test from 'ava';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { makeRepo, repoState } from './helpers/repo.js';
import { tug } from './helpers/cli.js';
import { call, isToolSuccess, type ToolResult } from './helpers/tools.js';

const FILES = {
  'app.py': 'def total(items):\n    return sum(items)\n\n\nprint(total([1, 2]))\n',
  'README.md': '# demo\n',
};
const TASK = 'tug/edit/add-mean';

/** The agent's five calls: each builds on what the previous ones put on the branch. */
function script(apply: boolean): Array<[string, Record<string, unknown>]> {
  return [
    ['edit_file', { path: 'app.py', old_text: 'def total(items):\n    return sum(items)\n', new_text: 'def total(items):\n    return sum(items)\n\n\ndef mean(items):\n    return total(items) / len(items)\n' }],
    ['edit_file', { path: 'app.py', old_text: 'print(total([1, 2]))', new_text: 'print(mean([1, 2]))', display_description: 'print the mean' }],
    ['create_file', { path: 'tests/test_mean.py', content: 'from app import mean\n\n\ndef test_mean():\n    assert mean([1, 3]) == 2\n' }],
    ['write_file', { path: 'README.md', content: '# demo\n\n`mean()` averages a list.\n' }],
    ['apply_patch', { patch: '--- a/tests/test_mean.py\n+++ b/tests/test_mean.py\n@@ -4,2 +4,2 @@\n def test_mean():\n-    assert mean([1, 3]) == 2\n+    assert mean([1, 3]) == 2.0\n' }],
  ].map(([tool, args]) => [tool as string, { ...(args as object), onto: TASK, apply }]);
}

const FINAL_APP = 'def total(items):\n    return sum(items)\n\n\ndef mean(items):\n    return total(items) / len(items)\n\n\nprint(mean([1, 2]))\n';

test('five edits with onto make one reviewable branch; it merges; undoing the calls in reverse restores every file', async (t) => {
  const repo = await makeRepo(FILES);
  const head = await repo.git('rev-parse', 'HEAD');
  const before = await repoState(repo);
  const results: ToolResult[] = [];
  for (const [tool, args] of script(false)) {
    const out = await call(repo, tool, args);
    t.true(isToolSuccess(out), `${tool}: ${JSON.stringify(out)}`);
    t.is(out.git.branch, TASK);
    t.is(out.git.snapshot_commit, results.at(-1)?.git.commit ?? head, `${tool} builds on the branch tip`);
    results.push(out);
  }
  const { refs: _refsAfter, ...after } = JSON.parse(await repoState(repo));
  const { refs: _refsBefore, ...untouched } = JSON.parse(before);
  t.deepEqual(after, untouched, 'apply:false: the working tree, index and HEAD are untouched (only the tug/ branch is new)');
  t.is(await repo.git('rev-list', '--count', `${head}..${TASK}`), '5');
  t.is(await repo.git('rev-parse', TASK), results[4]!.git.commit);
  t.is(await repo.git('show', `${TASK}:app.py`), FINAL_APP.trimEnd());
  const onBranch = await call(repo, 'read_file', { path: 'tests/test_mean.py', ref: TASK, line_numbers: false });
  t.regex(onBranch.content, /== 2\.0/);
  const tests = await call(repo, 'run_command', { command: 'python3 -m pytest -q -p no:cacheprovider', ref: TASK, timeout: 120 });
  t.is(tests.exit_code, 0, `${tests.stdout}${tests.stderr}`);

  await repo.git('merge', '--ff-only', '-q', TASK);
  t.is(await repo.readText('app.py'), FINAL_APP);
  t.is(await repo.git('status', '--porcelain'), '');

  for (const out of [...results].reverse()) {
    const undo = await call(repo, 'tug_undo', { token: out.undo_token });
    t.true(isToolSuccess(undo), JSON.stringify(undo));
    t.deepEqual(undo.branch_reset, { ref: `refs/heads/${TASK}`, from: out.git.commit, to: out.git.snapshot_commit });
  }
  t.is(await repo.readText('app.py'), FILES['app.py']);
  t.is(await repo.readText('README.md'), FILES['README.md']);
  t.false(await stat(path.join(repo.root, 'tests')).then(() => true, () => false));
  t.is(await repo.git('rev-parse', TASK), head, 'the task branch is back where it started');

  const log = await call(repo, 'tug_log', {});
  t.deepEqual(
    log.entries.map((e: { operation: string }) => e.operation),
    ['undo', 'undo', 'undo', 'undo', 'undo', 'run-command', 'apply-patch', 'write-file', 'create-file', 'edit-file', 'edit-file'],
  );
  t.deepEqual(log.entries.slice(6).map((e: { commit: string }) => e.commit), results.map((r) => r.git.commit).reverse());
  await repo.cleanup();
});

test('with apply (the default) the working tree follows the branch; a file changed outside tug stops the next call before anything moves', async (t) => {
  const repo = await makeRepo(FILES);
  const results: ToolResult[] = [];
  for (const [tool, args] of script(true)) {
    const out = await call(repo, tool, args);
    t.true(isToolSuccess(out), `${tool}: ${JSON.stringify(out)}`);
    t.true(out.applied);
    results.push(out);
  }
  t.is(await repo.readText('app.py'), FINAL_APP);
  const tip = await repo.git('rev-parse', TASK);
  t.is((await call(repo, 'tug_snapshot', {})).snapshot_id, await repo.git('rev-parse', `${TASK}^{tree}`), 'the working tree equals the branch tip');

  await repo.write('app.py', `${FINAL_APP}# edited by hand\n`);
  const refused = await call(repo, 'edit_file', { path: 'app.py', old_text: 'print(mean', new_text: 'print(total', onto: TASK });
  t.is(refused.code, 'SnapshotMismatch');
  t.deepEqual(refused.details.changed_files, ['app.py']);
  t.is(await repo.git('rev-parse', TASK), tip, 'the branch did not move');
  const elsewhere = await call(repo, 'edit_file', { path: 'app.py', old_text: 'print(mean', new_text: 'print(total', onto: TASK, apply: false });
  t.true(isToolSuccess(elsewhere), 'apply:false still extends the branch');
  await call(repo, 'tug_undo', { token: elsewhere.undo_token });
  await repo.write('app.py', FINAL_APP);

  for (const out of [...results].reverse()) t.true(isToolSuccess(await call(repo, 'tug_undo', { token: out.undo_token })));
  t.is(await repo.git('status', '--porcelain'), '');
  await repo.cleanup();
});

test('onto refuses branches outside tug/, invalid names and the checked-out branch', async (t) => {
  const repo = await makeRepo(FILES);
  const edit = { path: 'README.md', old_text: '# demo', new_text: '# Demo' };
  t.is((await call(repo, 'edit_file', { ...edit, onto: 'main' })).code, 'InvalidArgument');
  t.is((await call(repo, 'edit_file', { ...edit, onto: 'tug/bad..name' })).code, 'InvalidArgument');
  await repo.git('checkout', '-q', '-b', 'tug/edit/here');
  const here = await call(repo, 'edit_file', { ...edit, onto: 'tug/edit/here' });
  t.is(here.code, 'InvalidArgument');
  t.regex(here.error, /checked out/);
  await repo.cleanup();
});

test('concurrent tool calls from one process are serialized: every edit lands on one linear branch, no deadlock', async (t) => {
  const files = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`m${i}.py`, `value = ${i}\n`]));
  const repo = await makeRepo(files);
  const calls = Object.keys(files).map((file, i) => call(repo, 'edit_file', { path: file, old_text: `value = ${i}`, new_text: `value = ${i * 10 + 1}`, onto: 'tug/edit/parallel' }));
  const reads = Object.keys(files).map((file) => call(repo, 'read_file', { path: file }));
  const results = await Promise.all([...calls, ...reads]);
  for (const out of results) t.true(isToolSuccess(out), JSON.stringify(out));
  t.is(await repo.git('rev-list', '--count', 'HEAD..tug/edit/parallel'), '6');
  const parents = (await repo.git('rev-list', '--parents', 'HEAD..tug/edit/parallel')).split('\n').map((l) => l.split(' ').length);
  t.true(parents.every((n) => n === 2), 'a linear chain');
  for (const [i, file] of Object.keys(files).entries()) t.is(await repo.readText(file), `value = ${i * 10 + 1}\n`);
  await repo.cleanup();
});

test('concurrent tug processes wait for each other; no_wait fails at once with SessionLocked', async (t) => {
  const repo = await makeRepo({ 'a.py': 'a = 1\n', 'b.py': 'b = 1\n', 'c.py': 'c = 1\n' });
  const runs = await Promise.all(
    ['a', 'b', 'c'].map((name) =>
      tug(repo.root, ['tool', 'edit_file', '--args', JSON.stringify({ path: `${name}.py`, old_text: `${name} = 1`, new_text: `${name} = 2` })], { env: { TUG_LOCK_TIMEOUT_MS: '60000' } }),
    ),
  );
  for (const run of runs) t.is(run.exitCode, 0, run.stdout + run.stderr);
  t.is(await repo.readText('c.py'), 'c = 2\n');
  const slow = call(repo, 'edit_file', { path: 'a.py', old_text: 'a = 2', new_text: 'a = 3', verify: 'tests', test_command: ['sleep', '2'] });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const busy = await call(repo, 'edit_file', { path: 'b.py', old_text: 'b = 2', new_text: 'b = 3', no_wait: true });
  t.is(busy.code, 'SessionLocked');
  t.true(isToolSuccess(await slow));
  t.true(isToolSuccess(await call(repo, 'edit_file', { path: 'b.py', old_text: 'b = 2', new_text: 'b = 3', no_wait: true })), 'the lock is free again');
  await repo.cleanup();
});
