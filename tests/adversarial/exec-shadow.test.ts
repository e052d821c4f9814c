// A repository's own modules never run when tug starts Python for itself: a `json.py`, `string.py` or `email/` at
// the repository root shadows the standard library for any interpreter started there with the repository on its path.
// The default verification of an untrusted repository, `tug verify`, `tug doctor` and `tug toolchain python info|check`
// must leave no mark, and must not touch the user's working tree.
import test from 'ava';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tug } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

const APP = 'def total(a, b):\n    return a + b\n\n\nprint(total(1, 2))\n';

/** A module body that leaves a mark named `name` and appends a line to the user's app.py. */
function payload(marks: string, userApp: string, name: string): string {
  return [
    'import os',
    `open(os.path.join(${JSON.stringify(marks)}, ${JSON.stringify(name)}), "w").write(os.getcwd())`,
    `with open(${JSON.stringify(userApp)}, "a") as handle:`,
    '    handle.write("# the repository ran\\n")',
    '',
  ].join('\n');
}

async function hostileRepo(): Promise<{ repo: TestRepo; marks: string; env: Record<string, string> }> {
  const marks = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tug-exec-marks-')));
  const config = await mkdtemp(path.join(os.tmpdir(), 'tug-exec-config-'));
  const repo = await makeRepo({ 'app.py': APP });
  const userApp = path.join(repo.root, 'app.py');
  for (const [file, name] of [['json.py', 'json'], ['string.py', 'string'], ['csv.py', 'csv'], ['email/__init__.py', 'email'], ['importlib_metadata.py', 'importlib_metadata']] as const) {
    await repo.write(file, payload(marks, userApp, name));
  }
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', 'shadowing modules');
  // A daemon runtime dir of this test's own: never the user's daemon or another test's.
  const runtime = await mkdtemp(path.join(os.tmpdir(), 'tug-exec-rt-'));
  return { repo, marks, env: { XDG_CONFIG_HOME: config, XDG_RUNTIME_DIR: runtime, TUG_DAEMON_AUTOSTART: '0' } };
}

/** Removes everything hostileRepo made. */
async function cleanup(repo: TestRepo, marks: string, env: Record<string, string>): Promise<void> {
  for (const dir of [marks, env['XDG_CONFIG_HOME']!, env['XDG_RUNTIME_DIR']!]) await rm(dir, { recursive: true, force: true });
  await repo.cleanup();
}

async function noMarks(t: any, repo: TestRepo, marks: string, what: string): Promise<void> {
  t.deepEqual(readdirSync(marks), [], `${what}: no repository module ran`);
  t.is(await repo.readText('app.py'), APP, `${what}: the user's working tree is untouched`);
  t.is(await repo.git('status', '--porcelain'), '', `${what}: nothing changed in the working tree`);
}

test('the default verification of an untrusted repository (rename, verify) runs none of its modules', async (t) => {
  const { repo, marks, env } = await hostileRepo();
  const rename = await tug(repo.root, ['rename', 'app.py:1:5', 'add', '--json'], { env });
  t.is(rename.exitCode, 0, rename.stdout + rename.stderr);
  const syntax = rename.json.verification.checks.find((c: { name: string }) => c.name === 'python-syntax');
  t.is(syntax.status, 'passed', JSON.stringify(syntax));
  await noMarks(t, repo, marks, 'rename');
  const verify = await tug(repo.root, ['verify', '--json'], { env });
  t.is(verify.exitCode, 0, verify.stdout + verify.stderr);
  await noMarks(t, repo, marks, 'verify');
  // A syntax error is still found, with the repository-relative file name.
  await repo.write('app.py', 'def total(a, b:\n');
  const broken = await tug(repo.root, ['verify', '--json'], { env });
  t.is(broken.exitCode, 5, broken.stdout);
  const failed = broken.json.error.details.verification.checks.find((c: { name: string }) => c.name === 'python-syntax');
  t.is(failed.errors[0].file, 'app.py');
  t.is(failed.errors[0].line, 1);
  t.deepEqual(readdirSync(marks), []);
  await cleanup(repo, marks, env);
});

test('doctor and toolchain python info|check, run in the repository, run none of its modules', async (t) => {
  const { repo, marks, env } = await hostileRepo();
  const doctor = await tug(repo.root, ['doctor', '--json'], { env });
  t.is(doctor.exitCode, 0, doctor.stdout + doctor.stderr);
  const python = doctor.json.checks.find((c: { name: string }) => c.name === 'python');
  t.is(python.status, 'ok', JSON.stringify(python));
  t.is(doctor.json.checks.find((c: { name: string }) => c.name === 'pytest').status, 'ok', 'pytest is still found');
  await noMarks(t, repo, marks, 'doctor');
  for (const action of ['info', 'check']) {
    const run = await tug(repo.root, ['toolchain', 'python', action, '--json'], { env });
    t.is(run.exitCode, 0, run.stdout + run.stderr);
    t.regex(run.json.python.version, /^3\.\d+\.\d+$/);
    t.truthy(run.json.python.libcst, 'LibCST is still found');
    await noMarks(t, repo, marks, `toolchain python ${action}`);
  }
  await cleanup(repo, marks, env);
});

test('the worker (early, pooled and under the daemon) still finds LibCST and runs none of the modules', async (t) => {
  const { repo, marks, env } = await hostileRepo();
  for (const daemon of ['0', '1']) {
    // PYTHONPATH would put the repository first on the worker's path, were the worker not isolated.
    const runEnv = { ...env, TUG_DAEMON_AUTOSTART: daemon, PYTHONPATH: repo.root };
    const extract = await tug(repo.root, ['analyze-impact', 'extract-variable', '--range', 'app.py:2:12-2:17', '--name', 'both', '--json'], { env: runEnv });
    t.is(extract.exitCode, 0, extract.stdout + extract.stderr);
    const organize = await tug(repo.root, ['analyze-impact', 'organize-imports', '--file', 'app.py', '--json'], { env: runEnv });
    t.is(organize.exitCode, 0, organize.stdout + organize.stderr);
    await noMarks(t, repo, marks, `worker (daemon autostart ${daemon})`);
  }
  const status = await tug(repo.root, ['daemon', 'status', '--json'], { env });
  await tug(repo.root, ['daemon', 'stop'], { env });
  t.true(status.json.daemon.running, 'the daemon served the second round');
  t.false(existsSync(path.join(marks, 'json')));
  await cleanup(repo, marks, env);
});
