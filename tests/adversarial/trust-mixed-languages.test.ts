// Verification covers every language a change touches: a repository with a Python package and a Cargo crate runs pytest and cargo test.
import test from 'ava';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { patchset, tug } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';
import { requireRustToolchain } from '../helpers/toolchains.js';

const env = { XDG_CONFIG_HOME: await mkdtemp(path.join(os.tmpdir(), 'tug-mixed-config-')) };

const FILES = {
  'Cargo.toml': '[package]\nname = "mixed"\nversion = "0.1.0"\nedition = "2021"\n\n[lib]\npath = "src/lib.rs"\n',
  'src/lib.rs': 'pub fn answer() -> i32 {\n    42\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn answers() {\n        assert_eq!(super::answer(), 42);\n    }\n}\n',
  'py/calc.py': 'def double(x):\n    return x * 2\n',
  'tests/test_calc.py': 'import sys, pathlib\nsys.path.insert(0, str(pathlib.Path(__file__).parent.parent / "py"))\nfrom calc import double\n\n\ndef test_double():\n    assert double(2) == 4\n',
  '.gitignore': 'target/\n',
};

type Check = { name: string; status: string; command?: string[]; output?: string };
const ran = (checks: Check[]) => checks.map((c) => `${c.name}:${c.status}:${(c.command ?? []).slice(0, 2).map((a) => path.basename(a).replace(/^python[0-9.]*$/, 'python')).join(' ')}`);

test('tests mode runs cargo test and pytest; a failing pytest fails the verification', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  const repo = await makeRepo(FILES);
  const pass = await tug(repo.root, ['verify', '--verify', 'tests'], { env });
  t.is(pass.exitCode, 0, pass.stdout + pass.stderr);
  const checks: Check[] = pass.json.verification.checks;
  t.deepEqual(ran(checks).filter((c) => !c.startsWith('python-syntax')), ['cargo check:passed:cargo check', 'tests:passed:cargo test', 'tests:passed:python -m']);
  t.true(checks.some((c) => c.name === 'tests' && c.command?.includes('pytest')), 'pytest ran');

  await repo.write('py/calc.py', 'def double(x):\n    return x * 3\n');
  const fail = await tug(repo.root, ['verify', '--verify', 'tests'], { env });
  t.is(fail.exitCode, 5, fail.stdout);
  const failed: Check[] = fail.json.error.details.verification.checks;
  t.deepEqual(failed.filter((c) => c.status === 'failed').map((c) => c.command!.includes('pytest')), [true]);
  t.regex(failed.find((c) => c.status === 'failed')!.output!, /test_double/);
  t.true(failed.some((c) => c.name === 'tests' && c.command?.[0] === 'cargo' && c.status === 'passed'), 'cargo test ran too');
  await repo.cleanup();
});

test('a change touching both languages runs both test suites', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  const repo = await makeRepo(FILES);
  const edits = patchset([
    { file: 'src/lib.rs', line: 2, col: 5, old_text: '42', new_text: '43' },
    { file: 'py/calc.py', line: 2, col: 16, old_text: '2', new_text: '2' + ' + 0' },
  ]);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'tests'], { env, input: edits });
  t.is(run.exitCode, 5, run.stdout);
  const checks: Check[] = run.json.error.details.verification.checks;
  t.deepEqual(ran(checks), ['python-syntax:passed:python -I', 'cargo check:passed:cargo check', 'tests:failed:cargo test', 'tests:passed:python -m']);
  await repo.cleanup();
});
