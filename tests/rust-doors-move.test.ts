// Issue 32's "works from the CLI, git tug, MCP, library and TUI" for Rust's move-symbol (tests/rust-doors.test.ts
// covers the other Rust operations the same way): a fn of lib.rs moves into the crate's `shapes` module through
// `git tug move`, an MCP client (the SDK's, over stdio) and the library's moveSymbol, on a crate written here with real
// cargo and rust-analyzer; the resulting branch is opened by the review kernel and drawn by the review TUI.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import test from 'ava';
import { execa } from './helpers/execa.js';
import path from 'node:path';
import { moveSymbol } from '../lib/index.js';
import { createReviewKernel } from '../lib/review/kernel.js';
import { shutdownRustAnalyzers } from '../lib/rust/servers.js';
import { TUG_BIN } from './helpers/cli.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';
import { reviewFrame } from './helpers/review-tui.js';
import { requireRustToolchain } from './helpers/toolchains.js';

const GUARD_MS = 900_000;
const LIB = `pub mod shapes;

pub fn area(width: u32, height: u32) -> u32 {
    width * height
}

pub fn table() -> u32 {
    area(2, 3) + shapes::square(4)
}

#[cfg(test)]
mod tests {
    #[test]
    fn works() {
        assert_eq!(super::table(), 22);
    }
}
`;
const SHAPES = `pub fn square(side: u32) -> u32 {
    crate::area(side, side)
}
`;
const AT_AREA = { file: 'src/lib.rs', line: 3, column: 8 };
const DESTINATION = 'crate::shapes';
type Json = Record<string, any>;

// The library and the review kernel run rust-analyzer in this process: end it, or ava's worker waits for it.
test.after.always(() => shutdownRustAnalyzers());

async function crate(t: any): Promise<TestRepo | null> {
  if (!(await requireRustToolchain(t))) return null;
  t.timeout(GUARD_MS);
  // publish = false: lib.rs's public path may move without a re-export (a published one is refused without one).
  return makeRepo({
    '.gitignore': 'target\n',
    'Cargo.toml': '[package]\nname = "doors"\nversion = "0.1.0"\nedition = "2021"\npublish = false\n',
    'src/lib.rs': LIB,
    'src/shapes.rs': SHAPES,
  });
}

/** What the move must have made: a tug/ branch where the fn lives in shapes.rs and both callers reach it there. */
async function checkMoved(t: any, repo: TestRepo, result: Json): Promise<void> {
  t.is(result.status, 'ok', JSON.stringify(result).slice(0, 800));
  t.regex(result.git.branch, /^tug\//);
  const show = (file: string) => repo.git('show', `${result.git.commit}:${file}`);
  const lib = await show('src/lib.rs');
  const shapes = await show('src/shapes.rs');
  t.false(lib.includes('pub fn area('), lib);
  t.true(shapes.includes('pub fn area(width: u32, height: u32) -> u32 {\n    width * height\n}'), shapes);
  t.true(lib.includes('use crate::shapes::area;'), lib);
  t.true(shapes.includes('crate::shapes::area(side, side)'), shapes);
  t.is(await repo.git('log', '-1', '--format=%s', result.git.commit), 'refactor(move-symbol): area -> doors::shapes');
}

test('git tug move: a Rust fn into another module, verified by its tests; the review kernel and TUI open the branch', async (t) => {
  const repo = await crate(t);
  if (!repo) return;
  try {
    const run = await execa('git', ['tug', 'move', 'src/lib.rs:3:8', DESTINATION, '--verify', 'tests', '--json'], {
      cwd: repo.root,
      reject: false,
      env: { PATH: `${path.dirname(TUG_BIN)}${path.delimiter}${process.env['PATH']}`, TUG_NO_DAEMON: '1' },
    });
    const moved = JSON.parse(run.stdout) as Json;
    await checkMoved(t, repo, moved);
    t.is(moved.verification.status, 'passed', JSON.stringify(moved.verification));

    // `tug review BRANCH`: the kernel lists and opens the branch, the TUI draws its diff.
    const kernel = createReviewKernel({ workspace: repo.root });
    t.true((await kernel.list()).some((s) => s.branch === moved.git.branch));
    const opened = await kernel.open(moved.git.branch);
    t.deepEqual(opened.files.map((f) => f.path), ['src/lib.rs', 'src/shapes.rs']);
    const frame = await reviewFrame(kernel, moved.git.branch);
    t.true(frame.includes(moved.git.branch), frame);
    t.true(frame.includes('src/lib.rs'), frame);
    t.true(frame.includes('-pub fn area(width: u32, height: u32) -> u32 {'), frame);
    t.true(frame.includes('+use crate::shapes::area;'), frame);
  } finally {
    await repo.cleanup();
  }
});

test('MCP (SDK client): tug_move_symbol moves a Rust fn into another module', async (t) => {
  const repo = await crate(t);
  if (!repo) return;
  const client = new Client({ name: 'tug-rust-doors-move', version: '0.0.0' });
  try {
    await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe', env: { ...(process.env as Record<string, string>), TUG_NO_DAEMON: '1' } }));
    const result = (await client.callTool({ name: 'tug_move_symbol', arguments: { ...AT_AREA, destination: DESTINATION } }, undefined, { timeout: GUARD_MS })) as Json;
    await checkMoved(t, repo, (result.structuredContent ?? JSON.parse(result.content[0].text)) as Json);
  } finally {
    await client.close();
    await repo.cleanup();
  }
});

test('library: moveSymbol moves a Rust fn into another module', async (t) => {
  const repo = await crate(t);
  if (!repo) return;
  try {
    await checkMoved(t, repo, (await moveSymbol({ workspace: repo.root, ...AT_AREA, destination: DESTINATION })) as Json);
  } finally {
    await repo.cleanup();
  }
});
