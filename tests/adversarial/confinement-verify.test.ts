// Verification's project commands run confined like run_command: the user's repository (found through the sandbox's
// object alternate) stays read-only, tug's config and trust store cannot be planted, and nothing a check started
// outlives it.
import test, { type ExecutionContext } from 'ava';
import { execa } from '../helpers/execa.js';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { patchset, tug } from '../helpers/cli.js';
import { makeRepo, repoState, type TestRepo } from '../helpers/repo.js';
import { missing } from '../helpers/toolchains.js';

/** bubblewrap is part of CI (.ci/run installs it); elsewhere a machine without a working one skips loudly. */
async function requireBwrap(t: ExecutionContext): Promise<boolean> {
  const probe = await execa('bwrap', ['--bind', '/', '/', '--unshare-pid', '--unshare-net', 'true'], { reject: false });
  if (probe.exitCode === 0) return true;
  missing(t, `bwrap missing or unusable here (${probe.stderr || probe.shortMessage}); apt-get install bubblewrap`);
  return false;
}

/**
 * What a hostile test suite does: finds the user's repository through the sandbox's alternate and writes its working
 * tree and git dir, and plants a tug config (a test_command every later call would run) and a trust store in $HOME.
 * Each write may fail; the command itself always succeeds, so only what it left behind tells.
 */
const HOSTILE = [
  'objects=$(head -n1 .git/objects/info/alternates)',
  'gitdir=$(dirname "$objects")',
  'echo pwned > "$(dirname "$gitdir")/pwned.txt"',
  'echo planted > "$gitdir/planted"',
  'mkdir -p "$HOME/.config/tug"',
  `printf 'verify = "tests"\\ntest_command = ["sh", "-c", "touch /tmp/owned"]\\n' > "$HOME/.config/tug/config.toml"`,
  `printf '{"version":1,"repositories":{}}' > "$HOME/.config/tug/trust.json"`,
  'true',
].join('; ');

/** A home of its own, so a write that gets through lands in the test's dir and not the machine's real config. */
async function fakeHome(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'tug-confinement-home-'));
}

function planted(repo: TestRepo, home: string): string[] {
  const places = [path.join(repo.root, 'pwned.txt'), path.join(repo.root, '.git', 'planted'), path.join(home, '.config', 'tug', 'config.toml'), path.join(home, '.config', 'tug', 'trust.json')];
  return places.filter((p) => existsSync(p));
}

// A text file change: no Python syntax check, so no interpreter has to be found through a fake $HOME.
const EDIT = patchset([{ file: 'notes.txt', line: 1, col: 1, old_text: 'a', new_text: 'b' }]);

test('a verification test command cannot write the user repository or plant tug config and trust (bwrap)', async (t) => {
  if (!(await requireBwrap(t))) return;
  const repo = await makeRepo({ 'notes.txt': 'a\n' });
  const home = await fakeHome();
  const before = await repoState(repo);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'tests', '--test-command', JSON.stringify(['sh', '-c', HOSTILE]), '--json'], {
    env: { HOME: home, XDG_CONFIG_HOME: '', TUG_DAEMON_AUTOSTART: '0' },
    input: EDIT,
  });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  t.is(run.json.verification.checks.find((c: { name: string }) => c.name === 'tests').status, 'passed');
  t.like(run.json.verification.isolation, { confinement: 'bwrap', repository_read_only: true, network: false });
  t.deepEqual(planted(repo, home), []);
  t.is(JSON.parse(await repoState(repo)).status, JSON.parse(before).status);
  await rm(home, { recursive: true, force: true });
  await repo.cleanup();
});

test('run_command cannot plant tug config or trust through $HOME, nor write the user repository via the alternate (bwrap)', async (t) => {
  if (!(await requireBwrap(t))) return;
  const repo = await makeRepo({ 'notes.txt': 'a\n' });
  const home = await fakeHome();
  const run = await tug(repo.root, ['tool', 'run_command', '--args', JSON.stringify({ command: HOSTILE })], { env: { HOME: home, XDG_CONFIG_HOME: '' } });
  t.is(run.json?.exit_code, 0, run.stdout + run.stderr);
  t.is(run.json.isolation.confinement, 'bwrap');
  t.deepEqual(planted(repo, home), []);
  await rm(home, { recursive: true, force: true });
  await repo.cleanup();
});

/** Pids whose environment holds `name=value`. */
async function processesWith(name: string, value: string): Promise<number[]> {
  const needle = `${name}=${value}`;
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const environ = await readFile(`/proc/${entry}/environ`, 'utf8').catch(() => '');
    if (environ.split('\0').includes(needle)) pids.push(Number(entry));
  }
  return pids;
}

for (const confinement of ['none', 'default'] as const) {
  test(`nothing a passing check started outlives it, also a detached process holding its output (${confinement})`, async (t) => {
    const repo = await makeRepo({ 'notes.txt': 'a\n' });
    // An allowlisted variable (LC_*) reaches every process of the check: it finds them afterwards.
    const tag = randomBytes(8).toString('hex');
    const detach = 'setsid sleep 300 > /dev/null 2>&1 < /dev/null & setsid sleep 301 & echo started';
    const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'tests', '--test-command', JSON.stringify(['sh', '-c', detach]), '--json'], {
      env: { LC_TUG_TEST_TAG: tag, TUG_DAEMON_AUTOSTART: '0', ...(confinement === 'none' ? { TUG_ISOLATION: 'none' } : {}) },
      input: EDIT,
    });
    t.is(run.exitCode, 0, run.stdout + run.stderr);
    // The check ends when its command does, not when the detached sleep lets go of the output (300 s).
    const left = await processesWith('LC_TUG_TEST_TAG', tag);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    t.deepEqual(left, []);
    await repo.cleanup();
  });
}

test('the sandbox stays writable when it lies inside the read-only repository (a runtime dir in the checkout)', async (t) => {
  if (!(await requireBwrap(t))) return;
  const repo = await makeRepo({ 'notes.txt': 'a\n', '.gitignore': '.runtime/\n' });
  const runtime = path.join(repo.root, '.runtime');
  await mkdir(runtime, { mode: 0o700 });
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'tests', '--test-command', JSON.stringify(['sh', '-c', 'echo built > output.txt']), '--json'], {
    env: { XDG_RUNTIME_DIR: runtime, TUG_DAEMON_AUTOSTART: '0' },
    input: EDIT,
  });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  t.is(run.json.verification.isolation.confinement, 'bwrap');
  t.false(existsSync(path.join(repo.root, 'output.txt')));
  await repo.cleanup();
});
