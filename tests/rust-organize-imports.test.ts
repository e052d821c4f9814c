// organize-imports on a Rust file (fixtures/rust/imports), with the real cargo, rustc and rustfmt: the imports rustc
// finds unused in every build of the file go (not `use core::str;` that `str::Utf8Error` needs, which rust-analyzer's
// assist removed on percent-encoding; not `mem`, used only by the tests), then rustfmt formats the whole file when it
// was rustfmt-clean, else only the changed `use` block; nothing unused is ok with changed false.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { tug, TUG_BIN } from './helpers/cli.js';
import { fixtureRepo } from './helpers/rename-cases.js';
import { requireRustToolchain } from './helpers/toolchains.js';

const GUARD_MS = 900_000;

test('CLI: removes what rustc finds unused in every build, keeps use core::str (str::Utf8Error) and a test-only use, rustfmt on the clean file', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const repo = await fixtureRepo('rust', 'imports');
  try {
    const run = await tug(repo.root, ['run', 'organize-imports', '--file', 'src/lib.rs', '--verify', 'tests', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    t.is(run.json.verification.status, 'passed', run.stdout);
    const text = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
    t.true(text.includes('\nuse core::str;\nuse std::fmt::{self, Display};\nuse std::mem;\n\npub fn decode'), text);
    t.false(text.includes('use std::collections::HashMap'), text);
    const subject = await repo.git('log', '-1', '--format=%s', run.json.git.commit);
    t.is(subject, 'refactor(organize-imports): organize imports in src/lib.rs (2 unused removed, rustfmt on the whole file)');
    // What cargo fmt would leave: rustfmt changes nothing more.
    const again = await execa('rustfmt', ['--edition', '2021', '--emit', 'stdout'], { input: `${text}\n`, stripFinalNewline: false });
    t.is(again.stdout, `${text}\n`);
    t.is(await repo.git('status', '--porcelain'), '');
  } finally {
    await repo.cleanup();
  }
});

test('MCP: a file that is not rustfmt-clean gets only its changed use block formatted; nothing unused is ok, changed false', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const repo = await fixtureRepo('rust', 'imports');
  const client = new Client({ name: 'tug-rust-imports', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe', env: { ...(process.env as Record<string, string>) } }));
  const call = async (args: Record<string, unknown>) => {
    const answer = await client.callTool({ name: 'tug_organize_imports', arguments: args }, undefined, { timeout: GUARD_MS });
    return { isError: Boolean(answer.isError), result: answer.structuredContent as any, raw: JSON.stringify(answer.content) };
  };
  try {
    const messy = await call({ file: 'src/messy.rs', verify: 'tests' });
    t.false(messy.isError, messy.raw);
    t.is(messy.result.verification.status, 'passed', messy.raw);
    const text = await repo.git('show', `${messy.result.git.commit}:src/messy.rs`);
    t.true(text.startsWith('use std::cmp::max;\nuse std::fmt::Debug;\n\npub fn  widest( a:u32,b :u32) -> u32 { max(a,b) }\n'), text);
    const subject = await repo.git('log', '-1', '--format=%s', messy.result.git.commit);
    t.true(subject.endsWith('(1 unused removed, rustfmt on the changed use blocks)'), subject);

    const branches = await repo.git('branch', '--list');
    const tidy = await call({ file: 'src/tidy.rs' });
    t.false(tidy.isError, tidy.raw);
    t.like(tidy.result, { status: 'ok', changed: false, summary: { files_changed: 0 } });
    t.is(await repo.git('branch', '--list'), branches);
  } finally {
    await client.close();
    await repo.cleanup();
  }
});
