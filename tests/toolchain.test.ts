// `tug toolchain python info|check|setup` with real interpreters and venvs.
import test from 'ava';
import path from 'node:path';
import { execa } from './helpers/execa.js';
import { makeRepo, tempDir } from './helpers/repo.js';
import { tug } from './helpers/cli.js';

test('info reports the interpreter, its source, LibCST and the search; check passes', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const info = await tug(repo.root, ['toolchain', 'python', 'info']);
  t.is(info.exitCode, 0, info.stdout);
  t.true(info.json.python.found);
  t.truthy(info.json.python.libcst);
  t.regex(info.json.python.version, /^3\./);
  t.true(info.json.python.searched.length > 0);
  const check = await tug(repo.root, ['toolchain', 'python', 'check']);
  t.is(check.exitCode, 0, check.stdout);
  await repo.cleanup();
});

test('check names what is wrong (a missing interpreter, with the search); one without LibCST passes, LibCST being optional', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const missing = await tug(repo.root, ['toolchain', 'python', 'check', '--python', '/nonexistent/python3']);
  t.is(missing.exitCode, 2);
  t.is(missing.json.error.code, 'PythonNotFound');
  t.true(missing.json.error.details.searched_paths.some((p: string) => p.includes('/nonexistent/python3')));
  const bare = path.join(await tempDir('tug-venv-'), 'venv');
  await execa('python3', ['-m', 'venv', '--without-pip', bare]);
  const noCst = await tug(repo.root, ['toolchain', 'python', 'check', '--python', path.join(bare, 'bin', 'python')]);
  t.is(noCst.exitCode, 0, noCst.stdout);
  t.is(noCst.json.python.libcst, null);
  await repo.cleanup();
});

test('setup makes a managed venv that reuses site packages and becomes the session interpreter', async (t) => {
  const repo = await makeRepo({ 'a.py': 'def f():\n    return 1\n' });
  const setup = await tug(repo.root, ['toolchain', 'python', 'setup']);
  t.is(setup.exitCode, 0, setup.stdout);
  t.is(setup.json.python.source, 'managed venv');
  t.truthy(setup.json.python.libcst, 'site packages are visible in the venv');
  const info = await tug(repo.root, ['toolchain', 'python', 'info']);
  t.is(info.json.python.source, 'session config');
  t.is(info.json.python.interpreter, setup.json.python.interpreter);
  const rename = await tug(repo.root, ['rename', 'a.py:1:5', 'g']);
  t.is(rename.exitCode, 0, rename.stdout);
  t.is(rename.json.verification.checks[0].command[0], setup.json.python.interpreter, 'verification runs with the session interpreter');
  await repo.cleanup();
});

test('a rename with an interpreter that lacks LibCST works: renames need only the standard library', async (t) => {
  const repo = await makeRepo({ 'a.py': 'def f():\n    return 1\n\n\nprint(f())\n' });
  const bare = path.join(await tempDir('tug-venv-'), 'venv');
  await execa('python3', ['-m', 'venv', '--without-pip', bare]);
  const python = path.join(bare, 'bin', 'python');
  t.not((await execa(python, ['-c', 'import libcst'], { reject: false })).exitCode, 0, 'the venv has no LibCST');
  const run = await tug(repo.root, ['rename', 'a.py:1:5', 'g', '--python', python, '--apply']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.summary.edits_count, 2);
  t.is(await repo.readText('a.py'), 'def g():\n    return 1\n\n\nprint(g())\n');
  await repo.cleanup();
});
