// `git tug …` works once bin/ is on PATH, and the help and version flags answer without a repository.
import test from 'ava';
import { execa } from 'execa';
import path from 'node:path';
import { makeRepo } from './helpers/repo.js';
import { TUG_BIN, tug } from './helpers/cli.js';

test('git runs git-tug from PATH, so `git tug snapshot` works', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const run = await execa('git', ['tug', 'snapshot', '--json'], {
    cwd: repo.root,
    env: { PATH: `${path.dirname(TUG_BIN)}${path.delimiter}${process.env['PATH']}` },
    reject: false,
  });
  t.is(run.exitCode, 0, run.stderr);
  t.is(JSON.parse(run.stdout).snapshot_id, await repo.git('rev-parse', 'HEAD^{tree}'));
  await repo.cleanup();
});

test('--help lists the working commands with examples and --version prints the version', async (t) => {
  const help = await tug('/', ['--help']);
  t.is(help.exitCode, 0);
  for (const command of ['snapshot', 'apply-patchset', 'verify', 'undo', 'session', 'clean']) t.regex(help.stdout, new RegExp(`tug ${command}`));
  const sub = await tug('/', ['apply-patchset', '--help']);
  t.regex(sub.stdout, /Examples:/);
  const version = await tug('/', ['--version']);
  t.regex(version.stdout, /^\d+\.\d+\.\d+$/);
  const none = await tug('/', []);
  t.is(none.exitCode, 2);
  t.is(none.json.error.code, 'InvalidArgument');
});

test('on a terminal tug prints a short summary instead of JSON', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const run = await execa('script', ['-qec', `${TUG_BIN} snapshot`, '/dev/null'], { cwd: repo.root, reject: false });
  t.is(run.exitCode, 0, run.stderr);
  t.regex(run.stdout, /^snapshot [0-9a-f]{40} {2}1 files, 6 bytes, clean/);
  await repo.cleanup();
});
