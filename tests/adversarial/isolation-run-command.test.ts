// run_command cannot reach the user's git dir, runs confined where bubblewrap works, and leaves no process behind (setsid included).
import test, { type ExecutionContext } from 'ava';
import { execa } from '../helpers/execa.js';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { tug } from '../helpers/cli.js';
import { makeRepo, repoState, type TestRepo, tempDir } from '../helpers/repo.js';
import { missing } from '../helpers/toolchains.js';

const env = { XDG_CONFIG_HOME: await tempDir('tug-isolation-config-') };

async function runCommand(repo: TestRepo, args: Record<string, unknown>, extraEnv: Record<string, string> = {}) {
  const run = await tug(repo.root, ['tool', 'run_command', '--args', JSON.stringify(args)], { env: { ...env, ...extraEnv } });
  if (!run.json) throw new Error(run.stdout + run.stderr);
  return run.json;
}

/** bubblewrap is part of CI (.ci/run installs it); elsewhere a machine without a working one skips loudly. */
async function requireBwrap(t: ExecutionContext): Promise<boolean> {
  const probe = await execa('bwrap', ['--bind', '/', '/', '--unshare-pid', '--unshare-net', 'true'], { reject: false });
  if (probe.exitCode === 0) return true;
  missing(t, `bwrap missing or unusable here (${probe.stderr || probe.shortMessage}); apt-get install bubblewrap`);
  return false;
}

async function gitState(repo: TestRepo): Promise<string> {
  return JSON.stringify({
    state: await repoState(repo),
    all: await repo.git('for-each-ref', '--format=%(refname) %(objectname)'),
    stash: await repo.git('stash', 'list'),
    config: await readFile(path.join(repo.root, '.git', 'config'), 'utf8'),
  });
}

const HOSTILE_GIT = [
  'git branch -D other',
  'git update-ref -d refs/heads/main',
  'git stash clear',
  'git config user.name attacker',
  'git tag planted',
  'git remote add evil /nowhere',
  'git rev-parse --path-format=absolute --git-common-dir',
].join('; ');

for (const confinement of ['none', 'unshare', 'default'] as const) {
  test(`the command's git dir is its own: branches, stash and config of the user survive (${confinement})`, async (t) => {
    const repo = await makeRepo({ 'a.txt': 'a\n' });
    await repo.git('branch', 'other');
    await repo.write('a.txt', 'stashed\n');
    await repo.git('stash');
    const before = await gitState(repo);
    const out = await runCommand(repo, { command: HOSTILE_GIT }, confinement === 'default' ? {} : { TUG_ISOLATION: confinement });
    t.is(out.isolation.checkout, 'separate-git-dir');
    if (confinement === 'none') t.is(out.isolation.confinement, 'none');
    t.false(out.stdout.trim().split('\n').at(-1)!.startsWith(repo.root), out.stdout);
    t.is(await gitState(repo), before);
    await repo.cleanup();
  });

  test(`the timeout kills every process, also those that called setsid; nothing outlives the command (${confinement})`, async (t) => {
    const repo = await makeRepo({ 'a.txt': 'a\n' });
    const marks = await tempDir('tug-isolation-marks-');
    const late = (name: string) => `sh -c 'sleep 3; touch ${path.join(marks, name)}'`;
    const out = await runCommand(
      repo,
      { command: `setsid ${late('setsid')} & setsid -f ${late('setsid-fork')}; (${late('child')}) & sleep 60`, timeout: 1 },
      confinement === 'default' ? {} : { TUG_ISOLATION: confinement },
    );
    const timedOutAt = Date.now();
    t.true(out.timed_out, JSON.stringify(out));
    const quick = await runCommand(repo, { command: `(${late('background')}) >/dev/null 2>&1 </dev/null & echo started` }, confinement === 'default' ? {} : { TUG_ISOLATION: confinement });
    const quickAt = Date.now();
    t.is(quick.stdout, 'started\n');
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    // A mark written after its run had answered is a survivor. One written before (a loaded machine can take over 3 s to
    // reach the kill) only says the timeout came late, which is not what this test is about.
    const after = (name: string) => statSync(path.join(marks, name), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    for (const name of ['setsid', 'setsid-fork', 'child']) t.true(after(name) < timedOutAt, `${name} survived`);
    t.true(after('background') < quickAt, 'background survived');
    await repo.cleanup();
  });
}

test('with bubblewrap the user repository is read-only and there is no network, and the result says so', async (t) => {
  if (!(await requireBwrap(t))) return;
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  await repo.git('branch', 'other');
  const before = await gitState(repo);
  const root = repo.root;
  const out = await runCommand(repo, {
    command: `echo x > ${root}/a.txt; echo y >> ${root}/.git/config; rm -rf ${root}/.git/refs; touch ${root}/planted; git push -q "$(dirname "$(cat .git/objects/info/alternates)")" :other; cat /proc/net/dev; echo made > here.txt && cat here.txt`,
  });
  t.deepEqual(out.isolation, { checkout: 'separate-git-dir', confinement: 'bwrap', repository_read_only: true, network: false, process_tree: 'pid-namespace' });
  t.regex(out.stderr, /Read-only file system/);
  t.regex(out.stdout, /made\n$/, 'the checkout itself is writable');
  const interfaces = [...out.stdout.matchAll(/^\s*([\w-]+):/gm)].map((m) => m[1]);
  t.deepEqual(interfaces, ['lo'], 'only loopback: no network');
  t.is(await gitState(repo), before);
  t.false(existsSync(path.join(root, 'planted')));
  await repo.cleanup();
});

test('a verification command that times out takes its setsid children with it', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const marks = await tempDir('tug-isolation-marks-');
  const command = ['sh', '-c', `setsid sh -c 'sleep 3; touch ${path.join(marks, 'late')}' & sleep 60`];
  const run = await tug(repo.root, ['verify', '--verify', 'tests', '--timeout', '1', '--test-command', JSON.stringify(command)], { env });
  t.is(run.json?.error?.code, 'VerificationFailed', run.stdout + run.stderr);
  t.true(run.json.error.details.verification.checks.find((c: { name: string }) => c.name === 'tests').timed_out);
  await new Promise((resolve) => setTimeout(resolve, 4_500));
  t.false(existsSync(path.join(marks, 'late')), 'the setsid child survived the timeout');
  await repo.cleanup();
});
