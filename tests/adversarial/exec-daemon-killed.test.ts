// The daemon killed in the middle of `--apply`, after it renamed files: the client never runs the write again in its
// own process (that answered "the change leaves every file as it was", with no undo token and no word of the crash);
// it reports DaemonInterrupted with the journal's state, and the next command finishes the interrupted write.
import test from 'ava';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tug } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';

const SOURCE = { 'a.py': 'def f():\n    return 1\n', 'b.py': 'from a import f\nf()\n' };

async function until(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return done();
}

test('a daemon killed after renaming files: DaemonInterrupted with the journal state, no second run, recovery finishes', async (t) => {
  const repo = await makeRepo(SOURCE);
  const runtime = await mkdtemp(path.join(os.tmpdir(), 'tug-killed-rt-'));
  const faults = await mkdtemp(path.join(os.tmpdir(), 'tug-killed-faults-'));
  // The daemon and the client share every TUG_ variable (else the client runs in-process): the pause is the daemon's.
  const env = { XDG_RUNTIME_DIR: runtime, TUG_DAEMON_AUTOSTART: '0', TUG_FAULT_INJECT: 'apply-after-rename:pause', TUG_FAULT_DIR: faults };
  try {
    const start = await tug(repo.root, ['daemon', 'start', '--json'], { env });
    t.is(start.exitCode, 0, start.stdout + start.stderr);
    const pid = (await tug(repo.root, ['daemon', 'status', '--json'], { env })).json.daemon.pid as number;
    const running = tug(repo.root, ['rename', 'a.py:1:5', 'g', '--apply', '--verify', 'none', '--json'], { env });
    t.true(await until(() => existsSync(path.join(faults, 'apply-after-rename.reached')), 60_000), 'the daemon reached the rename step');
    process.kill(pid, 'SIGKILL');
    // Were the command run again here, it would pass the pause at once.
    await writeFile(path.join(faults, 'apply-after-rename.go'), '');
    const run = await running;
    t.is(run.exitCode, 4, run.stdout + run.stderr);
    t.is(run.json.error.code, 'DaemonInterrupted');
    t.is(run.json.error.details.journal, 'commit');
    t.deepEqual(run.json.error.details.files, ['a.py', 'b.py']);
    t.regex(run.json.error.message, /not run again/);
    // The next command (in-process: the daemon is gone) finishes the write the daemon started.
    const next = await tug(repo.root, ['verify', '--verify', 'none', '--json'], { env: { ...env, TUG_FAULT_INJECT: '', TUG_NO_DAEMON: '1' } });
    t.is(next.exitCode, 0, next.stdout + next.stderr);
    t.regex(JSON.stringify(next.json.warnings), /interrupted; tug finished it/);
    t.is(await repo.readText('a.py'), 'def g():\n    return 1\n');
    t.is(await repo.readText('b.py'), 'from a import g\ng()\n');
    t.is((await repo.git('for-each-ref', 'refs/tug/undo')).split('\n').filter(Boolean).length, 1, 'one undo point: the write ran once');
  } finally {
    await tug(os.tmpdir(), ['daemon', 'stop'], { env });
    await rm(runtime, { recursive: true, force: true });
    await rm(faults, { recursive: true, force: true });
    await repo.cleanup();
  }
});

test('a daemon that is not there, or hands the command back, still lets the command run here', async (t) => {
  const repo = await makeRepo(SOURCE);
  const runtime = await mkdtemp(path.join(os.tmpdir(), 'tug-killed-rt-'));
  const env = { XDG_RUNTIME_DIR: runtime, TUG_DAEMON_AUTOSTART: '0' };
  const run = await tug(repo.root, ['rename', 'a.py:1:5', 'g', '--apply', '--verify', 'none', '--json'], { env });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  t.truthy(run.json.undo_token);
  await rm(runtime, { recursive: true, force: true });
  await repo.cleanup();
});
