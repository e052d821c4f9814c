// Coded errors where exit 10 (or a Node stack trace) used to be: an old Python or a program that is no Python as the
// interpreter (UnsupportedInterpreter), a 500-term `+` chain (CPython compiles it, so tug analyses it), the private
// directory being a regular file (UnsafePath), and a daemon socket another user owns (status and stop refuse it).
import test from 'ava';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { tug } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';

const SOURCE = { 'app.py': 'def total(a, b):\n    return a + b\n' };
const pyenv = path.join(os.homedir(), '.pyenv', 'versions');

async function isolatedEnv(): Promise<Record<string, string>> {
  return { XDG_RUNTIME_DIR: await mkdtemp(path.join(os.tmpdir(), 'tug-errors-rt-')), TUG_DAEMON_AUTOSTART: '0' };
}

const noStack = (t: any, run: { stdout: string; stderr: string }, what: string) => t.notRegex(run.stdout + run.stderr, /\n\s+at .+:\d+:\d+/, `${what}: no stack trace`);

for (const version of ['2.7', '3.6', '3.8', '3.9']) {
  test(`Python ${version} as the interpreter is UnsupportedInterpreter (exit 2) naming the version tug needs`, async (t) => {
    const found = existsSync(pyenv) ? (await import('node:fs')).readdirSync(pyenv).find((v) => v.startsWith(`${version}.`)) : undefined;
    if (!found) {
      t.log(`no Python ${version} under ${pyenv}: nothing to check here`);
      t.pass();
      return;
    }
    const python = path.join(pyenv, found, 'bin', 'python');
    const repo = await makeRepo(SOURCE);
    const env = await isolatedEnv();
    const runs = {
      extract: await tug(repo.root, ['analyze-impact', 'extract-variable', '--range', 'app.py:2:12-2:17', '--name', 'both', '--python', python, '--json'], { env }),
      check: await tug(repo.root, ['toolchain', 'python', 'check', '--python', python, '--json'], { env }),
      ...(version < '3' ? { verify: await tug(repo.root, ['verify', '--python', python, '--json'], { env }) } : {}),
    };
    for (const [what, run] of Object.entries(runs)) {
      t.is(run.exitCode, 2, `${what}: ${run.stdout}${run.stderr}`);
      t.is(run.json?.error?.code, 'UnsupportedInterpreter', what);
      t.is(run.json.error.details.needed, '3.10+');
      t.regex(run.json.error.message, new RegExp(`Python ${version.replace('.', '\\.')}\\.\\d+; tug needs Python 3\\.10 or newer`));
      noStack(t, run, what);
    }
    await rm(env['XDG_RUNTIME_DIR']!, { recursive: true, force: true });
    await repo.cleanup();
  });
}

test('a program that is no Python as the interpreter is UnsupportedInterpreter, for the worker, verify and check', async (t) => {
  const repo = await makeRepo(SOURCE);
  const env = await isolatedEnv();
  for (const program of ['/bin/echo', '/bin/false']) {
    for (const args of [
      ['analyze-impact', 'extract-variable', '--range', 'app.py:2:12-2:17', '--name', 'both'],
      ['verify'],
      ['toolchain', 'python', 'check'],
    ]) {
      const run = await tug(repo.root, [...args, '--python', program, '--json'], { env });
      t.is(run.json?.error?.code, 'UnsupportedInterpreter', `${program} ${args[0]}: ${run.stdout}${run.stderr}`);
      t.is(run.exitCode, 2);
      t.regex(run.json.error.message, /not a Python interpreter tug can run; tug needs Python 3\.10 or newer/);
    }
  }
  await rm(env['XDG_RUNTIME_DIR']!, { recursive: true, force: true });
  await repo.cleanup();
});

test('a 500-term + chain, which CPython compiles, is analysed: rename and extract-variable work', async (t) => {
  const chain = Array.from({ length: 500 }, () => 'f(1)').join(' + ');
  const repo = await makeRepo({ 'a.py': `def f(x):\n    return x\n\n\ntotal = ${chain}\n` });
  const env = await isolatedEnv();
  const rename = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'a.py:1:5', '--to', 'g', '--json'], { env });
  t.is(rename.exitCode, 0, rename.stdout);
  t.is(rename.json.references.length, 501);
  const extract = await tug(repo.root, ['analyze-impact', 'extract-variable', '--range', 'a.py:5:9-5:13', '--name', 'one', '--json'], { env });
  t.is(extract.exitCode, 0, extract.stdout);
  // Deeper than CPython itself compiles: a limit, coded, not a crash.
  await repo.write('b.py', `from a import f\nx = ${Array.from({ length: 60_000 }, () => 'f(1)').join(' + ')}\n`);
  const deep = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'a.py:1:5', '--to', 'g', '--json'], { env });
  t.true([0, 2].includes(deep.exitCode), deep.stdout.slice(0, 2000));
  if (deep.exitCode === 2) t.is(deep.json.error.code, 'LimitExceeded');
  await rm(env['XDG_RUNTIME_DIR']!, { recursive: true, force: true });
  await repo.cleanup();
});

test('the private directory being a regular file: structured errors, never a Node stack trace', async (t) => {
  const repo = await makeRepo(SOURCE);
  const env = await isolatedEnv();
  await writeFile(path.join(env['XDG_RUNTIME_DIR']!, 'tug'), 'not a directory\n');
  for (const args of [['snapshot'], ['rename', 'app.py:1:5', 'add'], ['daemon', 'start'], ['daemon', 'status'], ['daemon', 'stop']]) {
    const run = await tug(repo.root, [...args, '--json'], { env });
    const what = args.join(' ');
    noStack(t, run, what);
    t.truthy(run.json, `${what}: JSON on stdout: ${run.stdout}${run.stderr}`);
    t.not(run.exitCode, 10, `${what}: ${run.stdout}`);
    if (run.exitCode !== 0) t.is(run.json.error.code, 'UnsafePath', what);
  }
  await rm(env['XDG_RUNTIME_DIR']!, { recursive: true, force: true });
  await repo.cleanup();
});

test('tug daemon status|stop refuse a socket another user owns', async (t) => {
  if (process.getuid?.() !== 0) {
    t.log('not root: cannot give a socket to another user here');
    t.pass();
    return;
  }
  const repo = await makeRepo(SOURCE);
  const env = await isolatedEnv();
  const dir = path.join(env['XDG_RUNTIME_DIR']!, 'tug');
  await mkdir(dir, { mode: 0o700 });
  await chmod(dir, 0o700);
  let connections = 0;
  const listener = net.createServer((socket) => {
    connections += 1;
    socket.end(`${JSON.stringify({ status: { pid: 1 } })}\n`);
  });
  const socket = path.join(dir, 'daemon.sock');
  await new Promise<void>((resolve) => listener.listen(socket, resolve));
  await chown(socket, 65534, 65534);
  try {
    for (const action of ['status', 'stop']) {
      const run = await tug(repo.root, ['daemon', action, '--json'], { env });
      t.is(run.exitCode, 2, run.stdout + run.stderr);
      t.is(run.json.error.code, 'UnsafePath');
      t.regex(run.json.error.message, /owned by uid 65534/);
    }
    t.is(connections, 0, 'nothing was sent to the foreign socket');
  } finally {
    await new Promise((resolve) => listener.close(resolve));
    await rm(env['XDG_RUNTIME_DIR']!, { recursive: true, force: true });
    await repo.cleanup();
  }
});
