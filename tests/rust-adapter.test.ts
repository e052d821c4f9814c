// The Rust adapter beyond the fixture goldens: analyze-impact, toolchain, error codes, a crashing or silent server, UTF-16, the warm daemon.
import test from 'ava';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeRepo, tempDir } from './helpers/repo.js';
import { tug } from './helpers/cli.js';
import { fixtureRepo as rustFixture } from './helpers/rename-cases.js';
import { requireRustToolchain } from './helpers/toolchains.js';

const ENV = { TUG_LOCK_TIMEOUT_MS: '2000' };

const fixtureRepo = (name: string) => rustFixture('rust', name);

test('analyze-impact lists the definition and every reference in order, and writes nothing', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  const repo = await fixtureRepo('mini_cli');
  const before = await repo.git('status', '--porcelain', '--ignored');
  const run = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/store.rs:19:12', '--to', 'push_task'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.symbol.name, 'add_task');
  t.is(run.json.symbol.kind, 'method');
  t.deepEqual(run.json.symbol.location, { file: 'src/store.rs', line: 19, col: 12, byte_start: run.json.symbol.location.byte_start, byte_end: run.json.symbol.location.byte_start + 8 });
  const files = run.json.references.map((r: { location: { file: string } }) => r.location.file);
  t.deepEqual(files, ['src/commands/add.rs', 'src/store.rs', 'tests/cli.rs']);
  t.deepEqual(run.json.references.filter((r: { kind: string }) => r.kind === 'definition').length, 1);
  t.deepEqual(run.json.impact, { files_affected: 3, references_count: 3, edits_estimated: 3 });
  t.is(await repo.git('status', '--porcelain', '--ignored'), before, 'no Cargo.lock or target/ appears in the user tree');
  await repo.cleanup();
});

test('identifiers after non-ASCII text on the same line are renamed at the right bytes', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  const repo = await makeRepo({
    'Cargo.toml': '[package]\nname = "wide"\nversion = "0.1.0"\nedition = "2021"\n',
    'src/lib.rs': 'pub fn total() -> u32 { 1 }\npub fn show() -> String { let s = "é😀漢"; format!("{s}{}", total()) + "😀" + &total().to_string() }\n',
  });
  const run = await tug(repo.root, ['rename', 'src/lib.rs:1:8', 'sum'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.summary.edits_count, 3);
  t.is(run.json.verification.checks[0].name, 'cargo check');
  const after = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
  t.is(after, 'pub fn sum() -> u32 { 1 }\npub fn show() -> String { let s = "é😀漢"; format!("{s}{}", sum()) + "😀" + &sum().to_string() }');
  await repo.cleanup();
});

test('a rename that breaks the build fails verification with cargo errors, and nothing is committed', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  const repo = await makeRepo({
    'Cargo.toml': '[package]\nname = "clash"\nversion = "0.1.0"\nedition = "2021"\n',
    'src/lib.rs': 'pub fn one() -> u32 { 1 }\npub fn two() -> u32 { 2 }\npub fn both() -> u32 { one() + two() }\n',
  });
  const run = await tug(repo.root, ['rename', 'src/lib.rs:1:8', 'two'], { env: ENV });
  t.is(run.exitCode, 5, run.stdout);
  t.is(run.json.error.code, 'VerificationFailed');
  const check = run.json.error.details.verification.checks[0];
  t.is(check.name, 'cargo check');
  t.true(check.errors.some((e: { file: string; line: number }) => e.file === 'src/lib.rs' && e.line === 2), JSON.stringify(check.errors));
  t.is(await repo.git('branch', '--list', 'tug/*'), '');
  await repo.cleanup();
});

test('toolchain rust info and check report the server and cargo; a bad --rust-analyzer is RustAnalyzerNotFound', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  const repo = await fixtureRepo('simple');
  const info = await tug(repo.root, ['toolchain', 'rust', 'info'], { env: ENV });
  t.is(info.exitCode, 0, info.stdout);
  t.true(info.json.rust.found);
  t.regex(info.json.rust.version, /rust-analyzer/);
  t.regex(info.json.rust.cargo, /^cargo /);
  t.is((await tug(repo.root, ['toolchain', 'rust', 'check'], { env: ENV })).exitCode, 0);
  const bad = await tug(repo.root, ['toolchain', 'rust', 'check', '--rust-analyzer', '/nonexistent/rust-analyzer'], { env: ENV });
  t.is(bad.exitCode, 2);
  t.is(bad.json.error.code, 'RustAnalyzerNotFound');
  t.true(bad.json.error.details.searched_paths[0].includes('/nonexistent/rust-analyzer'));
  const rename = await tug(repo.root, ['rename', 'src/lib.rs:1:8', 'x', '--rust-analyzer', '/nonexistent/rust-analyzer'], { env: ENV });
  t.is(rename.exitCode, 2);
  t.is(rename.json.error.code, 'RustAnalyzerNotFound');
  await repo.cleanup();
});

test('a .rs file outside any Cargo project is NotCargoProject', async (t) => {
  const repo = await makeRepo({ 'loose.rs': 'fn main() {}\n' });
  const run = await tug(repo.root, ['rename', 'loose.rs:1:4', 'start'], { env: ENV });
  t.is(run.exitCode, 2, run.stdout);
  t.is(run.json.error.code, 'NotCargoProject');
  await repo.cleanup();
});

/** A stand-in server that passes discovery, then dies or goes silent: the client's crash and timeout paths. */
async function fakeServer(behaviour: 'crash' | 'closes' | 'silent'): Promise<string> {
  const dir = await tempDir('tug-fake-ra-');
  const file = path.join(dir, 'rust-analyzer');
  // 'closes': its output ends before it exits, so the connection fails before the exit is reported.
  const bodies = { crash: 'echo "fake: out of memory" >&2; exit 101', closes: 'exec 1>&-; echo "fake: out of memory" >&2; sleep 0.5; exit 101', silent: 'exec sleep 60' };
  const body = bodies[behaviour];
  await writeFile(file, `#!/bin/sh\nif [ "$1" = --version ]; then echo "rust-analyzer 0.0.0-fake"; exit 0; fi\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

test('a server that dies is RustAnalyzerCrashed with its stderr; one that never answers is RustAnalyzerTimeout (exit 10)', async (t) => {
  const repo = await fixtureRepo('simple');
  const crashed = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/lib.rs:1:8', '--to', 'x', '--rust-analyzer', await fakeServer('crash')], { env: ENV });
  t.is(crashed.exitCode, 10, crashed.stdout);
  t.is(crashed.json.error.code, 'RustAnalyzerCrashed');
  t.regex(crashed.json.error.details.stderr, /out of memory/);
  // The same crash seen first as a closed connection (it happened under CI's load, as an InternalError).
  const closed = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/lib.rs:1:8', '--to', 'x', '--rust-analyzer', await fakeServer('closes')], { env: ENV });
  t.is(closed.exitCode, 10, closed.stdout);
  t.is(closed.json.error.code, 'RustAnalyzerCrashed');
  const silent = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/lib.rs:1:8', '--to', 'x', '--rust-analyzer', await fakeServer('silent')], {
    env: { ...ENV, TUG_RA_TIMEOUT_MS: '1500' },
  });
  t.is(silent.exitCode, 10, silent.stdout);
  t.is(silent.json.error.code, 'RustAnalyzerTimeout');
  await repo.cleanup();
});

const BASE_ENV = ENV;

test('the daemon keeps rust-analyzer warm: the second analysis skips indexing and sees new edits to the files', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  const repo = await fixtureRepo('cross_module');
  // A private runtime dir: this test's daemon is its own, never the user's (one daemon per user).
  const runtime = await mkdtemp(path.join(os.tmpdir(), 'tug-rt-'));
  const ENV = { ...BASE_ENV, XDG_RUNTIME_DIR: runtime };
  t.is((await tug(repo.root, ['daemon', 'start'], { env: ENV })).exitCode, 0);
  try {
    const args = ['analyze-impact', 'rename-symbol', '--at', 'src/utils.rs:3:8', '--to', 'render_price'];
    const t0 = Date.now();
    const cold = await tug(repo.root, args, { env: ENV });
    const coldMs = Date.now() - t0;
    t.is(cold.exitCode, 0, cold.stdout);
    const status = await tug(repo.root, ['daemon', 'status'], { env: ENV });
    t.is(status.json.daemon.warm.rust_analyzers, 1);
    // An uncommitted new use of the function must be seen by the warm server.
    await writeFile(path.join(repo.root, 'src/extra.rs'), 'pub fn cents() -> String { crate::utils::format_price(5) }\n');
    await writeFile(path.join(repo.root, 'src/lib.rs'), `pub mod extra;\n${await repo.git('show', 'HEAD:src/lib.rs')}\n`);
    const t1 = Date.now();
    const warm = await tug(repo.root, args, { env: ENV });
    const warmMs = Date.now() - t1;
    t.is(warm.exitCode, 0, warm.stdout);
    t.is(warm.json.impact.references_count, cold.json.impact.references_count + 1, 'the new call site is found');
    t.true(warm.json.references.some((r: { location: { file: string } }) => r.location.file === 'src/extra.rs'));
    t.log(`cold ${coldMs} ms, warm ${warmMs} ms`);
  } finally {
    await tug(repo.root, ['daemon', 'stop'], { env: ENV });
    await rm(runtime, { recursive: true, force: true });
  }
  await repo.cleanup();
});
