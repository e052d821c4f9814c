// How a cold `tug` process starts: the lean `tug snapshot`, the code-cached CLI bundle and its cache (what bin/tug loads without its startup snapshot: TUG_NO_SNAPSHOT=1, a Node other than the build's, NODE_OPTIONS), and HEAD read without git where it can be.
import test from 'ava';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { findOperation } from '../lib/index.js';
import { readHead, discoverRepo } from '../lib/git/repo.js';
import { execa } from './helpers/execa.js';
import { tug, TUG_BIN } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

/** `-C .` names the directory tug runs in anyway, and takes the full CLI rather than the lean start of a bare `tug snapshot`. */
const FULL_SNAPSHOT = ['snapshot', '--json', '-C', '.'];

/** The cache file's first line: the key, then the commands it has seen. */
function headerOf(bytes: Buffer): string {
  return bytes.subarray(0, bytes.indexOf(0x0a) + 1).toString('latin1');
}

async function cacheFiles(cacheHome: string): Promise<string[]> {
  return (await readdir(path.join(cacheHome, 'tug')).catch(() => [])).filter((name) => name.endsWith('.v8cache'));
}

test('the first cold run writes the code cache; later runs use it and print exactly what the library returns', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  await repo.write('a.py', 'x = 2\n');
  await repo.write('new.py', 'y = 3\n');
  const cacheHome = await mkdtemp(path.join(os.tmpdir(), 'tug-cache-'));
  const env = { XDG_CACHE_HOME: cacheHome, TUG_NO_DAEMON: '1', TUG_NO_SNAPSHOT: '1' };

  const first = await tug(repo.root, FULL_SNAPSHOT, { env });
  t.is(first.exitCode, 0, first.stderr);
  const [file] = await cacheFiles(cacheHome);
  t.truthy(file, 'no code cache written');
  const written = await readFile(path.join(cacheHome, 'tug', file!));
  t.regex(headerOf(written), /^[0-9a-f]{64} snapshot\n$/);

  const second = await tug(repo.root, FULL_SNAPSHOT, { env });
  t.is(second.stdout, first.stdout);
  t.deepEqual(await readFile(path.join(cacheHome, 'tug', file!)), written, 'a usable cache is not rewritten');

  // Another command compiles code the cache lacks: the cache is made again, from both commands' code, once.
  const status = await tug(repo.root, ['session', 'status', '--json'], { env });
  t.is(status.exitCode, 0, status.stderr);
  const both = await readFile(path.join(cacheHome, 'tug', file!));
  t.regex(headerOf(both), /^[0-9a-f]{64} session,snapshot\n$/);
  t.true(both.length > written.length, 'the new cache holds more compiled code');
  await tug(repo.root, FULL_SNAPSHOT, { env });
  await tug(repo.root, ['session', 'status', '--json'], { env });
  t.deepEqual(await readFile(path.join(cacheHome, 'tug', file!)), both, 'commands the cache has seen do not rewrite it');

  const operation = findOperation('tug_snapshot')!;
  const library = await operation.execute(operation.input.parse({ workspace: repo.root }), {});
  t.is(second.stdout, JSON.stringify(library, null, 2), 'the CLI prints the library result as JSON (the helper drops the final newline)');
  await rm(cacheHome, { recursive: true, force: true });
  await repo.cleanup();
});

test('a code cache of another build, or a damaged one, is ignored and replaced; TUG_CODE_CACHE=0 writes none', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const cacheHome = await mkdtemp(path.join(os.tmpdir(), 'tug-cache-'));
  const env = { XDG_CACHE_HOME: cacheHome, TUG_NO_DAEMON: '1', TUG_NO_SNAPSHOT: '1' };
  const good = await tug(repo.root, FULL_SNAPSHOT, { env });
  t.is(good.exitCode, 0, good.stderr);
  const [file] = await cacheFiles(cacheHome);
  const cachePath = path.join(cacheHome, 'tug', file!);
  const key = Buffer.from(headerOf(await readFile(cachePath)), 'latin1');

  await writeFile(cachePath, `${'0'.repeat(64)} snapshot\nnot V8 data`);
  const otherBuild = await tug(repo.root, FULL_SNAPSHOT, { env });
  t.is(otherBuild.stdout, good.stdout);
  t.deepEqual((await readFile(cachePath)).subarray(0, key.length), key, 'the cache of another build was not replaced');

  await writeFile(cachePath, Buffer.concat([key, Buffer.from('damaged bytes that V8 must reject')]));
  const damaged = await tug(repo.root, FULL_SNAPSHOT, { env });
  t.is(damaged.stdout, good.stdout);
  t.true((await readFile(cachePath)).length > 1000, 'the damaged cache was not replaced');

  const off = await mkdtemp(path.join(os.tmpdir(), 'tug-cache-'));
  const uncached = await tug(repo.root, FULL_SNAPSHOT, { env: { XDG_CACHE_HOME: off, TUG_NO_DAEMON: '1', TUG_NO_SNAPSHOT: '1', TUG_CODE_CACHE: '0' } });
  t.is(uncached.stdout, good.stdout);
  t.deepEqual(await cacheFiles(off), []);
  await rm(cacheHome, { recursive: true, force: true });
  await rm(off, { recursive: true, force: true });
  await repo.cleanup();
});

test('a bare `tug snapshot` (the lean start) prints what the full CLI prints, errors included, and loads no bundle', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n', '.gitignore': '*.log\n' });
  await repo.write('a.py', 'x = 2\n');
  await repo.write('new.py', 'y = 3\n');
  await repo.write('debug.log', 'ignored\n');
  const cacheHome = await mkdtemp(path.join(os.tmpdir(), 'tug-cache-'));
  const env = { XDG_CACHE_HOME: cacheHome, TUG_NO_DAEMON: '1' };
  const full = await tug(repo.root, FULL_SNAPSHOT, { env });
  await rm(path.join(cacheHome, 'tug'), { recursive: true, force: true });
  for (const args of [['snapshot'], ['snapshot', '--json'], ['--json', 'snapshot']]) {
    const lean = await tug(repo.root, args, { env });
    t.is(lean.exitCode, 0, lean.stderr);
    t.is(lean.stdout, full.stdout, args.join(' '));
  }
  t.deepEqual(await cacheFiles(cacheHome), [], 'the lean start compiled the CLI bundle');

  const outside = await mkdtemp(path.join(os.tmpdir(), 'tug-not-a-repo-'));
  const leanError = await tug(outside, ['snapshot'], { env });
  const fullError = await tug(outside, FULL_SNAPSHOT, { env });
  t.is(leanError.exitCode, fullError.exitCode);
  t.is(leanError.json.error.code, 'NotAGitRepository');
  t.is(leanError.stdout, fullError.stdout);
  await rm(outside, { recursive: true, force: true });
  await rm(cacheHome, { recursive: true, force: true });
  await repo.cleanup();
});

test('organize-imports, which sets V8 flags for ruff, leaves a code cache the other commands accept (and the other way round)', async (t) => {
  const repo = await makeRepo({ 'a.py': 'import sys\nimport os\n\nprint(os.sep)\n' });
  const cacheHome = await mkdtemp(path.join(os.tmpdir(), 'tug-cache-'));
  const env = { XDG_CACHE_HOME: cacheHome, TUG_NO_DAEMON: '1', TUG_NO_SNAPSHOT: '1' };
  const organize = ['analyze-impact', 'organize-imports', '--file', 'a.py', '--json'];
  for (const args of [organize, ['session', 'status', '--json']]) {
    const run = await tug(repo.root, args, { env });
    t.is(run.exitCode, 0, run.stderr);
  }
  const [file] = await cacheFiles(cacheHome);
  const settled = await readFile(path.join(cacheHome, 'tug', file!));
  t.regex(headerOf(settled), /^[0-9a-f]{64} analyze-impact,session\n$/);
  for (const args of [organize, ['session', 'status', '--json'], organize]) {
    const run = await tug(repo.root, args, { env });
    t.is(run.exitCode, 0, run.stderr);
    t.deepEqual(await readFile(path.join(cacheHome, 'tug', file!)), settled, `${args.join(' ')} rewrote the cache`);
  }
  await rm(cacheHome, { recursive: true, force: true });
  await repo.cleanup();
});

test('Node started three ways (bin/tug\'s heap flags, none beside a daemon, the daemon\'s --expose-gc) keeps a code cache for each, and none rewrites another\'s', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const cacheHome = await mkdtemp(path.join(os.tmpdir(), 'tug-cache-'));
  const env = { ...process.env, XDG_CACHE_HOME: cacheHome, TUG_NO_DAEMON: '1', TUG_NO_SNAPSHOT: '1', TUG_DAEMON_AUTOSTART: '0' };
  const entry = path.join(path.dirname(TUG_BIN), 'tug.cjs');
  const starts = [
    (args: string[]) => execa(TUG_BIN, args, { cwd: repo.root, env, reject: false }),
    (args: string[]) => execa(process.execPath, [entry, ...args], { cwd: repo.root, env, reject: false }),
    (args: string[]) => execa(process.execPath, ['--expose-gc', entry, ...args], { cwd: repo.root, env, reject: false }),
  ];
  for (const start of starts) t.is((await start(FULL_SNAPSHOT)).exitCode, 0);
  const files = await cacheFiles(cacheHome);
  t.is(files.length, 3, `one cache per way of starting: ${files.join(', ')}`);
  const before = await Promise.all(files.map((file) => readFile(path.join(cacheHome, 'tug', file))));
  for (const start of [...starts, ...starts]) {
    const run = await start(FULL_SNAPSHOT);
    t.is(run.exitCode, 0, run.stderr);
  }
  t.deepEqual(await cacheFiles(cacheHome), files);
  const after = await Promise.all(files.map((file) => readFile(path.join(cacheHome, 'tug', file))));
  files.forEach((file, i) => t.true(after[i]!.equals(before[i]!), `${file} was rewritten by a start with other flags`));
  await rm(cacheHome, { recursive: true, force: true });
  await repo.cleanup();
});

test('a cache home that is a file (or otherwise unwritable) costs the code cache, never the command: no stack trace, same output', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const home = await mkdtemp(path.join(os.tmpdir(), 'tug-cache-'));
  const file = path.join(home, 'a-file');
  await writeFile(file, '');
  const good = await tug(repo.root, FULL_SNAPSHOT, { env: { XDG_CACHE_HOME: home, TUG_NO_DAEMON: '1', TUG_NO_SNAPSHOT: '1' } });
  for (const cacheHome of [file, path.join(file, 'below')]) {
    const run = await tug(repo.root, FULL_SNAPSHOT, { env: { XDG_CACHE_HOME: cacheHome, TUG_NO_DAEMON: '1', TUG_NO_SNAPSHOT: '1' } });
    t.is(run.exitCode, 0, run.stderr);
    t.is(run.stderr, '');
    t.is(run.stdout, good.stdout);
  }
  await rm(home, { recursive: true, force: true });
  await repo.cleanup();
});

/** A stand-in for `program` on PATH that appends the two certificate variables it was started with to `log`, then runs it. */
async function recording(dir: string, name: string, program: string, log: string): Promise<void> {
  const file = path.join(dir, name);
  await writeFile(file, `#!/bin/sh\nprintf '%s|%s\\n' "\${NODE_EXTRA_CA_CERTS-unset}" "\${TUG_NODE_EXTRA_CA_CERTS-unset}" >> '${log}'\nexec '${program}' "$@"\n`);
  await chmod(file, 0o755);
}

test('run as a command, tug starts Node without NODE_EXTRA_CA_CERTS (read at every start) and gives it back to what it runs', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const bin = await mkdtemp(path.join(os.tmpdir(), 'tug-path-'));
  const realGit = (await execa('sh', ['-c', 'command -v git'])).stdout.trim();
  const env = (certs: string | undefined) => ({ PATH: `${bin}${path.delimiter}${process.env['PATH']}`, TUG_NO_DAEMON: '1', ...(certs === undefined ? {} : { NODE_EXTRA_CA_CERTS: certs }) });
  for (const certs of ['/nonexistent/tug-test-certs.pem', undefined]) {
    const nodeLog = path.join(bin, 'node.log');
    const gitLog = path.join(bin, 'git.log');
    await rm(nodeLog, { force: true });
    await rm(gitLog, { force: true });
    await recording(bin, 'node', process.execPath, nodeLog);
    await recording(bin, 'git', realGit, gitLog);
    const run = await execa(TUG_BIN, FULL_SNAPSHOT, { cwd: repo.root, env: env(certs), extendEnv: false, reject: false });
    t.is(run.exitCode, 0, run.stderr);
    // Node warns at start when it cannot load the file it was given; it was given none.
    t.notRegex(run.stderr, /extra certs/i);
    t.is(await readFile(nodeLog, 'utf8'), `unset|${certs ?? 'unset'}\n`, 'Node started with the certificate variable, or without the copy it hands on');
    const gitRuns = (await readFile(gitLog, 'utf8')).trim().split('\n');
    t.true(gitRuns.length > 0);
    t.deepEqual([...new Set(gitRuns)], [`${certs ?? 'unset'}|unset`], 'git saw another environment than the user gave tug');
  }
  // Run through Node, the file is plain JavaScript (its shell line is a string and a comment).
  const direct = await execa(process.execPath, [TUG_BIN, ...FULL_SNAPSHOT], { cwd: repo.root, env: { TUG_NO_DAEMON: '1' }, reject: false });
  t.is(direct.exitCode, 0, direct.stderr);
  await rm(bin, { recursive: true, force: true });
  await repo.cleanup();
});

test('run as a command, tug starts Node with a 4 MB young generation (a lower peak memory on large repositories) and a 64 MB first old generation (no full collection in a short analysis)', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const bin = await mkdtemp(path.join(os.tmpdir(), 'tug-path-'));
  const log = path.join(bin, 'node.log');
  await writeFile(path.join(bin, 'node'), `#!/bin/sh\nprintf '%s %s\\n' "$1" "$2" >> '${log}'\nexec '${process.execPath}' "$@"\n`);
  await chmod(path.join(bin, 'node'), 0o755);
  const run = await execa(TUG_BIN, FULL_SNAPSHOT, { cwd: repo.root, env: { PATH: `${bin}${path.delimiter}${process.env['PATH']}`, TUG_NO_DAEMON: '1' }, extendEnv: false, reject: false });
  t.is(run.exitCode, 0, run.stderr);
  t.is((await readFile(log, 'utf8')).split('\n')[0], '--max-semi-space-size=4 --initial-old-space-size=64');
  await rm(bin, { recursive: true, force: true });
  await repo.cleanup();
});

test('with a daemon socket in XDG_RUNTIME_DIR, tug starts Node without those flags (any V8 flag makes Node compile its own modules without their code cache, ~15 ms more for a client); TUG_NO_DAEMON=1 keeps them', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const bin = await mkdtemp(path.join(os.tmpdir(), 'tug-path-'));
  const log = path.join(bin, 'node.log');
  await writeFile(path.join(bin, 'node'), `#!/bin/sh\nprintf '%s %s\\n' "$1" "$2" >> '${log}'\nexec '${process.execPath}' "$@"\n`);
  await chmod(path.join(bin, 'node'), 0o755);
  const runtime = await mkdtemp(path.join(os.tmpdir(), 'tug-rt-'));
  await mkdir(path.join(runtime, 'tug'), { mode: 0o700 });
  // A listening socket where the daemon's would be; `-C .` is never handed to a daemon, so nothing connects to it.
  const server = net.createServer((connection) => connection.end());
  await new Promise<void>((resolve) => server.listen(path.join(runtime, 'tug', 'daemon.sock'), resolve));
  try {
    const env = { PATH: `${bin}${path.delimiter}${process.env['PATH']}`, XDG_RUNTIME_DIR: runtime, TUG_DAEMON_AUTOSTART: '0' };
    const run = await execa(TUG_BIN, FULL_SNAPSHOT, { cwd: repo.root, env, extendEnv: false, reject: false });
    t.is(run.exitCode, 0, run.stderr);
    const forced = await execa(TUG_BIN, FULL_SNAPSHOT, { cwd: repo.root, env: { ...env, TUG_NO_DAEMON: '1' }, extendEnv: false, reject: false });
    t.is(forced.exitCode, 0, forced.stderr);
    t.is(forced.stdout, run.stdout);
    const [plain, flagged] = (await readFile(log, 'utf8')).split('\n');
    t.is(plain, `${path.join(path.dirname(TUG_BIN), 'tug.cjs')} snapshot`);
    t.is(flagged, '--max-semi-space-size=4 --initial-old-space-size=64');
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await rm(runtime, { recursive: true, force: true });
    await rm(bin, { recursive: true, force: true });
    await repo.cleanup();
  }
});

test('a command a daemon takes loads only the daemon client (client.cjs), not launch.cjs; one it hands back runs here, asked once', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const runtime = await mkdtemp(path.join(os.tmpdir(), 'tug-rt-'));
  await mkdir(path.join(runtime, 'tug'), { mode: 0o700 });
  const log = path.join(runtime, 'modules.log');
  const probe = path.join(runtime, 'probe.cjs');
  await writeFile(probe, `process.on('exit', () => require('node:fs').appendFileSync(${JSON.stringify(log)}, Object.keys(require.cache).map((f) => require('node:path').basename(f)).sort().join(' ') + '\\n'));\n`);
  // A stand-in daemon: takes `status` with a fixed answer, hands anything else back; counts the requests.
  let requests = 0;
  const server = net.createServer((connection) => {
    let buffer = '';
    connection.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      if (!buffer.includes('\n')) return;
      requests += 1;
      const request = JSON.parse(buffer.slice(0, buffer.indexOf('\n'))) as { argv: string[] };
      const answer = request.argv[0] === 'status' ? [{ accepted: true }, { out: 'from the daemon\n' }, { exit: 0 }] : [{ fallback: true }];
      connection.end(answer.map((m) => `${JSON.stringify(m)}\n`).join(''));
    });
  });
  await new Promise<void>((resolve) => server.listen(path.join(runtime, 'tug', 'daemon.sock'), resolve));
  try {
    const env = { XDG_RUNTIME_DIR: runtime, TUG_DAEMON_AUTOSTART: '0', NODE_OPTIONS: `--require ${probe}` };
    const taken = await execa(TUG_BIN, ['status'], { cwd: repo.root, env, reject: false });
    t.is(taken.exitCode, 0, taken.stderr);
    t.is(taken.stdout, 'from the daemon');
    t.is(requests, 1);
    const handedBack = await execa(TUG_BIN, ['snapshot', '--json'], { cwd: repo.root, env, reject: false });
    t.is(handedBack.exitCode, 0, handedBack.stderr);
    t.truthy(JSON.parse(handedBack.stdout).snapshot_id);
    t.is(requests, 2, 'the daemon is asked once per command');
    const [first, second] = (await readFile(log, 'utf8')).trim().split('\n');
    t.true(first!.split(' ').includes('client.cjs'), first);
    t.false(first!.split(' ').includes('launch.cjs'), first);
    t.true(second!.split(' ').includes('launch.cjs'), second);
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await rm(runtime, { recursive: true, force: true });
    await repo.cleanup();
  }
});

test('HEAD is read the same way git reads it: attached, detached, unborn, and in a linked worktree', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const head = async (dir: string) => readHead(await discoverRepo(dir));
  const commit = await repo.git('rev-parse', 'HEAD');
  const tree = await repo.git('rev-parse', 'HEAD^{tree}');

  t.deepEqual(await head(repo.root), { oid: commit, ref: 'refs/heads/main', tree, time: 1700000000 });

  await repo.git('checkout', '-q', '--detach');
  t.deepEqual(await head(repo.root), { oid: commit, ref: null, tree, time: 1700000000 });

  await repo.git('checkout', '-q', '--orphan', 'fresh');
  t.deepEqual(await head(repo.root), { oid: null, ref: 'refs/heads/fresh', tree: null, time: null });

  await repo.git('checkout', '-q', 'main');
  const linked = path.join(repo.root, '..', `${path.basename(repo.root)}-linked`);
  await repo.git('worktree', 'add', '-q', '-b', 'side', linked);
  t.deepEqual(await head(linked), { oid: commit, ref: 'refs/heads/side', tree, time: 1700000000 });
  await repo.git('worktree', 'remove', '--force', linked);
  await repo.cleanup();
});
