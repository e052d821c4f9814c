// `tug daemon`: a resident process the CLI forwards to, with output, exit codes and environment checks identical to a cold run.
import test from 'ava';
import { makeRepo } from './helpers/repo.js';
import { patchset, tug } from './helpers/cli.js';

const SOURCE = { 'pkg/__init__.py': '', 'pkg/core.py': 'def f(x):\n    return x\n', 'main.py': 'from pkg.core import f\nprint(f(1))\n' };
const ENV = { TUG_LOCK_TIMEOUT_MS: '2000' };

test('commands forwarded to the daemon print exactly what a cold run prints, exit codes included', async (t) => {
  const repo = await makeRepo(SOURCE);
  const start = await tug(repo.root, ['daemon', 'start'], { env: ENV });
  t.is(start.exitCode, 0, start.stdout + start.stderr);
  t.true(start.json.daemon.running);
  try {
    const warm = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'pkg/core.py:1:5', '--to', 'g'], { env: ENV });
    const cold = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'pkg/core.py:1:5', '--to', 'g'], { env: { ...ENV, TUG_NO_DAEMON: '1' } });
    t.is(warm.exitCode, 0, warm.stdout);
    t.is(warm.stdout, cold.stdout);
    const badWarm = await tug(repo.root, ['rename', 'pkg/core.py:1:5', 'class'], { env: ENV });
    const badCold = await tug(repo.root, ['rename', 'pkg/core.py:1:5', 'class'], { env: { ...ENV, TUG_NO_DAEMON: '1' } });
    t.is(badWarm.exitCode, 2);
    t.is(badWarm.stdout, badCold.stdout);
    const status = await tug(repo.root, ['daemon', 'status'], { env: ENV });
    t.is(status.json.daemon.requests, 2, 'both forwarded commands ran in the daemon');
    const otherEnv = await tug(repo.root, ['snapshot'], { env: { ...ENV, TUG_TIMINGS: '1' } });
    t.is(otherEnv.exitCode, 0);
    t.is((await tug(repo.root, ['daemon', 'status'], { env: ENV })).json.daemon.requests, 2, 'a different environment runs in-process');
    const stdin = await tug(repo.root, ['apply-patchset', '-f', '-'], { env: ENV, input: patchset([{ file: 'main.py', line: 2, col: 7, old_text: 'f', new_text: 'f' }]) });
    t.is(stdin.json.error.code, 'InvalidArgument', 'stdin input runs in-process and still works');
  } finally {
    const stop = await tug(repo.root, ['daemon', 'stop'], { env: ENV });
    t.true(stop.json.daemon.stopped);
  }
  t.false((await tug(repo.root, ['daemon', 'status'], { env: ENV })).json.daemon.running);
  await repo.cleanup();
});
