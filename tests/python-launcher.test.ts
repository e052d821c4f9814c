// The shim memo: a version manager's shim is started once, then what it ran is started directly until something that steers it changes.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { launchFor } from '../lib/python/launcher.js';
import { resolvePython } from '../lib/python/interpreter.js';

// The interpreter itself, not a shim in front of it (PATH's python3 may be one).
const real = execFileSync((await resolvePython()).path, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

async function shim(): Promise<{ dir: string; shim: string; memo: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-shim-'));
  const file = path.join(dir, 'python3');
  await writeFile(file, `#!/bin/sh\nexec ${real} "$@"\n`);
  await chmod(file, 0o755);
  return { dir, shim: file, memo: path.join(dir, 'session', 'launch.json') };
}

test('a shim is remembered and skipped while nothing that steers it changes', async (t) => {
  const { dir, shim: file, memo } = await shim();
  const first = await launchFor(file, memo);
  t.is(first.path, file, 'nothing remembered yet: the shim runs');
  await first.remember('/opt/python/bin/python3.12');
  t.is((await launchFor(file, memo)).path, file, 'a remembered interpreter that does not exist is not used');
  await (await launchFor(file, memo)).remember(real);
  t.is((await launchFor(file, memo)).path, real);

  const before = process.env['PYENV_VERSION'];
  process.env['PYENV_VERSION'] = 'something-else';
  t.is((await launchFor(file, memo)).path, file, 'a steering variable changed');
  if (before === undefined) delete process.env['PYENV_VERSION'];
  else process.env['PYENV_VERSION'] = before;
  t.is((await launchFor(file, memo)).path, real);

  const later = new Date(Date.now() + 60_000);
  await utimes(file, later, later);
  t.is((await launchFor(file, memo)).path, file, 'the shim itself changed');
  await rm(dir, { recursive: true, force: true });
});

test('a real interpreter is started as it is, and nothing is remembered', async (t) => {
  const { dir, memo } = await shim();
  const launch = await launchFor(real, memo);
  t.is(launch.path, real);
  await launch.remember('/somewhere/else/python3');
  t.is((await launchFor(real, memo)).path, real);
  await rm(dir, { recursive: true, force: true });
});
