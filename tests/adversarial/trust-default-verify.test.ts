// The default verification: syntax everywhere; the project's tests (pytest with its doctests, else unittest) only in a trusted repository.
import test from 'ava';
import { execa } from '../helpers/execa.js';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { patchset, tug } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';

const env = { XDG_CONFIG_HOME: await mkdtemp(path.join(os.tmpdir(), 'tug-default-verify-config-')) };

const APP = 'def f():\n    """\n    >>> f()\n    1\n    """\n    return 1\n';
// Passes for either result, so only the doctest in app.py notices the change below.
const TESTS = 'from app import f\n\n\ndef test_f():\n    assert f() in (1, 2)\n';
const BREAK = patchset([{ file: 'app.py', line: 6, col: 12, old_text: '1', new_text: '2' }]);

type Check = { name: string; status: string; reason?: string; command?: string[]; output?: string };
const checksOf = (run: { json: any }): Check[] => (run.json.verification ?? run.json.error?.details?.verification)?.checks ?? [];

test('untrusted: the default is syntax only, and the result says how to run the tests', async (t) => {
  const repo = await makeRepo({ 'app.py': APP, 'tests/test_app.py': TESTS, 'pyproject.toml': '[tool.pytest.ini_options]\naddopts = "--doctest-modules"\n' });
  const run = await tug(repo.root, ['apply-patchset', '-f', '-'], { env, input: BREAK });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  t.is(run.json.verification.mode, 'syntax');
  const checks = checksOf(run);
  t.deepEqual(checks.map((c) => [c.name, c.status]), [['python-syntax', 'passed'], ['tests', 'skipped']]);
  t.regex(checks[1]!.reason!, /`tug trust`.*--verify tests/);
  await repo.cleanup();
});

test("trusted: the default runs the project's pytest suite with the doctests its config enables", async (t) => {
  const repo = await makeRepo({ 'app.py': APP, 'tests/test_app.py': TESTS, 'pyproject.toml': '[tool.pytest.ini_options]\naddopts = "--doctest-modules"\n' });
  t.is((await tug(repo.root, ['trust', '--confirm'], { env })).json.trust, 'trusted');
  const run = await tug(repo.root, ['apply-patchset', '-f', '-'], { env, input: BREAK });
  t.is(run.exitCode, 5, run.stdout);
  t.is(run.json.error.code, 'VerificationFailed');
  t.is(run.json.error.details.verification.mode, 'tests');
  const tests = checksOf(run).find((c) => c.name === 'tests')!;
  t.deepEqual(tests.command!.slice(1), ['-m', 'pytest', '-q']);
  t.regex(tests.output!, /\[doctest\] app\.f/);
  t.is(await repo.git('for-each-ref', 'refs/heads/tug'), '', 'no branch for a failed verification');
  const fine = await tug(repo.root, ['apply-patchset', '-f', '-'], { env, input: patchset([{ file: 'tests/test_app.py', line: 5, col: 5, old_text: 'assert', new_text: 'assert' + ' True or' }]) });
  t.is(fine.exitCode, 0, fine.stdout);
  t.deepEqual(checksOf(fine).map((c) => [c.name, c.status]), [['python-syntax', 'passed'], ['tests', 'passed']]);
  await repo.cleanup();
});

test('trusted, pytest not importable: the tests/ folder runs with unittest discover', async (t) => {
  const venv = await mkdtemp(path.join(os.tmpdir(), 'tug-no-pytest-'));
  await execa('python3', ['-m', 'venv', '--without-pip', venv]);
  const python = path.join(venv, 'bin', 'python');
  const unit = 'import unittest\n\nfrom app import f\n\n\nclass T(unittest.TestCase):\n    def test_f(self):\n        self.assertEqual(f(), 1)\n';
  const repo = await makeRepo({ 'app.py': 'def f():\n    return 1\n', 'tests/__init__.py': '', 'tests/test_app.py': unit });
  await tug(repo.root, ['trust', '--confirm'], { env });
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--python', python], { env, input: patchset([{ file: 'app.py', line: 2, col: 12, old_text: '1', new_text: '2' }]) });
  t.is(run.exitCode, 5, run.stdout);
  const tests = checksOf(run).find((c) => c.name === 'tests')!;
  t.deepEqual(tests.command!.slice(1), ['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.']);
  t.regex(tests.output!, /AssertionError: 2 != 1/);
  await repo.cleanup();
});
