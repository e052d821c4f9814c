// A pyenv shim is asked once for every directory that reads the same version file, and again whenever what pyenv
// chooses by could have changed: a `.python-version` on the way up, the global version, the installed versions, a hook.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { launchFor, launchMemoFile, resolveShim } from '../lib/python/launcher.js';
import { pyenvShim } from '../lib/python/pyenv.js';
import { resolvePython } from '../lib/python/interpreter.js';

// This file's own cache folder (ava runs each test file in a process of its own); the tests run one at a time, since
// they change PYENV_VERSION.
process.env['XDG_CACHE_HOME'] = await mkdtemp(path.join(os.tmpdir(), 'tug-pyenv-cache-'));
const real = execFileSync((await resolvePython()).path, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

/** The text `pyenv rehash` writes for a shim (pyenv 2.x). */
const shimText = (root: string) =>
  `#!/usr/bin/env bash\nset -e\n[ -n "$PYENV_DEBUG" ] && set -x\n\nprogram="\${0##*/}"\n\nexport PYENV_ROOT="${root}"\nSHIM_PATH=\${0%/*}\nif [[ $SHIM_PATH != "${root}/shims" ]]; then\n  export _PYENV_SHIM_PATH="$SHIM_PATH"\nfi\nexec "${root}/libexec/pyenv" exec "$program" "$@"\n`;

/** A pyenv root whose `pyenv exec` notes each run in `runs` and starts the real interpreter; two project folders. */
async function fakePyenv() {
  const base = await mkdtemp(path.join(os.tmpdir(), 'tug-pyenv-'));
  const root = path.join(base, 'pyenv');
  const runs = path.join(base, 'runs');
  await mkdir(path.join(root, 'shims'), { recursive: true });
  await mkdir(path.join(root, 'libexec'), { recursive: true });
  await mkdir(path.join(root, 'versions', '3.99.0'), { recursive: true });
  await writeFile(path.join(root, 'version'), '3.99.0\n');
  const shim = path.join(root, 'shims', 'python3');
  await writeFile(shim, shimText(root));
  await writeFile(path.join(root, 'libexec', 'pyenv'), `#!/bin/sh\necho run >> '${runs}'\nshift 2\nexec '${real}' "$@"\n`);
  await chmod(shim, 0o755);
  await chmod(path.join(root, 'libexec', 'pyenv'), 0o755);
  const [a, b] = [path.join(base, 'a'), path.join(base, 'b')];
  await mkdir(a);
  await mkdir(b);
  const memo = (from: string) => launchMemoFile(shim, process.env, from)!;
  const count = () => readFile(runs, 'utf8').then((t) => t.split('\n').filter(Boolean).length, () => 0);
  return { base, root, shim, a, b, memo, count };
}

test('a pyenv shim is recognised by its text; another script is not', (t) => {
  t.deepEqual(pyenvShim(shimText('/home/u/.pyenv')), { root: '/home/u/.pyenv', prefix: '/home/u/.pyenv' });
  t.deepEqual(pyenvShim('#!/usr/bin/env bash\nset -e\nprogram="${0##*/}"\n\nexport PYENV_ROOT="/r"\nexec "/opt/pyenv/libexec/pyenv" exec "$program" "$@"\n'), { root: '/r', prefix: '/opt/pyenv' });
  t.is(pyenvShim('#!/bin/sh\nexec /usr/bin/python3 "$@"\n'), undefined);
  t.is(pyenvShim(`${shimText('/r')}echo more\n`), undefined, 'a script that does more after pyenv is not what pyenv wrote');
});

test.serial('directories that read the same version file share what the shim ran; a sandbox without a memo file too', async (t) => {
  const { base, shim, a, b, memo, count } = await fakePyenv();
  t.is(await resolveShim(shim, a, memo(a)), real);
  t.is(await count(), 1);
  t.is(await resolveShim(shim, b, memo(b)), real, 'another directory, the same global version');
  t.is((await launchFor(shim, undefined, path.join(b, 'deeper'))).path, real, 'no memo file given (a sandbox): the shared one');
  t.is(await count(), 1, 'the shim ran once');
  await rm(base, { recursive: true, force: true });
});

test.serial('what pyenv chooses by changes: the shim is asked again', async (t) => {
  const { base, root, shim, a, b, memo, count } = await fakePyenv();
  const ask = async (from: string) => (await launchFor(shim, memo(from), from)).path;
  await resolveShim(shim, a, memo(a));
  t.is(await ask(b), real);

  await writeFile(path.join(b, '.python-version'), '3.98.0\n');
  t.is(await ask(b), shim, 'a .python-version in the directory');
  t.is(await ask(a), real, 'not in the other');
  await rm(path.join(b, '.python-version'));
  t.is(await ask(b), real);

  await writeFile(path.join(root, 'version'), '3.98.1\n');
  t.is(await ask(a), shim, 'the global version changed');
  await writeFile(path.join(root, 'version'), '3.99.0\n');
  t.is(await ask(a), real);

  await mkdir(path.join(root, 'versions', '3.99.1'));
  t.is(await ask(a), shim, 'a version installed (a prefix may now pick it)');
  await rm(path.join(root, 'versions', '3.99.1'), { recursive: true });

  process.env['PYENV_VERSION'] = '3.97.0';
  try {
    t.is(await ask(a), shim, 'PYENV_VERSION set');
  } finally {
    delete process.env['PYENV_VERSION'];
  }
  t.is(await count(), 1);
  await rm(base, { recursive: true, force: true });
});

test.serial('a version-name hook makes the memo one per directory again', async (t) => {
  const { base, root, shim, a, b, memo, count } = await fakePyenv();
  await mkdir(path.join(root, 'plugins', 'local', 'etc', 'pyenv.d', 'version-name'), { recursive: true });
  await writeFile(path.join(root, 'plugins', 'local', 'etc', 'pyenv.d', 'version-name', 'by-dir.bash'), 'true\n');
  t.is(await resolveShim(shim, a, memo(a)), real);
  t.is((await launchFor(shim, memo(a), a)).path, real, 'the same directory: remembered');
  t.is((await launchFor(shim, memo(b), b)).path, shim, 'another directory: asked again');
  t.is(await count(), 1);
  await rm(base, { recursive: true, force: true });
});
