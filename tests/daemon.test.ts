// `tug daemon`: a resident process the CLI forwards to, with output, exit codes and environment checks identical to a cold run.
import test from 'ava';
import { execa } from './helpers/execa.js';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { makeRepo } from './helpers/repo.js';
import { patchset, tug, TUG_BIN } from './helpers/cli.js';

const SOURCE = { 'pkg/__init__.py': '', 'pkg/core.py': 'def f(x):\n    return x\n', 'main.py': 'from pkg.core import f\nprint(f(1))\n' };

/** A private runtime dir per test: its daemon is its own, never the user's or another test's, and stopped at the end. */
async function privateDaemon(extra: Record<string, string> = {}) {
  const runtime = await mkdtemp(path.join(os.tmpdir(), 'tug-rt-'));
  const env = { TUG_LOCK_TIMEOUT_MS: '2000', XDG_RUNTIME_DIR: runtime, ...extra };
  const stop = async () => {
    await tug(os.tmpdir(), ['daemon', 'stop'], { env });
    await rm(runtime, { recursive: true, force: true });
  };
  return { env, runtime, stop };
}

test('commands forwarded to the daemon print exactly what a cold run prints, exit codes included', async (t) => {
  const repo = await makeRepo(SOURCE);
  const daemon = await privateDaemon();
  const ENV = daemon.env;
  try {
    const start = await tug(repo.root, ['daemon', 'start'], { env: ENV });
    t.is(start.exitCode, 0, start.stdout + start.stderr);
    t.true(start.json?.daemon.running);
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
    t.is(status.json.daemon.repositories.length, 1);
    t.is(status.json.daemon.repositories[0].requests, 2);
    t.true(status.json.daemon.socket.startsWith(path.join(daemon.runtime, 'tug')), 'the socket is in the per-user runtime dir');
    const stdin = await tug(repo.root, ['apply-patchset', '-f', '-'], { env: ENV, input: patchset([{ file: 'main.py', line: 2, col: 7, old_text: 'f', new_text: 'f' }]) });
    t.is(stdin.json.error.code, 'InvalidArgument', 'stdin input runs in-process and still works');
    t.is((await tug(repo.root, ['daemon', 'status'], { env: ENV })).json.daemon.requests, 2);
    // Another value of a variable the daemon reads itself: the command runs in-process and the daemon makes way.
    const otherEnv = await tug(repo.root, ['snapshot'], { env: { ...ENV, TUG_TIMINGS: '1' } });
    t.is(otherEnv.exitCode, 0);
    const gone = await until(() => tug(repo.root, ['daemon', 'status'], { env: ENV }), (s) => !s.json?.daemon.running, 5_000);
    t.false(gone.json.daemon.running, 'a daemon of another environment is replaced, not shared');
  } finally {
    await daemon.stop();
  }
  await repo.cleanup();
});

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('a project command starts the daemon on its own, and the next call is served by it with the same output', async (t) => {
  const repo = await makeRepo(SOURCE);
  const daemon = await privateDaemon({ TUG_DAEMON_AUTOSTART: '1' });
  const AUTO = daemon.env;
  try {
    const args = ['analyze-impact', 'rename-symbol', '--at', 'pkg/core.py:1:5', '--to', 'g'];
    const first = await tug(repo.root, args, { env: AUTO });
    t.is(first.exitCode, 0, first.stderr);
    t.is(first.stderr, '', 'no note when stderr is not a terminal');
    const status = await until(() => tug(repo.root, ['daemon', 'status'], { env: AUTO }), (s) => s.json?.daemon.warm?.python_projects === 1, 10_000);
    t.true(status.json.daemon.running);
    t.is(status.json.daemon.warm.python_projects, 1, 'it loaded the project of the command that started it');
    t.is(status.json.daemon.requests, 0);
    t.is(status.json.daemon.idle_seconds, 1800, 'it idles out after 30 minutes by default');
    const second = await tug(repo.root, args, { env: AUTO });
    t.is(second.stdout, first.stdout);
    t.is((await tug(repo.root, ['daemon', 'status'], { env: AUTO })).json.daemon.requests, 1, 'the second call ran in the daemon');
    // The daemon keeps the loaded project in memory by tree: an edit makes a new tree, never a stale answer.
    await repo.write('main.py', 'from pkg.core import f\nprint(f(1), f(2))\n');
    const edited = await tug(repo.root, args, { env: AUTO });
    const editedHere = await tug(repo.root, args, { env: { ...AUTO, TUG_NO_DAEMON: '1' } });
    t.is(edited.stdout, editedHere.stdout);
    t.is(edited.json.references.length, first.json.references.length + 1);
    const again = await tug(repo.root, ['daemon', 'status'], { env: AUTO });
    t.is(again.json.daemon.pid, status.json.daemon.pid, 'a running daemon is not started twice');
  } finally {
    await daemon.stop();
    await repo.cleanup();
  }
});

test('no daemon is started when turned off, in CI, for other commands, or after a usage error', async (t) => {
  const { autoStartWanted } = await import('../lib/daemon/autostart.js');
  const repo = await makeRepo(SOURCE);
  const analyze = ['analyze-impact', 'rename-symbol', '--at', 'pkg/core.py:1:5', '--to', 'g'];
  const env = (extra: Record<string, string>) => ({ PATH: process.env['PATH'], ...extra });
  t.truthy(autoStartWanted(analyze, 0, repo.root, env({})));
  t.truthy(autoStartWanted(['rename', 'pkg/core.py:1:5', 'g'], 3, repo.root, env({})), 'a failed rename still loaded the project');
  t.truthy(autoStartWanted(analyze, 0, repo.root, env({ CI: 'true', TUG_DAEMON_AUTOSTART: '1' })));
  t.is(autoStartWanted(analyze, 0, repo.root, env({ TUG_DAEMON_AUTOSTART: '0' })), null);
  t.is(autoStartWanted(analyze, 0, repo.root, env({ TUG_NO_DAEMON: '1' })), null);
  t.is(autoStartWanted(analyze, 0, repo.root, env({ CI: 'true' })), null);
  t.is(autoStartWanted(['snapshot'], 0, repo.root, env({})), null);
  t.truthy(autoStartWanted(['move', 'pkg/core.py:1:5', 'pkg.other'], 0, repo.root, env({})), 'a refactor by its own command');
  const { refactors } = await import('../lib/cli/refactor-flags.js');
  const { REFACTOR_SHORTHANDS } = await import('../lib/daemon/autostart.js');
  for (const op of refactors()) {
    for (const word of [op.cli!.shorthand, op.name].filter((w) => w && w !== 'rename-symbol')) t.true(REFACTOR_SHORTHANDS.includes(word!), `${word} starts the daemon too`);
  }
  t.is(autoStartWanted(['rename', 'pkg/core.py:1:5', 'class'], 2, repo.root, env({})), null);
  t.is(autoStartWanted([...analyze, '-C', repo.root], 0, repo.root, env({})), null, 'another workspace than the current directory');
  const outside = await makeRepo({});
  await repo.cleanup();
  t.is(autoStartWanted(analyze, 0, path.dirname(outside.root), env({})), null, 'outside a repository');
  await outside.cleanup();
});

test('of two daemons started at once over a killed one\'s socket, one serves and the other leaves', async (t) => {
  const daemon = await privateDaemon();
  const spawnDaemon = () => execa('node', [TUG_BIN, 'daemon', 'run', '--idle-seconds', '60'], { cwd: os.tmpdir(), env: daemon.env, reject: false });
  // What a killed daemon leaves behind: a socket file nobody answers on.
  const { socketPath } = await import('../lib/daemon/address.js');
  const { writeFile } = await import('node:fs/promises');
  await writeFile(socketPath(daemon.env, true), '');
  const daemons = [spawnDaemon(), spawnDaemon()];
  try {
    const status = await until(() => tug(os.tmpdir(), ['daemon', 'status'], { env: daemon.env }), (s) => s.json?.daemon.running, 10_000);
    t.true(status.json.daemon.running);
    const exited = await Promise.race([Promise.any(daemons).then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 12_000))]);
    t.true(exited, 'the daemon that lost the race exits');
    t.true((await tug(os.tmpdir(), ['daemon', 'status'], { env: daemon.env })).json.daemon.running, 'the other one still serves');
  } finally {
    await daemon.stop();
  }
  const ends = await Promise.race([Promise.all(daemons).then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 12_000))]);
  t.true(ends, 'stop ends the serving daemon');
});

test('a daemon of an older build hands the command back and exits', async (t) => {
  // A copy of the built tug, so making it look rebuilt leaves the daemons of the other tests alone.
  const { cp, symlink, utimes } = await import('node:fs/promises');
  const daemon = await privateDaemon();
  const project = path.join(path.dirname(TUG_BIN), '..');
  const copy = await mkdtemp(path.join(os.tmpdir(), 'tug-copy-'));
  for (const part of ['bin', 'dist', 'package.json']) await cp(path.join(project, part), path.join(copy, part), { recursive: true });
  await symlink(path.join(project, 'node_modules'), path.join(copy, 'node_modules'));
  const copyTug = (cwd: string, args: string[]) => execa('node', [path.join(copy, 'bin', 'tug'), ...args], { cwd, env: daemon.env, reject: false });
  const status = async () => JSON.parse((await copyTug(repo.root, ['daemon', 'status'])).stdout).daemon;
  const repo = await makeRepo(SOURCE);
  try {
    t.true(JSON.parse((await copyTug(repo.root, ['daemon', 'start'])).stdout).daemon.running);
    const later = new Date(Date.now() + 1000);
    await utimes(path.join(copy, 'dist', 'lib', 'cli', 'main.js'), later, later);
    const run = await copyTug(repo.root, ['snapshot']);
    t.is(run.exitCode, 0, run.stderr);
    t.is(JSON.parse(run.stdout).status, 'ok', 'the command ran in-process');
    const after = await until(status, (d) => !d.running, 5_000);
    t.false(after.running, 'the stale daemon exited');
  } finally {
    await copyTug(repo.root, ['daemon', 'stop']);
    await daemon.stop();
    await repo.cleanup();
    await rm(copy, { recursive: true, force: true });
  }
});
