// Issue 32's "works from the CLI, git tug, MCP, library and TUI" for the Rust operations that are not rename: organize-
// imports, change-signature and an assist, each through `git tug`, an MCP client (the SDK's, over stdio) and the
// library's typed functions on a crate written here (real cargo and rust-analyzer), then a resulting branch opened by
// the review kernel and drawn by the review TUI (ink-testing-library), as `tug review` does.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import test from 'ava';
import { execa } from './helpers/execa.js';
import path from 'node:path';
import { applyAssist, changeSignature, organizeImports } from '../lib/index.js';
import { createReviewKernel } from '../lib/review/kernel.js';
import { shutdownRustAnalyzers } from '../lib/rust/servers.js';
import { TUG_BIN } from './helpers/cli.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';
import { reviewFrame } from './helpers/review-tui.js';
import { requireRustToolchain } from './helpers/toolchains.js';

const GUARD_MS = 900_000;
const LIB = `use std::fmt::Write;
use std::collections::HashMap;

pub fn area(width: u32, height: u32) -> u32 {
    width * height
}

pub fn table() -> HashMap<u32, u32> {
    let mut m = HashMap::new();
    m.insert(1, area(2, 3) + area(4, 5));
    m
}

#[cfg(test)]
mod tests {
    #[test]
    fn works() {
        assert_eq!(super::table()[&1], 26);
    }
}
`;
const SWAP = [{ name: 'height' }, { name: 'width' }];
const AT_AREA = { file: 'src/lib.rs', line: 4, column: 8 };
const AT_TIMES = { file: 'src/lib.rs', line: 5, column: 11 };
type Json = Record<string, any>;

// The library and the review kernel run rust-analyzer in this process: end it, or ava's worker waits for it.
test.after.always(() => shutdownRustAnalyzers());

async function crate(t: any): Promise<TestRepo | null> {
  if (!(await requireRustToolchain(t))) return null;
  t.timeout(GUARD_MS);
  return makeRepo({ 'Cargo.toml': '[package]\nname = "doors"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': LIB });
}

/** What each of the three results must have made: its branch, with the crate's file changed as asked. */
async function checkResults(t: any, repo: TestRepo, results: { imports: Json; signature: Json; assist: Json }): Promise<void> {
  for (const [name, r] of Object.entries(results)) t.is(r.status, 'ok', `${name}: ${JSON.stringify(r).slice(0, 800)}`);
  const show = (r: Json) => repo.git('show', `${r.git.commit}:src/lib.rs`);
  t.false((await show(results.imports)).includes('use std::fmt::Write;'));
  t.true((await show(results.signature)).includes('pub fn area(height: u32, width: u32)'));
  t.true((await show(results.signature)).includes('area(3, 2) + area(5, 4)'));
  t.true((await show(results.assist)).includes('height * width'));
  for (const r of Object.values(results)) t.regex(r.git.branch, /^tug\//);
}

test('git tug: organize-imports, change-signature and an assist; the review kernel and TUI open the result', async (t) => {
  const repo = await crate(t);
  if (!repo) return;
  const gitTug = async (args: string[]) => {
    const run = await execa('git', ['tug', ...args, '--json'], { cwd: repo.root, reject: false, env: { PATH: `${path.dirname(TUG_BIN)}${path.delimiter}${process.env['PATH']}`, TUG_NO_DAEMON: '1' } });
    return JSON.parse(run.stdout) as Json;
  };
  try {
    const imports = await gitTug(['run', 'organize-imports', '--file', 'src/lib.rs']);
    const signature = await gitTug(['run', 'change-signature', '--at', 'src/lib.rs:4:8', '--params', JSON.stringify(SWAP)]);
    const assist = await gitTug(['assist', 'src/lib.rs:5:11', 'flip_binexpr']);
    await checkResults(t, repo, { imports, signature, assist });

    // `tug review BRANCH`: the kernel lists and opens the branch, the TUI draws its diff.
    const kernel = createReviewKernel({ workspace: repo.root });
    const listed = (await kernel.list()).map((s) => s.branch);
    t.true(listed.includes(signature.git.branch), listed.join(' '));
    const opened = await kernel.open(signature.git.branch);
    t.deepEqual(opened.files.map((f) => f.path), ['src/lib.rs']);
    const frame = await reviewFrame(kernel, signature.git.branch);
    t.true(frame.includes(signature.git.branch), frame);
    // The edit under the cursor is marked ‹…› in the line.
    t.true(frame.includes('-pub fn area(‹width›: u32, height: u32) -> u32 {'), frame);
    t.true(frame.includes('+pub fn area(‹height›: u32, width: u32) -> u32 {'), frame);
  } finally {
    await repo.cleanup();
  }
});

test('MCP (SDK client): tug_organize_imports, tug_change_signature and tug_assist on a Rust crate', async (t) => {
  const repo = await crate(t);
  if (!repo) return;
  const client = new Client({ name: 'tug-rust-doors', version: '0.0.0' });
  try {
    await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe', env: { ...(process.env as Record<string, string>), TUG_NO_DAEMON: '1' } }));
    const call = async (name: string, args: Json) => {
      const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: GUARD_MS })) as Json;
      return (result.structuredContent ?? JSON.parse(result.content[0].text)) as Json;
    };
    const imports = await call('tug_organize_imports', { file: 'src/lib.rs' });
    const signature = await call('tug_change_signature', { ...AT_AREA, new_params: SWAP });
    const assist = await call('tug_assist', { ...AT_TIMES, id: 'flip_binexpr' });
    await checkResults(t, repo, { imports, signature, assist });
  } finally {
    await client.close();
    await repo.cleanup();
  }
});

test('library: organizeImports, changeSignature and applyAssist on a Rust crate', async (t) => {
  const repo = await crate(t);
  if (!repo) return;
  try {
    const common = { workspace: repo.root };
    const imports = await organizeImports({ ...common, file: 'src/lib.rs' });
    const signature = await changeSignature({ ...common, ...AT_AREA, new_params: SWAP });
    const assist = await applyAssist({ ...common, ...AT_TIMES, id: 'flip_binexpr' });
    await checkResults(t, repo, { imports, signature, assist } as { imports: Json; signature: Json; assist: Json });
  } finally {
    await repo.cleanup();
  }
});
