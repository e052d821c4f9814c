// tug replay: a branch made before the base moved is redone on the new base, finding its symbol by identity, so the
// result merges cleanly and catches the uses of the old name the base gained.
import test from 'ava';
import { tug, patchset } from './helpers/cli.js';
import { makeProject, mergeAndTest, moveBase } from './helpers/replay-project.js';

const ENV = { TUG_NO_DAEMON: '1' };

test('a rename replayed after the base gained a caller of the old name merges cleanly and its tests pass', async (t) => {
  t.timeout(240_000);
  const repo = await makeProject();
  t.teardown(() => repo.cleanup());
  const made = await tug(repo.root, ['rename', 'src/shop/pricing.py:6:5', 'calculate_total', '--verify', 'tests', '--json'], { env: ENV });
  t.is(made.exitCode, 0, made.stdout + made.stderr);
  const branch = made.json.git.branch;
  await moveBase(repo);

  // Merged as it is, the branch leaves the new module calling a name that no longer exists.
  await repo.git('switch', '-q', '-c', 'try-old');
  const stale = await mergeAndTest(repo, branch);
  t.false(stale.merged && stale.tests === 0, stale.output);
  await repo.git('switch', '-q', 'main');
  await repo.git('reset', '-q', '--hard', 'main');

  const replayed = await tug(repo.root, ['replay', branch, '--verify', 'tests', '--json'], { env: ENV });
  t.is(replayed.exitCode, 0, replayed.stdout + replayed.stderr);
  t.is(replayed.json.replay.branch, branch);
  t.is(replayed.json.replay.onto, (await repo.git('rev-parse', 'HEAD')));
  t.like(replayed.json.replay.steps[0], { operation: 'rename-symbol', replay: 'operation', changed: true });
  t.like(replayed.json.replay.steps[0].input, { file: 'src/shop/pricing.py', line: 6, column: 5, new_name: 'calculate_total' });
  t.is(replayed.json.git.branch, `${branch}-2`);
  t.is(replayed.json.verification.status, 'passed');
  t.true(JSON.stringify(replayed.json.patch).includes('src/shop/report.py'));
  t.is(await repo.git('rev-parse', `${replayed.json.git.branch}^`), await repo.git('rev-parse', 'HEAD'));

  const result = await mergeAndTest(repo, replayed.json.git.branch);
  t.true(result.merged, result.output);
  t.is(result.tests, 0, result.output);
  t.is((await repo.git('grep', '-c', 'compute_total', '--', 'src', 'tests').catch(() => '')).trim(), '');
  // The replayed commit records its own operation, on its own snapshot.
  const shown = await tug(repo.root, ['show', replayed.json.git.branch, '--json'], { env: ENV });
  t.is(shown.json.branch.steps[0].record.snapshot, replayed.json.snapshot_id);
  t.like(shown.json.branch.status, { stale: false, merged: true });
});

test('replay --replace moves the old branch, and --onto replays on another ref without touching the working tree', async (t) => {
  t.timeout(240_000);
  const repo = await makeProject();
  t.teardown(() => repo.cleanup());
  const made = await tug(repo.root, ['rename', 'src/shop/pricing.py:6:5', 'calculate_total', '--verify', 'syntax', '--json'], { env: ENV });
  t.is(made.exitCode, 0, made.stdout + made.stderr);
  const branch = made.json.git.branch;
  await repo.git('switch', '-q', '-c', 'feature');
  await moveBase(repo);
  await repo.git('switch', '-q', 'main');
  const onto = await tug(repo.root, ['replay', branch, '--onto', 'feature', '--replace', '--verify', 'syntax', '--json'], { env: ENV });
  t.is(onto.exitCode, 0, onto.stdout + onto.stderr);
  t.is(onto.json.git.branch, branch);
  t.true(onto.json.replay.replaced);
  t.is(await repo.git('rev-parse', branch), onto.json.git.commit);
  t.is(await repo.git('rev-parse', `${branch}^`), await repo.git('rev-parse', 'feature'));
  t.regex(await repo.git('show', `${branch}:src/shop/report.py`), /calculate_total\(items\)/);
  t.is(await repo.git('status', '--porcelain'), '');
  t.is((await repo.git('branch', '--list', `${branch}-2`)).trim(), '');
});

test('a replayed symbol that is gone from the new base is SymbolNotFound naming it, and nothing is made', async (t) => {
  t.timeout(240_000);
  const repo = await makeProject();
  t.teardown(() => repo.cleanup());
  const made = await tug(repo.root, ['rename', 'src/shop/pricing.py:6:5', 'calculate_total', '--verify', 'none', '--json'], { env: ENV });
  t.is(made.exitCode, 0, made.stdout + made.stderr);
  await repo.write('src/shop/pricing.py', (await repo.readText('src/shop/pricing.py')).replace('def compute_total(', 'def grand_total('));
  await repo.git('commit', '-qam', 'someone renamed it first');
  const before = await repo.git('for-each-ref', 'refs/heads');
  const replayed = await tug(repo.root, ['replay', made.json.git.branch, '--verify', 'none', '--json'], { env: ENV });
  t.is(replayed.exitCode, 3, replayed.stdout);
  t.is(replayed.json.error.code, 'SymbolNotFound');
  t.regex(replayed.json.error.message, /compute_total/);
  t.is(replayed.json.error.details.step, 0);
  t.is(await repo.git('for-each-ref', 'refs/heads'), before);
});

test('a patchset replays as a 3-way merge, and stops with ReplayConflict listing the files', async (t) => {
  t.timeout(240_000);
  const repo = await makeProject();
  t.teardown(() => repo.cleanup());
  const edit = (line: number, old_text: string, new_text: string) => patchset([{ file: 'src/shop/pricing.py', line, col: 1, old_text, new_text }]);
  const made = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'none', '--json'], { env: ENV, input: edit(3, 'TAX = 0.2', 'TAX = 0.25') });
  t.is(made.exitCode, 0, made.stdout + made.stderr);
  // An unrelated change on the base: the patch merges.
  await repo.write('README.md', 'shop\n');
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'readme');
  const clean = await tug(repo.root, ['replay', made.json.git.branch, '--verify', 'syntax', '--json'], { env: ENV });
  t.is(clean.exitCode, 0, clean.stdout + clean.stderr);
  t.like(clean.json.replay.steps[0], { operation: 'apply-patchset', replay: 'text', changed: true });
  t.regex(await repo.git('show', `${clean.json.git.branch}:src/shop/pricing.py`), /TAX = 0\.25/);
  t.truthy(await repo.git('show', `${clean.json.git.branch}:README.md`));
  // The same line changed on the base: a conflict, and nothing is made.
  await repo.write('src/shop/pricing.py', (await repo.readText('src/shop/pricing.py')).replace('TAX = 0.2', 'TAX = 0.1'));
  await repo.git('commit', '-qam', 'lower tax');
  const before = await repo.git('for-each-ref', 'refs/heads');
  const conflict = await tug(repo.root, ['replay', made.json.git.branch, '--verify', 'none', '--json'], { env: ENV });
  t.is(conflict.exitCode, 4, conflict.stdout);
  t.is(conflict.json.error.code, 'ReplayConflict');
  t.deepEqual(conflict.json.error.details.files, ['src/shop/pricing.py']);
  t.is(await repo.git('for-each-ref', 'refs/heads'), before);
});
