// tug check-merge: git's conflicts and the semantic ones (uses of a renamed symbol the base gained since the branch was
// made, which git merges silently) with file:line, exit 1 until a replay makes a branch that merges clean.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeProject, mergeAndTest, moveBase } from './helpers/replay-project.js';

const ENV = { TUG_NO_DAEMON: '1' };

test('check-merge reports the new caller of a renamed function; after replay the branch merges clean and its tests pass', async (t) => {
  t.timeout(300_000);
  const repo = await makeProject();
  t.teardown(() => repo.cleanup());
  const made = await tug(repo.root, ['rename', 'src/shop/pricing.py:6:5', 'calculate_total', '--verify', 'tests', '--json'], { env: ENV });
  t.is(made.exitCode, 0, made.stdout + made.stderr);
  const branch = made.json.git.branch;
  const fresh = await tug(repo.root, ['check-merge', branch, '--json'], { env: ENV });
  t.is(fresh.exitCode, 0, fresh.stdout + fresh.stderr);
  t.like(fresh.json, { clean: true, base_moved: false, conflicts: [], semantic: [] });

  await moveBase(repo);
  const stale = await tug(repo.root, ['check-merge', branch, '--json'], { env: ENV });
  t.is(stale.exitCode, 1, stale.stdout + stale.stderr);
  t.like(stale.json, { clean: false, base_moved: true, merged: false });
  // The comment added right above a renamed call is a textual conflict; the new module's uses are semantic ones.
  t.deepEqual(stale.json.conflicts, ['src/shop/cart.py']);
  t.deepEqual(
    stale.json.semantic.map((c: any) => `${c.file}:${c.line}:${c.col} ${c.symbol} ${c.operation} ${c.found_by}`),
    ['src/shop/report.py:1:26 compute_total rename-symbol analysis', 'src/shop/report.py:5:22 compute_total rename-symbol analysis'],
  );
  t.is(stale.json.semantic[1].text, 'return f"total: {compute_total(items)}"');
  t.regex(stale.json.next, /tug replay/);
  const shown = await tug(repo.root, ['show', branch, '--json'], { env: ENV });
  t.like(shown.json.branch.status, { stale: true, base_moved: true, new_references: 2 });

  const replayed = await tug(repo.root, ['replay', branch, '--verify', 'tests', '--json'], { env: ENV });
  t.is(replayed.exitCode, 0, replayed.stdout + replayed.stderr);
  const now = await tug(repo.root, ['check-merge', replayed.json.git.branch, '--json'], { env: ENV });
  t.is(now.exitCode, 0, now.stdout);
  t.like(now.json, { clean: true, conflicts: [], semantic: [] });
  const merged = await mergeAndTest(repo, replayed.json.git.branch);
  t.true(merged.merged, merged.output);
  t.is(merged.tests, 0, merged.output);
  t.is((await repo.git('grep', '-c', 'compute_total').catch(() => '')).trim(), '');
  const after = await tug(repo.root, ['check-merge', replayed.json.git.branch, '--json'], { env: ENV });
  t.like(after.json, { clean: true, merged: true });
});

test('check-merge --into names the branch it checks against; an unknown ref is InvalidArgument', async (t) => {
  const repo = await makeProject();
  t.teardown(() => repo.cleanup());
  const made = await tug(repo.root, ['rename', 'src/shop/pricing.py:6:5', 'calculate_total', '--verify', 'none', '--json'], { env: ENV });
  t.is(made.exitCode, 0, made.stdout + made.stderr);
  await repo.git('switch', '-q', '-c', 'feature');
  await moveBase(repo);
  await repo.git('switch', '-q', 'main');
  const onMain = await tug(repo.root, ['check-merge', made.json.git.branch, '--json'], { env: ENV });
  t.like(onMain.json, { clean: true });
  const onFeature = await tug(repo.root, ['check-merge', made.json.git.branch, '--into', 'feature', '--json'], { env: ENV });
  t.is(onFeature.exitCode, 1);
  t.is(onFeature.json.into, await repo.git('rev-parse', 'feature'));
  t.is(onFeature.json.semantic.length, 2);
  const unknown = await tug(repo.root, ['check-merge', made.json.git.branch, '--into', 'nope', '--json'], { env: ENV });
  t.is(unknown.exitCode, 2);
  t.is(unknown.json.error.code, 'InvalidArgument');
});

test('tug apply of a branch whose base gained a caller applies it and says it is stale, naming the new use', async (t) => {
  t.timeout(300_000);
  const repo = await makeProject();
  t.teardown(() => repo.cleanup());
  const made = await tug(repo.root, ['rename', 'src/shop/pricing.py:6:5', 'calculate_total', '--verify', 'none', '--json'], { env: ENV });
  t.is(made.exitCode, 0, made.stdout + made.stderr);
  const current = await tug(repo.root, ['apply', made.json.git.branch, '--json'], { env: ENV });
  t.is(current.exitCode, 0, current.stdout + current.stderr);
  t.is(current.json.stale, null);
  await tug(repo.root, ['undo', current.json.undo_token, '--json'], { env: ENV });

  await repo.write('src/shop/report.py', 'from shop.pricing import compute_total\n\n\ndef report(items):\n    return compute_total(items)\n');
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', 'report');
  const applied = await tug(repo.root, ['apply', made.json.git.branch, '--json'], { env: ENV });
  t.is(applied.exitCode, 0, applied.stdout + applied.stderr);
  t.true(applied.json.applied);
  t.true(applied.json.stale.base_moved);
  t.deepEqual(applied.json.stale.new_uses.map((u: any) => `${u.file}:${u.line} ${u.symbol}`), ['src/shop/report.py:1 compute_total', 'src/shop/report.py:5 compute_total']);
  t.is(applied.json.stale.next, `tug replay ${made.json.git.branch}`);
});
