// A hung Python interpreter is WorkerTimeout at the worker start deadline, once (it was reported as a 20 s timeout
// after 101 s: the shim probe and the start each waited, twice), names the variable that raises the deadline, and
// leaves no process behind.
import test from 'ava';
import { execa } from '../helpers/execa.js';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tug } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';

const MARKER = '987654.25';

async function leftover(): Promise<string> {
  const ps = await execa('ps', ['-eo', 'pid,args'], { reject: false });
  return ps.stdout
    .split('\n')
    .filter((line) => line.includes(`sleep ${MARKER}`))
    .join('\n');
}

test('a hung interpreter is WorkerTimeout at the start deadline, naming TUG_PYTHON_START_TIMEOUT_MS', async (t) => {
  const repo = await makeRepo({ 'a.py': 'def f():\n    return 1 + 2\n' });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-hung-python-'));
  const python = path.join(dir, 'python3');
  // A script, as a version manager's shim is: tug first asks it for its interpreter, then starts the worker.
  await writeFile(python, `#!/bin/sh\nexec sleep ${MARKER}\n`);
  await chmod(python, 0o755);
  // A "does not hang" guard, not a timing assertion: the old code waited 30 s + 20 s, twice; the deadline's own figure is checked below.
  t.timeout(300_000);
  const run = await tug(repo.root, ['extract-variable', '--range', 'a.py:2:12-2:17', '--name', 'three', '--verify', 'none', '--python', python], {
    env: { TUG_PYTHON_START_TIMEOUT_MS: '3000' },
  });
  t.is(run.exitCode, 10, run.stdout);
  t.is(run.json.error.code, 'WorkerTimeout');
  t.is(run.json.error.details.timeout_seconds, 3);
  t.is(run.json.error.details.variable, 'TUG_PYTHON_START_TIMEOUT_MS');
  t.regex(run.json.error.message, /within 3s .*TUG_PYTHON_START_TIMEOUT_MS/);
  t.is(await leftover(), '', 'the hung interpreter was left running');
  await rm(dir, { recursive: true, force: true });
  await repo.cleanup();
});

test('the default start deadline stretches with the machine load, within bounds; the variable still wins', async (t) => {
  const { loadStretch, workerStartMs } = await import('../../lib/python/start-deadline.js');
  t.is(loadStretch(0.5, 2), 1, 'an idle machine keeps 20 s');
  t.is(loadStretch(8, 2), 4, 'four runnable processes per core: four times as long');
  t.is(loadStretch(90, 2), 10, 'never more than ten times');
  const saved = process.env['TUG_PYTHON_START_TIMEOUT_MS'];
  try {
    process.env['TUG_PYTHON_START_TIMEOUT_MS'] = '1234';
    t.is(workerStartMs(), 1234);
    delete process.env['TUG_PYTHON_START_TIMEOUT_MS'];
    t.true(workerStartMs() >= 20_000 && workerStartMs() <= 200_000);
  } finally {
    if (saved === undefined) delete process.env['TUG_PYTHON_START_TIMEOUT_MS'];
    else process.env['TUG_PYTHON_START_TIMEOUT_MS'] = saved;
  }
});
