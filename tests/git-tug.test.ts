// `git tug …` works once bin/ is on PATH, and the help and version flags answer without a repository.
import test from 'ava';
import { execa } from './helpers/execa.js';
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

test('the refactor shorthands run under git: `git tug extract-variable`, `git tug inline`, `git tug organize-imports`', async (t) => {
  const repo = await makeRepo({ 'calc.py': 'import sys\nimport os\n\n\ndef f(a, b):\n    x = a + b\n    return x * 2, os.sep, sys.argv\n' });
  const env = { PATH: `${path.dirname(TUG_BIN)}${path.delimiter}${process.env['PATH']}` };
  const git = (args: string[]) => execa('git', ['tug', ...args, '--json'], { cwd: repo.root, env, reject: false });
  const extract = await git(['extract-variable', '--range', 'calc.py:6:9-6:14', '--name', 'total']);
  t.is(extract.exitCode, 0, extract.stdout);
  t.regex(JSON.parse(extract.stdout).git.branch, /^tug\/extract-variable\/variable-total$/);
  const inline = await git(['inline', '--at', 'calc.py:6:5']);
  t.is(inline.exitCode, 0, inline.stdout);
  t.true(JSON.parse(inline.stdout).patch.unified_diff.includes('+    return (a + b) * 2, os.sep, sys.argv'));
  const organize = await git(['organize-imports', '--file', 'calc.py']);
  t.is(organize.exitCode, 0, organize.stdout);
  t.true(JSON.parse(organize.stdout).patch.unified_diff.includes('+import sys'));
  t.is(await repo.git('status', '--porcelain'), '', 'nothing was written without --apply');
  await repo.cleanup();
});
