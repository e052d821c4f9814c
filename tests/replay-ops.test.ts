// check-merge and replay for move-symbol and change-signature: the base gains a use of the symbol after the branch was
// made; check-merge names it with file:line, and the replayed branch merges cleanly with its tests passing.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeProject, mergeAndTest, moveBase } from './helpers/replay-project.js';

const ENV = { TUG_NO_DAEMON: '1' };

test('move-symbol: the new import of the old module is reported, and replay moves it too', async (t) => {
  t.timeout(300_000);
  const repo = await makeProject();
  t.teardown(() => repo.cleanup());
  const made = await tug(repo.root, ['move', '--at', 'src/shop/pricing.py:6:5', '--destination', 'shop.totals', '--verify', 'tests', '--json'], { env: ENV });
  t.is(made.exitCode, 0, made.stdout + made.stderr);
  const note = JSON.parse(await repo.git('notes', '--ref=tug', 'show', made.json.git.commit));
  t.like(note.symbol, { name: 'compute_total', qualified_name: 'shop.pricing.compute_total', file: 'src/shop/pricing.py' });
  await moveBase(repo);
  const check = await tug(repo.root, ['check-merge', made.json.git.branch, '--json'], { env: ENV });
  t.is(check.exitCode, 1, check.stdout + check.stderr);
  t.deepEqual(check.json.semantic.map((c: any) => `${c.file}:${c.line} ${c.operation}`), ['src/shop/report.py:1 move-symbol']);
  const replayed = await tug(repo.root, ['replay', made.json.git.branch, '--verify', 'tests', '--json'], { env: ENV });
  t.is(replayed.exitCode, 0, replayed.stdout + replayed.stderr);
  t.like(replayed.json.replay.steps[0], { operation: 'move-symbol', replay: 'operation', changed: true });
  t.regex(await repo.git('show', `${replayed.json.git.branch}:src/shop/report.py`), /from shop\.totals import compute_total/);
  const merged = await mergeAndTest(repo, replayed.json.git.branch);
  t.true(merged.merged, merged.output);
  t.is(merged.tests, 0, merged.output);
});

test('change-signature: the new call is reported, and replay rewrites it', async (t) => {
  t.timeout(300_000);
  const repo = await makeProject();
  t.teardown(() => repo.cleanup());
  const params = JSON.stringify([{ name: 'items' }, { name: 'currency', value: '"EUR"' }, { name: 'discount', default: '0' }]);
  const made = await tug(repo.root, ['change-signature', '--at', 'src/shop/pricing.py:6:5', '--params', params, '--verify', 'tests', '--json'], { env: ENV });
  t.is(made.exitCode, 0, made.stdout + made.stderr);
  await moveBase(repo);
  const check = await tug(repo.root, ['check-merge', made.json.git.branch, '--json'], { env: ENV });
  t.is(check.exitCode, 1, check.stdout + check.stderr);
  t.deepEqual(check.json.semantic.map((c: any) => `${c.file}:${c.line}:${c.col} ${c.operation}`), ['src/shop/report.py:5:22 change-signature']);
  const replayed = await tug(repo.root, ['replay', made.json.git.branch, '--verify', 'tests', '--json'], { env: ENV });
  t.is(replayed.exitCode, 0, replayed.stdout + replayed.stderr);
  t.regex(await repo.git('show', `${replayed.json.git.branch}:src/shop/report.py`), /compute_total\(items, ["']EUR["']\)/);
  const merged = await mergeAndTest(repo, replayed.json.git.branch);
  t.true(merged.merged, merged.output);
  t.is(merged.tests, 0, merged.output);
});
