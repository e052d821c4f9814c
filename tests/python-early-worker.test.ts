// bin/tug starts a Python refactor's worker before the CLI loads: the analysis takes it over when it chose the same
// interpreter, and ends it unused when it chose another (here, the user config's python_path). Either way the result
// is the same and no worker outlives the command.
import test from 'ava';
import { chmod, mkdir, mkdtemp, readdir, readFile, readlink, realpath, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { wantsEarlyWorker } from '../lib/python/early-worker.js';

const FILES = { 'calc.py': 'def area(width, height):\n    return (width + 1) * height\n' };
const ARGS = ['analyze-impact', 'extract-variable', '--range', 'calc.py:2:12-2:23', '--name', 'wide', '--json'];

/** Python worker processes whose working directory is `dir` (each test uses its own repository). */
async function workersIn(dir: string): Promise<number[]> {
  const found: number[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const [cmdline, cwd] = await Promise.all([readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => ''), readlink(`/proc/${pid}/cwd`).catch(() => '')]);
    if (cmdline.includes('tug_worker.py') && cwd === dir) found.push(Number(pid));
  }
  return found;
}

const timings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('tug timing '));

test('which commands start a worker early: Python refactors that always ask one, by their target', (t) => {
  t.true(wantsEarlyWorker(['extract-variable', '--range', 'a.py:1:1-1:2', '--name', 'x']));
  t.true(wantsEarlyWorker(['analyze-impact', 'inline', '--at=src/m.pyi:3:4']));
  t.true(wantsEarlyWorker(['run', 'change-signature', '--at', 'm.py:1:5', '--params', '[]']));
  t.false(wantsEarlyWorker(['inline', '--at', 'src/lib.rs:3:4']), 'Rust');
  t.false(wantsEarlyWorker(['rename', '--at', 'm.py:1:5', '--to', 'x']), 'a rename may need no worker');
  t.true(wantsEarlyWorker(['organize-imports', '--file', 'm.py']), 'the worker organizes what it can prove');
  t.true(wantsEarlyWorker(['organize-imports', '--files', 'a.py']));
  t.false(wantsEarlyWorker(['organize-imports', '--file', 'src/lib.rs']), 'Rust');
  t.false(wantsEarlyWorker(['inline']), 'no target');
  t.true(wantsEarlyWorker(['move', 'shop/pricing.py:34:5', 'shop.discounts']), 'the target as a positional');
  t.true(wantsEarlyWorker(['run', 'extract-variable', '--verify', 'tests', 'a.py:1:1-1:2', 'x']));
  t.true(wantsEarlyWorker(['organize-imports', 'a.py', 'b.py']));
  t.false(wantsEarlyWorker(['move', 'src/lib.rs:1:1', 'other.py']), 'the first source file is the target: Rust');
});

test('the analysis takes over the early worker for the same interpreter; none is left after the command', async (t) => {
  const repo = await makeRepo(FILES);
  const run = await tug(repo.root, ARGS, { env: { TUG_DAEMON_AUTOSTART: '0', TUG_TIMINGS: '1' } });
  t.is(run.exitCode, 0, run.stderr);
  t.regex(run.json.patch.unified_diff, /\+    wide = width \+ 1\n/);
  t.true(timings(run.stderr).some((l) => l.endsWith('python: took over the early worker')), timings(run.stderr).join('\n'));
  t.deepEqual(await workersIn(await realpath(repo.root)), []);
});

test('when the configuration chooses another interpreter, the early worker is ended unused and the chosen one answers', async (t) => {
  const config = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tug-early-cfg-')));
  const marks = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tug-early-marks-')));
  // A Python of the user's choosing (a wrapper, so it is another path than python3 on PATH) that leaves a mark.
  const wrapper = path.join(marks, 'python');
  await writeFile(wrapper, `#!/bin/sh\ntouch ${path.join(marks, 'ran')}\nexec python3 "$@"\n`);
  await chmod(wrapper, 0o755);
  await mkdir(path.join(config, 'tug'));
  await writeFile(path.join(config, 'tug', 'config.toml'), `[python]\npython_path = "${wrapper}"\n`);
  const repo = await makeRepo(FILES);
  const run = await tug(repo.root, ARGS, { env: { TUG_DAEMON_AUTOSTART: '0', TUG_TIMINGS: '1', XDG_CONFIG_HOME: config } });
  t.is(run.exitCode, 0, run.stderr);
  t.regex(run.json.patch.unified_diff, /\+    wide = width \+ 1\n/);
  t.false(timings(run.stderr).some((l) => l.endsWith('python: took over the early worker')), 'the early worker ran another interpreter');
  t.truthy(await readFile(path.join(marks, 'ran')).catch(() => null), 'the configured interpreter answered');
  t.deepEqual(await workersIn(await realpath(repo.root)), []);
});
