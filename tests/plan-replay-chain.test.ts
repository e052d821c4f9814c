// A tug branch that grew by several tug commits (a rename, then an agent's file edit added with onto) replays as a
// whole on a moved base: the rename re-run by identity, the edit merged as text, one new branch with both commits.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeProject, mergeAndTest, moveBase } from './helpers/replay-project.js';

const ENV = { TUG_NO_DAEMON: '1' };

test('a branch of a rename and a file edit made onto it replays both, in order, and merges clean', async (t) => {
  t.timeout(600_000);
  const repo = await makeProject();
  t.teardown(() => repo.cleanup());
  const made = await tug(repo.root, ['rename', 'src/shop/pricing.py:6:5', 'calculate_total', '--verify', 'none', '--json'], { env: ENV });
  t.is(made.exitCode, 0, made.stdout + made.stderr);
  const branch = made.json.git.branch;
  const edit = { path: 'src/shop/cart.py', old_text: '        self.items = []', new_text: '        self.items = []  # (name, price) pairs', onto: branch, apply: false, verify: 'none' };
  const edited = await tug(repo.root, ['tool', 'edit_file', '--args', JSON.stringify(edit), '--json'], { env: ENV });
  t.is(edited.exitCode, 0, edited.stdout + edited.stderr);
  t.is(edited.json.git.branch, branch);
  const shown = await tug(repo.root, ['show', branch, '--json'], { env: ENV });
  t.deepEqual(shown.json.branch.steps.map((s: any) => [s.operation, s.record?.replay]), [['rename-symbol', 'operation'], ['edit-file', 'text']]);

  await moveBase(repo);
  const head = await repo.git('rev-parse', 'HEAD');
  const replayed = await tug(repo.root, ['replay', branch, '--verify', 'tests', '--json'], { env: ENV });
  t.is(replayed.exitCode, 0, replayed.stdout + replayed.stderr);
  t.deepEqual(replayed.json.replay.steps.map((s: any) => [s.operation, s.replay, s.changed]), [['rename-symbol', 'operation', true], ['edit-file', 'text', true]]);
  const fresh = replayed.json.git.branch;
  t.is(fresh, `${branch}-2`);
  t.is(await repo.git('rev-parse', `${fresh}~2`), head, 'two commits on the moved base');
  const cart = await repo.git('show', `${fresh}:src/shop/cart.py`);
  t.regex(cart, /self\.items = \[\]  # \(name, price\) pairs/);
  t.regex(cart, /# Prices include tax\.\n        return calculate_total\(self\.items\)/);
  t.regex(await repo.git('show', `${fresh}:src/shop/report.py`), /calculate_total\(items\)/);
  const merged = await mergeAndTest(repo, fresh);
  t.true(merged.merged, merged.output);
  t.is(merged.tests, 0, merged.output);
});
