// A session dir tug cannot write answers SessionNotWritable (exit 2) naming it, fast: a read-only session dir, a
// read-only repository (its .git/tug), and a --session-dir inside /proc (where Node's recursive mkdir loops forever).
import test from 'ava';
import { execa } from '../helpers/execa.js';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TUG_BIN, type TugRun } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';

const SOURCE = { 'a.py': 'def f():\n    return 1\n' };
const ROOT = process.getuid?.() === 0;
// Root writes through permission bits, so a read-only mount (bubblewrap's --ro-bind) stands in for chmod there.
const canMakeReadOnly = !ROOT || existsSync('/usr/bin/bwrap') || existsSync('/bin/bwrap');

/** Runs tug with `readOnly` unwritable: chmod for a normal user, a read-only bind mount for root. */
async function tugReadOnly(cwd: string, readOnly: string, args: string[]): Promise<TugRun> {
  const env = { TUG_LOCK_TIMEOUT_MS: '2000' };
  const run = ROOT
    ? await execa('bwrap', ['--dev-bind', '/', '/', '--ro-bind', readOnly, readOnly, '--', TUG_BIN, ...args], { cwd, reject: false, env, stdin: 'ignore', timeout: 120_000 })
    : await (async () => {
        await execa('chmod', ['-R', 'a-w', readOnly]);
        try {
          return await execa(TUG_BIN, args, { cwd, reject: false, env, stdin: 'ignore', timeout: 120_000 });
        } finally {
          await execa('chmod', ['-R', 'u+w', readOnly]);
        }
      })();
  let json: any;
  try {
    json = JSON.parse(run.stdout);
  } catch {
    json = undefined;
  }
  return { exitCode: run.exitCode ?? -1, stdout: run.stdout, stderr: run.stderr, json };
}

const readOnlyTest = canMakeReadOnly ? test : test.skip;

readOnlyTest('an existing read-only session dir is SessionNotWritable for a change and a read-only query; status and clean still answer', async (t) => {
  const repo = await makeRepo(SOURCE);
  const sessionDir = path.join(repo.root, '.git', 'tug');
  const first = await execa(TUG_BIN, ['rename', 'a.py:1:5', 'g', '--verify', 'none'], { cwd: repo.root, reject: false });
  t.is(first.exitCode, 0, first.stdout);
  for (const args of [
    ['rename', 'a.py:1:5', 'h', '--verify', 'none'],
    ['analyze-impact', 'rename-symbol', '--at', 'a.py:1:5', '--to', 'z'],
  ]) {
    const run = await tugReadOnly(repo.root, sessionDir, args);
    t.is(run.exitCode, 2, `${args.join(' ')}: ${run.stdout}${run.stderr}`);
    t.is(run.json?.error.code, 'SessionNotWritable');
    t.is(run.json?.error.details.path, sessionDir);
  }
  for (const args of [['session', 'status'], ['clean']]) {
    const run = await tugReadOnly(repo.root, sessionDir, args);
    t.is(run.exitCode, 0, `${args.join(' ')}: ${run.stdout}${run.stderr}`);
  }
  await repo.cleanup();
});

readOnlyTest('a read-only repository is SessionNotWritable (exit 2), not an internal error', async (t) => {
  const repo = await makeRepo(SOURCE);
  for (const args of [
    ['rename', 'a.py:1:5', 'g', '--verify', 'none'],
    ['analyze-impact', 'rename-symbol', '--at', 'a.py:1:5', '--to', 'z'],
  ]) {
    const run = await tugReadOnly(repo.root, repo.root, args);
    t.is(run.exitCode, 2, `${args.join(' ')}: ${run.stdout}${run.stderr}`);
    t.is(run.json?.error.code, 'SessionNotWritable');
    t.is(run.json?.error.details.path, path.join(repo.root, '.git', 'tug'));
  }
  await repo.cleanup();
});

readOnlyTest('a read-only directory given as --session-dir is SessionNotWritable', async (t) => {
  const repo = await makeRepo(SOURCE);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-ro-session-'));
  await mkdir(path.join(dir, 'inner'));
  const run = await tugReadOnly(repo.root, dir, ['rename', 'a.py:1:5', 'g', '--verify', 'none', '--session-dir', path.join(dir, 'inner')]);
  t.is(run.json?.error.code, 'SessionNotWritable', run.stdout);
  await chmod(dir, 0o755);
  await rm(dir, { recursive: true, force: true });
  await repo.cleanup();
});

for (const dir of ['/proc/tug-session', '/proc/self/tug', '/proc/1/a/b']) {
  test(`--session-dir ${dir} is SessionNotWritable at once (it hung)`, async (t) => {
    const repo = await makeRepo(SOURCE);
    const run = await execa(TUG_BIN, ['rename', 'a.py:1:5', 'g', '--verify', 'none', '--session-dir', dir], {
      cwd: repo.root,
      reject: false,
      stdin: 'ignore',
      timeout: 120_000,
    });
    t.false(run.timedOut, 'tug hung');
    t.is(run.exitCode, 2, run.stdout);
    t.is(JSON.parse(run.stdout).error.code, 'SessionNotWritable');
    t.is(JSON.parse(run.stdout).error.details.path, dir);
    await repo.cleanup();
  });
}
