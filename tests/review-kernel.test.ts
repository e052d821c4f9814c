// The kernel behind the review keys, on real repositories with the real Python rename: subsets, apply, merge, undo.
import test from 'ava';
import { createReviewKernel } from '../lib/review/kernel.js';
import type { Decisions } from '../lib/review/types.js';
import { tug } from './helpers/cli.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';

const SOURCE = {
  'pkg/__init__.py': '',
  'pkg/core.py': 'def process_data(x):\n    return x * 2\n',
  'main.py': `from pkg.core import process_data\n${'\n'.repeat(8)}print(process_data(2))\n`,
};
const BRANCH = 'tug/rename/process_data-to-transform_data';
const IMPORT_MAIN = ['{python}', '-c', 'import main'];

async function renamed(extra: string[] = []): Promise<TestRepo> {
  const repo = await makeRepo(SOURCE);
  const run = await tug(repo.root, ['rename', 'pkg/core.py:1:5', 'transform_data', ...extra]);
  if (run.exitCode !== 0) throw new Error(run.stdout + run.stderr);
  return repo;
}

/** Keep everything but the call in main.py (the second change of main.py). */
const DROP_CALL: Decisions = [[true, false], [true]];

test('list and open: the branch with its operation, symbol and verification; files split into change groups', async (t) => {
  const repo = await renamed();
  const kernel = createReviewKernel({ workspace: repo.root });
  const [summary] = await kernel.list();
  t.like(summary, { branch: BRANCH, operation: 'rename-symbol', symbol: 'process_data -> transform_data', files: 2, verification: 'passed (syntax)' });
  t.is(summary!.base, (await repo.git('rev-parse', 'main')).trim());
  const result = await kernel.open(BRANCH);
  t.deepEqual(result.files.map((f) => [f.path, f.diff.groups.length, f.diff.hunks.length]), [['main.py', 2, 2], ['pkg/core.py', 1, 1]]);
  await repo.cleanup();
});

test('list reads the operation log: edits added with onto count as steps of the branch, and the newest step dates it', async (t) => {
  const repo = await renamed();
  for (const [old_text, new_text] of [['x * 2', 'x * 3'], ['x * 3', 'x * 4']]) {
    const args = JSON.stringify({ path: 'pkg/core.py', old_text, new_text, onto: BRANCH, apply: false });
    const run = await tug(repo.root, ['tool', 'edit_file', '--args', args]);
    t.is(run.exitCode, 0, run.stdout + run.stderr);
  }
  const log = await tug(repo.root, ['log']);
  const newest = (log.json.entries as Array<{ branch: string; time: string }>).find((e) => e.branch === BRANCH)!;
  const [summary] = await createReviewKernel({ workspace: repo.root }).list();
  t.like(summary, { branch: BRANCH, steps: 3, createdAt: newest.time });
  await repo.cleanup();
});

test('c commits the accepted subset as a child of the reviewed commit, verified; u moves the branch back', async (t) => {
  const repo = await renamed();
  const kernel = createReviewKernel({ workspace: repo.root });
  const result = await kernel.open(BRANCH);
  // Keeping the import but not its call site leaves the call broken: refused until confirmed (issue 28 §2).
  const refused = await kernel.commit(result, DROP_CALL);
  t.false(refused.ok);
  t.regex(refused.message, /^incomplete rename-symbol: 1 rejected change\(s\) \(main\.py:10\) still names `process_data`, which the kept changes rename to `transform_data` \(kept: main\.py:1, pkg\/core\.py:1\); those references break/);
  t.deepEqual(refused.incomplete?.rejected, [{ file: 'main.py', line: 10, old_text: 'print(process_data(2))', new_text: 'print(transform_data(2))' }]);
  t.is((await repo.git('rev-parse', BRANCH)).trim(), result.commit, 'nothing committed without a yes');
  const checked = await kernel.verify(result, DROP_CALL);
  t.false(checked.ok, 'syntax passes, but the subset is incomplete');
  t.regex(checked.message, /^verification \(syntax\) passed for 2 of 3 changes, but incomplete rename-symbol: /);
  t.true((await kernel.verify(result, [[false, false], [false]])).ok === false, 'nothing kept: nothing to verify');
  const outcome = await kernel.commit(result, DROP_CALL, { confirmIncomplete: true });
  t.true(outcome.ok, outcome.message);
  t.regex(outcome.message, /committed 2 of 3 changes/);
  const tip = (await repo.git('rev-parse', BRANCH)).trim();
  t.is((await repo.git('rev-parse', `${tip}^`)).trim(), result.commit, 'the reviewed commit stays in the history');
  t.is(await repo.git('show', `${tip}:main.py`), `from pkg.core import transform_data\n${'\n'.repeat(8)}print(process_data(2))`);
  t.is(await repo.git('show', `${tip}:pkg/core.py`), 'def transform_data(x):\n    return x * 2');
  const message = await repo.git('log', '-1', '--format=%B', tip);
  t.regex(message, /^refactor\(rename\): process_data -> transform_data \(reviewed: kept 2 of 3 changes\)/);
  t.regex(message, new RegExp(`Tug-Base: ${result.base}`));
  t.regex(message, /Tug-Verification: passed \(syntax\)/);
  t.deepEqual(outcome.result?.files.map((f) => f.diff.groups.length), [1, 1], 'the new tip shows only what was kept');
  const undone = await kernel.undo(outcome.undo!);
  t.true(undone.ok, undone.message);
  t.is((await repo.git('rev-parse', BRANCH)).trim(), result.commit);
  t.regex((await kernel.commit(result, [[true, true], [true]])).message, /nothing rejected/);
  await repo.cleanup();
});

test('v and c re-run the recorded checks on the subset: a failing subset is reported, not committed', async (t) => {
  const repo = await renamed(['--verify', 'tests', '--test-command', JSON.stringify(IMPORT_MAIN)]);
  const kernel = createReviewKernel({ workspace: repo.root, test_command: IMPORT_MAIN });
  const result = await kernel.open(BRANCH);
  t.is(result.verification, 'passed (tests)');
  const dropImport: Decisions = [[false, true], [true]];
  const verified = await kernel.verify(result, dropImport);
  t.false(verified.ok);
  t.is(verified.verification?.mode, 'tests');
  const failed = verified.verification?.checks.find((c) => c.status === 'failed');
  t.regex(failed?.output ?? '', /ImportError|NameError/);
  const commit = await kernel.commit(result, dropImport, { confirmIncomplete: true });
  t.false(commit.ok);
  t.truthy(commit.verification);
  t.is((await repo.git('rev-parse', BRANCH)).trim(), result.commit, 'nothing committed');
  t.true((await kernel.verify(result, [[true, true], [true]])).ok);
  await repo.cleanup();
});

test('x applies the accepted subset to the working tree (committing it first); u restores the files', async (t) => {
  const repo = await renamed();
  const kernel = createReviewKernel({ workspace: repo.root });
  const result = await kernel.open(BRANCH);
  const applied = await kernel.apply(result, DROP_CALL, { confirmIncomplete: true });
  t.true(applied.ok, applied.message);
  t.regex(applied.message, /committed 2 of 3 changes .*; applied 2 file\(s\)/);
  t.is(await repo.readText('main.py'), `from pkg.core import transform_data\n${'\n'.repeat(8)}print(process_data(2))\n`);
  t.is((await repo.git('rev-parse', 'HEAD')).trim(), result.base, 'HEAD untouched');
  t.is(applied.undo?.kind, 'apply');
  const undone = await kernel.undo(applied.undo!);
  t.true(undone.ok, undone.message);
  t.is(await repo.readText('main.py'), SOURCE['main.py']);
  t.is(await repo.git('status', '--porcelain'), '');
  await repo.cleanup();
});

test('m refuses a dirty tree with a clear message; on a clean tree it merges; u moves the branch and files back', async (t) => {
  const repo = await renamed();
  const kernel = createReviewKernel({ workspace: repo.root });
  const result = await kernel.open(BRANCH);
  await repo.write('pkg/core.py', 'def process_data(x):\n    return x * 3\n');
  const refused = await kernel.merge(result, [[true, true], [true]]).catch((e) => e);
  t.is(refused.code, 'DirtyWorkingTree');
  t.regex(refused.message, /cannot merge tug\/rename\/process_data-to-transform_data: 1 file\(s\) have uncommitted changes \(pkg\/core.py\)/);
  await repo.git('checkout', '--', 'pkg/core.py');
  const merged = await kernel.merge(result, [[true, true], [true]]);
  t.true(merged.ok, merged.message);
  t.regex(merged.message, /merged .* into main \(fast-forward/);
  t.is((await repo.git('rev-parse', 'main')).trim(), result.commit);
  t.is(await repo.readText('pkg/core.py'), 'def transform_data(x):\n    return x * 2\n');
  const undone = await kernel.undo(merged.undo!);
  t.true(undone.ok, undone.message);
  t.is((await repo.git('rev-parse', 'main')).trim(), result.base);
  t.is(await repo.readText('pkg/core.py'), SOURCE['pkg/core.py']);
  t.is(await repo.git('status', '--porcelain'), '');
  await repo.cleanup();
});

test('the review actions that commit, write files or move a branch land in the operation log', async (t) => {
  const repo = await renamed();
  const kernel = createReviewKernel({ workspace: repo.root });
  const result = await kernel.open(BRANCH);
  const applied = await kernel.apply(result, DROP_CALL, { confirmIncomplete: true });
  t.true(applied.ok, applied.message);
  const log = await tug(repo.root, ['log', '--json']);
  t.is(log.exitCode, 0, log.stderr);
  const entries = JSON.parse(log.stdout).entries as Array<Record<string, unknown>>;
  t.deepEqual(
    entries.map((e) => [e['operation'], e['tool'], e['branch'], e['applied'], e['files']]),
    [
      ['review-apply', 'tug_review', BRANCH, true, ['main.py', 'pkg/core.py']],
      ['review-commit', 'tug_review', BRANCH, false, ['main.py', 'pkg/core.py']],
      ['rename-symbol', 'tug_rename_symbol', BRANCH, false, ['main.py', 'pkg/core.py']],
    ],
  );
  const [apply, commit] = entries;
  t.is(commit!['parent'], result.commit);
  t.like(commit, { arguments: { action: 'commit', branch: BRANCH, kept: 2, total: 3 }, verification: { status: 'passed', mode: 'syntax' } });
  t.is(apply!['commit'], commit!['commit']);
  t.truthy(apply!['undo_token']);
  await repo.cleanup();
});
