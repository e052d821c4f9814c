// The one daemon per user under load: repositories side by side, reads beside a write, a killed daemon, memory limits, stop.
import test from 'ava';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeRepo } from './helpers/repo.js';
import { tug } from './helpers/cli.js';
import { ownerAlive } from '../lib/session/owner.js';

const SOURCE = { 'pkg/__init__.py': '', 'pkg/core.py': 'def f(x):\n    return x\n', 'main.py': 'from pkg.core import f\nprint(f(1))\n' };
const ANALYZE = ['analyze-impact', 'rename-symbol', '--at', 'pkg/core.py:1:5', '--to', 'g'];

/** A private runtime and config dir per test: its daemon is its own, never the user's or another test's. */
async function privateDaemon(config = '', extra: Record<string, string> = {}) {
  const home = await mkdtemp(path.join(os.tmpdir(), 'tug-rt-'));
  await mkdir(path.join(home, 'config', 'tug'), { recursive: true });
  // $XDG_RUNTIME_DIR exists by definition; without it tug falls back to $TMPDIR, which the tests would share.
  await mkdir(path.join(home, 'run'), { mode: 0o700 });
  await writeFile(path.join(home, 'config', 'tug', 'config.toml'), config);
  const env = { TUG_LOCK_TIMEOUT_MS: '2000', XDG_RUNTIME_DIR: path.join(home, 'run'), XDG_CONFIG_HOME: path.join(home, 'config'), ...extra };
  const run = (cwd: string, args: string[], more: Record<string, string> = {}) => tug(cwd, args, { env: { ...env, ...more } });
  const status = async () => (await run(os.tmpdir(), ['daemon', 'status'])).json.daemon;
  const stop = async () => {
    await run(os.tmpdir(), ['daemon', 'stop']);
    await rm(home, { recursive: true, force: true });
  };
  return { env, run, status, stop };
}


async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  for (const deadline = Date.now() + ms; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
  }
}

test('two clients on two repositories at once are both served by the one daemon, with what a cold run prints', async (t) => {
  const [a, b] = await Promise.all([makeRepo(SOURCE), makeRepo({ ...SOURCE, 'other.py': 'from pkg.core import f\nf(2)\n' })]);
  const daemon = await privateDaemon();
  try {
    t.is((await daemon.run(a.root, ['daemon', 'start'])).exitCode, 0);
    const [warmA, warmB] = await Promise.all([daemon.run(a.root, ANALYZE), daemon.run(b.root, ANALYZE)]);
    const [coldA, coldB] = await Promise.all([daemon.run(a.root, ANALYZE, { TUG_NO_DAEMON: '1' }), daemon.run(b.root, ANALYZE, { TUG_NO_DAEMON: '1' })]);
    t.is(warmA.stdout, coldA.stdout);
    t.is(warmB.stdout, coldB.stdout);
    t.not(warmA.stdout, warmB.stdout, 'each answer is about its own repository');
    const status = await daemon.status();
    t.is(status.requests, 2);
    t.deepEqual(status.repositories.map((r: { requests: number }) => r.requests), [1, 1]);
    t.true(status.memory.total_bytes > 0, 'memory is measured');
  } finally {
    await daemon.stop();
    await Promise.all([a.cleanup(), b.cleanup()]);
  }
});

test('a read is answered while a verification runs; a second write to the repository with --no-wait fails at once', async (t) => {
  const repo = await makeRepo(SOURCE);
  // A long lock wait: a --no-wait that waited would take a minute, not a moment, even on a loaded machine.
  const daemon = await privateDaemon('', { TUG_LOCK_TIMEOUT_MS: '60000' });
  const release = path.join(os.tmpdir(), `tug-release-${process.pid}-${Date.now()}`);
  try {
    await daemon.run(repo.root, ['daemon', 'start']);
    // The verification runs until the test lets it end, so everything below happens while it runs.
    const command = JSON.stringify(['sh', '-c', `touch ${release}.started; while [ ! -f ${release} ]; do sleep 0.05; done`]);
    const slow = daemon.run(repo.root, ['rename', 'pkg/core.py:1:5', 'g', '--verify', 'tests', '--test-command', command]);
    const { existsSync } = await import('node:fs');
    await until(async () => existsSync(`${release}.started`), (s) => s, 20_000);
    const started = Date.now();
    const snapshot = await daemon.run(repo.root, ['snapshot']);
    const readMs = Date.now() - started;
    t.is(snapshot.exitCode, 0, snapshot.stderr);
    const busy = Date.now();
    const second = await daemon.run(repo.root, ['rename', 'pkg/core.py:1:5', 'h', '--no-wait']);
    const busyMs = Date.now() - busy;
    // The verification cannot end before the release below: whatever answered so far did not wait for it.
    t.is((await daemon.status()).in_flight, 1, 'the verification is still running');
    await writeFile(release, '');
    t.log(`snapshot during the verification: ${readMs} ms; --no-wait: ${busyMs} ms`);
    t.is(second.json.error.code, 'SessionLocked', second.stdout);
    const done = await slow;
    t.is(done.exitCode, 0, done.stdout);
  } finally {
    await writeFile(release, '');
    await daemon.stop();
    for (const f of [release, `${release}.started`]) await rm(f, { force: true });
    await repo.cleanup();
  }
});

test('writes to two repositories run at the same time: both verifications are running together', async (t) => {
  const [a, b] = await Promise.all([makeRepo(SOURCE), makeRepo(SOURCE)]);
  const daemon = await privateDaemon();
  const release = path.join(os.tmpdir(), `tug-release-${process.pid}-${Date.now()}`);
  const { existsSync } = await import('node:fs');
  try {
    await daemon.run(a.root, ['daemon', 'start']);
    // Each verification says it started, then waits for the release: both started means both ran at once.
    const write = (repo: { root: string }, name: string) =>
      daemon.run(repo.root, ['rename', 'pkg/core.py:1:5', 'g', '--verify', 'tests', '--test-command', JSON.stringify(['sh', '-c', `touch ${release}.${name}; while [ ! -f ${release} ]; do sleep 0.05; done`])]);
    const writes = [write(a, 'a'), write(b, 'b')];
    const both = await until(async () => existsSync(`${release}.a`) && existsSync(`${release}.b`), (x) => x, 60_000);
    t.true(both, 'the second write did not wait for the first');
    t.is((await daemon.status()).in_flight, 2);
    await writeFile(release, '');
    for (const done of await Promise.all(writes)) t.is(done.exitCode, 0, done.stdout);
  } finally {
    await writeFile(release, '');
    await daemon.stop();
    for (const f of [release, `${release}.a`, `${release}.b`]) await rm(f, { force: true });
    await Promise.all([a.cleanup(), b.cleanup()]);
  }
});

test('a killed daemon: the next call still works and starts a new one', async (t) => {
  const repo = await makeRepo(SOURCE);
  const daemon = await privateDaemon('', { TUG_DAEMON_AUTOSTART: '1' });
  try {
    await daemon.run(repo.root, ['daemon', 'start']);
    const first = await daemon.status();
    process.kill(first.pid, 'SIGKILL');
    await until(async () => ownerAlive({ pid: first.pid }), (a) => !a, 5_000);
    const call = await daemon.run(repo.root, ANALYZE);
    t.is(call.exitCode, 0, call.stderr);
    const next = await until(() => daemon.status(), (s) => s.running, 10_000);
    t.true(next.running, 'a new daemon was started');
    t.not(next.pid, first.pid);
    const served = await daemon.run(repo.root, ANALYZE);
    t.is(served.stdout, call.stdout);
    t.true((await daemon.status()).requests >= 1, 'and it serves the calls after');
  } finally {
    await daemon.stop();
    await repo.cleanup();
  }
});

test('over its memory budget the daemon ends the Python workers of the repositories it is not serving', async (t) => {
  const [a, b] = await Promise.all([makeRepo(SOURCE), makeRepo(SOURCE)]);
  const roomy = await privateDaemon();
  const tight = await privateDaemon('[daemon]\nmemory_mb = 50\n');
  try {
    for (const daemon of [roomy, tight]) {
      await daemon.run(a.root, ['daemon', 'start']);
      for (const repo of [a, b]) t.is((await daemon.run(repo.root, ANALYZE)).exitCode, 0);
    }
    const kept = await until(() => roomy.status(), (s) => s.memory.worker_pids.length > 0, 3_000);
    t.true(kept.memory.worker_pids.length > 0, 'within the budget, workers stay warm');
    t.true(kept.memory.total_bytes <= kept.memory.budget_bytes);
    const evicted = await until(() => tight.status(), (s) => s.memory.worker_pids.length === 0, 10_000);
    t.deepEqual(evicted.memory.worker_pids, [], 'over the budget, the workers were ended');
    t.is(evicted.memory.python_workers_bytes, 0);
    t.is(evicted.memory.budget_bytes, 50 * 2 ** 20, 'the budget comes from the user config');
    const again = await tight.run(a.root, ANALYZE);
    t.is(again.exitCode, 0, 'a repository evicted from memory still answers');
    const rename = await tight.run(a.root, ['rename', 'pkg/core.py:1:5', 'g', '--verify', 'none'], { TUG_NO_DAEMON: '1' });
    t.is(rename.exitCode, 0, `the [daemon] table is not a project setting: ${rename.stdout}`);
  } finally {
    await Promise.all([roomy.stop(), tight.stop()]);
    await Promise.all([a.cleanup(), b.cleanup()]);
  }
});

test('daemon stop leaves no process behind: the daemon and its workers are gone', async (t) => {
  const [a, b] = await Promise.all([makeRepo(SOURCE), makeRepo(SOURCE)]);
  const daemon = await privateDaemon();
  try {
    await daemon.run(a.root, ['daemon', 'start']);
    for (const repo of [a, b]) await daemon.run(repo.root, ANALYZE);
    const status = await daemon.status();
    const pids = [status.pid, ...status.memory.worker_pids];
    t.true(pids.length >= 2, 'a worker was running');
    t.true(pids.every((pid: number) => ownerAlive({ pid })));
    const stop = await daemon.run(a.root, ['daemon', 'stop']);
    t.true(stop.json.daemon.stopped);
    const left = await until(async () => pids.filter((pid: number) => ownerAlive({ pid })), (l) => l.length === 0, 5_000);
    t.deepEqual(left, [], 'no process is left');
    t.false((await daemon.status()).running);
  } finally {
    await daemon.stop();
    await Promise.all([a.cleanup(), b.cleanup()]);
  }
});

test('an invalid [daemon] setting is an error naming it', async (t) => {
  const daemon = await privateDaemon('[daemon]\nmemory_mbs = 100\n');
  try {
    const run = await daemon.run(os.tmpdir(), ['daemon', 'start']);
    t.is(run.json.error.code, 'InvalidArgument');
    t.regex(run.json.error.message, /memory_mbs/);
  } finally {
    await daemon.stop();
  }
});
