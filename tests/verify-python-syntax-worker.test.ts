// The Python syntax check answered by a worker the process already runs: the same result as the check's own script,
// byte for byte but the duration, for files that compile, files that do not, and files the compiler only warns about.
// Serial: the tests share this process's worker pool and its stderr (where the timing marks go).
import test from 'ava';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { resolvePython } from '../lib/python/interpreter.js';
import { askWorker, shutdownWorkers } from '../lib/python/worker-pool.js';
import { checkPythonSyntax } from '../lib/verify/python.js';
import { callerEnvironment, sandboxEnv } from '../lib/verify/sandbox-env.js';
import { tug } from './helpers/cli.js';
import { execa } from './helpers/execa.js';
import { makeRepo } from './helpers/repo.js';

const python = (await resolvePython()).path;
const baseEnv = sandboxEnv(callerEnvironment(), []).env;
const FILES: Record<string, string> = {
  'good.py': 'def total(a, b):\n    return a + b\n',
  'warns.py': 'import re\nDIGITS = re.compile("\\d+")\nx = 1 is 1\n',
  'broken.py': 'def total(a, b:\n    return a\n',
  'nul.py': 'x = 1\n\0\n',
  'latin.py': '# -*- coding: latin-1 -*-\nname = "caf\xe9"\n',
};

/** What the timing marks say while `body` runs (TUG_TIMINGS=1 writes them to stderr). */
async function marksOf<T>(body: () => Promise<T>): Promise<{ value: T; marks: string }> {
  const write = process.stderr.write.bind(process.stderr);
  const before = process.env['TUG_TIMINGS'];
  let marks = '';
  process.env['TUG_TIMINGS'] = '1';
  process.stderr.write = ((chunk: string | Uint8Array) => {
    marks += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    return { value: await body(), marks };
  } finally {
    process.stderr.write = write;
    if (before === undefined) delete process.env['TUG_TIMINGS'];
    else process.env['TUG_TIMINGS'] = before;
  }
}

const withoutDuration = ({ duration_ms: _, ...rest }: { duration_ms: number }) => rest;

test.serial('with a worker running, the syntax check is the script\'s result for passing, failing and warning files alike', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-syntax-'));
  for (const [name, text] of Object.entries(FILES)) await writeFile(path.join(dir, name), name === 'latin.py' ? Buffer.from(text, 'latin1') : text);
  const workers = { workersDir: path.join(dir, '.workers') };
  try {
    t.deepEqual(await askWorker(python, workers, 'ping', {}), { pong: true });
    for (const files of [['good.py'], ['good.py', 'warns.py', 'latin.py'], ['broken.py'], ['good.py', 'nul.py'], ['missing.py']]) {
      const script = await checkPythonSyntax(python, dir, files, 60_000, baseEnv);
      const { value: viaWorker, marks } = await marksOf(() => checkPythonSyntax(python, dir, files, 60_000, baseEnv, workers));
      t.deepEqual(withoutDuration(viaWorker), withoutDuration(script), files.join(' '));
      t.is(JSON.stringify(Object.keys(viaWorker)), JSON.stringify(Object.keys(script)), 'same keys in the same order');
      const passed = script.status === 'passed';
      t.is(marks.includes('compiled by the running worker'), passed, `${files.join(' ')}: the worker answers exactly the passing checks`);
    }
    const failed = await checkPythonSyntax(python, dir, ['good.py', 'broken.py'], 60_000, baseEnv, workers);
    t.is(failed.status, 'failed');
    t.like(failed.errors?.[0], { file: 'broken.py', line: 1 });
  } finally {
    await shutdownWorkers();
    await rm(dir, { recursive: true, force: true });
  }
});

test.serial('without a running worker the check starts none: the script answers', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-syntax-'));
  await writeFile(path.join(dir, 'good.py'), FILES['good.py']!);
  try {
    const { value, marks } = await marksOf(() => checkPythonSyntax(python, dir, ['good.py'], 60_000, baseEnv, { workersDir: path.join(dir, '.workers') }));
    t.is(value.status, 'passed');
    t.false(marks.includes('compiled by the running worker'));
    t.false(marks.includes('starting a worker'), 'a worker was started for the check');
  } finally {
    await shutdownWorkers();
    await rm(dir, { recursive: true, force: true });
  }
});

test.serial('a cold rename is verified by the worker its analysis ran, and says the same as before', async (t) => {
  const repo = await makeRepo({ 'app.py': 'def total(a, b):\n    return a + b\n\n\nprint(total(1, 2))\n' });
  try {
    const run = await tug(repo.root, ['rename', 'app.py:1:5', 'add', '--verify', 'syntax'], { env: { TUG_NO_DAEMON: '1', TUG_DAEMON_AUTOSTART: '0', TUG_TIMINGS: '1' } });
    t.is(run.exitCode, 0, run.stdout + run.stderr);
    t.regex(run.stderr, /compiled by the running worker/);
    const check = run.json.verification.checks.find((c: { name: string }) => c.name === 'python-syntax');
    t.like(check, { name: 'python-syntax', status: 'passed', exit_code: 0, errors: [], output: '' });
    t.deepEqual(check.command.slice(1), ['-I', '-S', '-c', '<compile each file>', 'app.py']);
  } finally {
    await repo.cleanup();
  }
});

test.serial('the syntax check runs no .pth file of the interpreter\'s site-packages (no site, as the worker)', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-syntax-pth-'));
  try {
    const venv = path.join(dir, 'venv');
    const made = await execa(python, ['-I', '-m', 'venv', '--without-pip', venv], { reject: false });
    t.is(made.exitCode, 0, made.stderr);
    const marker = path.join(dir, 'pth-ran');
    const { stdout: sitePackages } = await execa(path.join(venv, 'bin', 'python'), ['-I', '-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])']);
    await writeFile(path.join(sitePackages.trim(), 'hostile.pth'), `import os; open(${JSON.stringify(marker)}, "w").close()\n`);
    await execa(path.join(venv, 'bin', 'python'), ['-I', '-c', 'pass']);
    t.true(existsSync(marker), 'the .pth file runs under site, so this test can see it');
    await rm(marker);
    await writeFile(path.join(dir, 'good.py'), FILES['good.py']!);
    await writeFile(path.join(dir, 'broken.py'), FILES['broken.py']!);
    for (const files of [['good.py'], ['broken.py']]) {
      const result = await checkPythonSyntax(path.join(venv, 'bin', 'python'), dir, files, 60_000, baseEnv);
      t.is(result.status, files[0] === 'good.py' ? 'passed' : 'failed', JSON.stringify(result));
    }
    t.false(existsSync(marker), 'the syntax check ran the .pth file');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
