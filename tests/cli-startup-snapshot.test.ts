// The CLI's V8 startup snapshot (dist/lib/cli-bundle/startup.blob): bin/tug starts from it only when it was made by
// the Node it would run, under no other V8 flags, from the bundles beside it; a command prints the same either way; and
// the build refuses a blob when loading the bundles read what the blob would freeze (the environment, the clock).
import test from 'ava';
import { copyFile, mkdir, mkdtemp, readdir, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from './helpers/execa.js';
import { tug, TUG_BIN } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUNDLES = path.join(ROOT, 'dist/lib/cli-bundle');
const MARK = 'started from the startup snapshot';

/** The commands compared: help, version, a JSON analysis, a usage error, an error outside a repository. */
const COMMANDS = [
  ['--version'],
  ['--help'],
  ['analyze-impact', 'rename-symbol', '--at', 'a.py:1:5', '--to', 'bar', '--json'],
  ['rename', 'a.py:1:5'],
  ['frobnicate'],
];

test.before(() => {
  // `npm run build` makes the blob wherever PATH has a `node`; without it this file would test nothing.
  if (!existsSync(path.join(BUNDLES, 'startup.blob'))) throw new Error('no dist/lib/cli-bundle/startup.blob: run `npm run build`');
});

test('bin/tug starts from the startup snapshot and prints, byte for byte, what the bundles print', async (t) => {
  const repo = await makeRepo({ 'a.py': 'def foo():\n    return 1\n\nx = foo()\n' });
  for (const args of COMMANDS) {
    const fast = await tug(repo.root, args, { env: { TUG_NO_DAEMON: '1' } });
    const plain = await tug(repo.root, args, { env: { TUG_NO_DAEMON: '1', TUG_NO_SNAPSHOT: '1' } });
    t.is(fast.exitCode, plain.exitCode, args.join(' '));
    t.is(fast.stdout, plain.stdout, args.join(' '));
    t.is(fast.stderr, plain.stderr, args.join(' '));
  }
  const timed = await tug(repo.root, COMMANDS[2]!, { env: { TUG_NO_DAEMON: '1', TUG_TIMINGS: '1' } });
  t.is(timed.exitCode, 0, timed.stderr);
  t.true(timed.stderr.includes(MARK), timed.stderr);
  const off = await tug(repo.root, COMMANDS[2]!, { env: { TUG_NO_DAEMON: '1', TUG_TIMINGS: '1', TUG_NO_SNAPSHOT: '1' } });
  t.false(off.stderr.includes(MARK), off.stderr);
  await repo.cleanup();
});

/**
 * A copy of the install in a temporary folder: bin/tug and the bundles copied (so the test may change them), the rest
 * linked. The blob inside still names the folder it was built in, so a command started from it runs the copy's bundles.
 */
async function copyInstall(): Promise<{ root: string; bin: string; bundles: string; cleanup(): Promise<void> }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'tug-install-'));
  const bundles = path.join(root, 'dist/lib/cli-bundle');
  await mkdir(bundles, { recursive: true });
  await mkdir(path.join(root, 'bin'));
  for (const file of ['tug', 'tug.cjs']) await copyFile(path.join(ROOT, 'bin', file), path.join(root, 'bin', file));
  for (const file of await readdir(BUNDLES)) await copyFile(path.join(BUNDLES, file), path.join(bundles, file));
  // copyFile does not keep timestamps: the reference file's is what bin/tug compares with the Node on PATH.
  const { mtime } = await stat(path.join(BUNDLES, 'startup.node'));
  await utimes(path.join(bundles, 'startup.node'), mtime, mtime);
  const blobTime = new Date();
  await utimes(path.join(bundles, 'startup.blob'), blobTime, blobTime);
  for (const name of ['package.json', 'python-worker', 'ui', 'node_modules']) await symlink(path.join(ROOT, name), path.join(root, name));
  return { root, bin: path.join(root, 'bin/tug'), bundles, cleanup: () => rm(root, { recursive: true, force: true }) };
}

async function runCopy(bin: string, cwd: string, env: Record<string, string> = {}) {
  return execa(bin, ['analyze-impact', 'rename-symbol', '--at', 'a.py:1:5', '--to', 'bar', '--json'], {
    cwd,
    reject: false,
    stdin: 'ignore',
    env: { TUG_NO_DAEMON: '1', TUG_TIMINGS: '1', ...env },
  });
}

test('a moved install still starts from its blob; another Node, NODE_OPTIONS or a rebuilt bundle make bin/tug load the bundles instead', async (t) => {
  const repo = await makeRepo({ 'a.py': 'def foo():\n    return 1\n\nx = foo()\n' });
  const install = await copyInstall();
  const expected = (await tug(repo.root, COMMANDS[2]!, { env: { TUG_NO_DAEMON: '1', TUG_NO_SNAPSHOT: '1' } })).stdout;
  const check = async (label: string, fromBlob: boolean, env: Record<string, string> = {}) => {
    const run = await runCopy(install.bin, repo.root, env);
    t.is(run.exitCode, 0, `${label}: ${run.stderr}`);
    t.is(run.stdout, expected, label);
    t.is(run.stderr.includes(MARK), fromBlob, `${label}: ${run.stderr}`);
  };
  await check('moved install', true);
  await check('NODE_OPTIONS', false, { NODE_OPTIONS: '--max-old-space-size=512' });
  await check('TUG_NO_SNAPSHOT', false, { TUG_NO_SNAPSHOT: '1' });

  // A Node with another timestamp at the same path: an upgrade in place.
  const reference = path.join(install.bundles, 'startup.node');
  const old = new Date('2001-02-03T04:05:06Z');
  await utimes(reference, old, old);
  await check('Node upgraded in place', false);
  // Another Node first on PATH.
  const other = path.join(install.root, 'other-node');
  await mkdir(other);
  await symlink(process.execPath, path.join(other, 'node'));
  await check('another node on PATH', false, { PATH: `${other}${path.delimiter}${process.env['PATH']}` });
  // A bundle rebuilt after the blob.
  const later = new Date(Date.now() + 60_000);
  await utimes(path.join(install.bundles, 'main.cjs'), later, later);
  await check('bundle newer than the blob', false);
  await install.cleanup();
  await repo.cleanup();
});

/** Runs startup.cjs, as the build does, over stand-in bundles whose loading does `mainBody`. */
async function buildOver(mainBody: string): Promise<{ exitCode: number; stderr: string; blob: string; folder: string }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'tug-startup-'));
  await copyFile(path.join(BUNDLES, 'startup.cjs'), path.join(folder, 'startup.cjs'));
  // An AsyncLocalStorage made while loading (as the CLI's per-call environment is) and Math.random after the start.
  await writeFile(
    path.join(folder, 'launch.cjs'),
    [
      "const calls = new (require('node:async_hooks').AsyncLocalStorage)();",
      'exports.launch = (argv, options) => calls.run(argv, async () => {',
      '  await new Promise((resolve) => setTimeout(resolve, 5));',
      '  process.stdout.write(JSON.stringify([calls.getStore(), typeof options.cli.main, Math.random()]));',
      '  return 3;',
      '});',
      '',
    ].join('\n'),
  );
  await writeFile(path.join(folder, 'main.cjs'), `${mainBody}\nexports.main = async () => 0;\n`);
  const blob = path.join(folder, 'startup.blob');
  const made = await execa(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', path.join(folder, 'startup.cjs')], { cwd: folder, reject: false });
  return { exitCode: made.exitCode ?? -1, stderr: made.stderr, blob, folder };
}

test('the build refuses a blob when loading the bundles read the environment, the working directory or the clock', async (t) => {
  for (const [body, read] of [
    ['const home = process.env.TUG_SOMETHING;', 'process.env.TUG_SOMETHING'],
    ['const here = process.cwd();', 'process.cwd()'],
    ['const started = Date.now();', 'Date.now()'],
    ["const tmp = require('node:os').tmpdir();", 'os.tmpdir()'],
  ] as const) {
    const made = await buildOver(body);
    t.is(made.exitCode, 1, body);
    t.true(made.stderr.includes(read), `${body}: ${made.stderr}`);
    await rm(made.folder, { recursive: true, force: true });
  }
});

test('a command from a blob gets its own arguments, options included, and its exit code; what loading made still works', async (t) => {
  const made = await buildOver('const later = () => process.env.TUG_SOMETHING;');
  t.is(made.exitCode, 0, made.stderr);
  const randoms = [];
  for (let i = 0; i < 2; i++) {
    const run = await execa(process.execPath, ['--snapshot-blob', made.blob, '--', '--version', 'a b', '--json'], { reject: false });
    t.is(run.exitCode, 3, run.stderr);
    const [argv, main, random] = JSON.parse(run.stdout) as [string[], string, number];
    // The store set around the call survives an await: the async context made at build time is live.
    t.deepEqual([argv, main], [['--version', 'a b', '--json'], 'function']);
    randoms.push(random);
  }
  t.not(randoms[0], randoms[1], 'Math.random is seeded anew for every start, not replayed from the blob');
  await rm(made.folder, { recursive: true, force: true });
});

test('bin/tug passes a first argument that looks like a Node option to tug, not to Node', async (t) => {
  const version = await execa(TUG_BIN, ['--version'], { reject: false, env: { TUG_NO_DAEMON: '1' } });
  t.is(version.exitCode, 0);
  t.not(version.stdout.trim(), process.version);
});
