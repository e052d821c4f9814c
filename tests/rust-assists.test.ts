// rust-analyzer assists as tug operations on fixtures/rust/sound: extract-variable, extract-function, inline, each verified
// with cargo test and committed; an assist not offered is UnsupportedByAdapter naming what was; the MCP door answers alike.
// The CLI calls on fixtures/rust/sound share one copy behind one daemon (helpers/warm-fixture.ts: rust-analyzer indexes it
// once, each case starts from the committed fixture); the crates written here run cold. The MCP calls on that copy go
// to one MCP server (its own rust-analyzer, cold for the first call), opened by the first case that needs it.
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { tug, TUG_BIN } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { requireRustToolchain } from './helpers/toolchains.js';
import { warmFixtures, type WarmFixture } from './helpers/warm-fixture.js';

// The SDK's 60 s default is a guard against a hang, not a time limit; a loaded machine can take longer to answer.
const GUARD = { timeout: 900_000 };

const fixtures = warmFixtures();
let mcp: Promise<Client> | undefined;
// The MCP server first, then the copy it serves; also after a failed case, which must not leave either running.
test.after.always(async () => {
  await (await mcp?.catch(() => undefined))?.close();
  await fixtures.stopAll();
});
fixtures.plan('rust', 'sound', 8);
const sound = <T>(body: (fixture: WarmFixture) => Promise<T>) => fixtures.use('rust', 'sound', body);

/** The MCP server on the shared copy of fixtures/rust/sound, started by the first case that asks. */
function mcpOn(root: string): Promise<Client> {
  mcp ??= (async () => {
    const client = new Client({ name: 'tug-rust-assists', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: root, stderr: 'pipe', env: { ...(process.env as Record<string, string>) } }));
    return client;
  })();
  return mcp;
}

function assist(args: string[]) {
  return sound(async ({ repo, env }) => {
    const run = await tug(repo.root, ['run', ...args, '--verify', 'tests', '--json'], { env });
    const shapes = run.json?.git ? await repo.git('show', `${run.json.git.commit}:src/shapes.rs`) : '';
    return { run, shapes };
  });
}

test('extract-variable binds the range to --name and cargo test passes', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  const { run, shapes } = await assist(['extract-variable', '--range', 'src/shapes.rs:28:9-28:18', '--name', 'width']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification.status, 'passed');
  t.regex(run.json.git.branch, /^tug\/extract-variable\//);
  t.true(shapes.includes('        let width = end - pre;\n        width\n'), shapes);
});

test('extract-function moves the range into a function called --name', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  const { run, shapes } = await assist(['extract-function', '--range', 'src/shapes.rs:28:9-28:18', '--name', 'width_of']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification.status, 'passed');
  t.true(shapes.includes('        width_of(pre, end)\n') && /\nfn width_of\(pre: &usize, end: &usize\) -> usize \{\n    end - pre\n\}\n/.test(shapes), shapes);
});

// Found on a real crate: extracting `formatter.align()` in `let align = formatter.align().unwrap_or(0);`, rust-analyzer
// names the new variable `align` too; putting --name in by text renamed both bindings (`let requested =
// requested.unwrap_or(0)`) and cargo check failed. The name now goes to the binding rust-analyzer created, by position.
test('extract-variable --name renames only the binding rust-analyzer created, when its pick shadows a name in scope', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  const lib = [
    'pub struct Formatter {',
    '    align: Option<u8>,',
    '}',
    '',
    'impl Formatter {',
    '    pub fn align(&self) -> Option<u8> {',
    '        self.align',
    '    }',
    '}',
    '',
    'pub fn pad(formatter: &Formatter) -> u8 {',
    '    let align = formatter.align().unwrap_or(0);',
    '    align + 1',
    '}',
    '',
    '#[cfg(test)]',
    'mod tests {',
    '    use super::*;',
    '',
    '    #[test]',
    '    fn pads() {',
    '        assert_eq!(pad(&Formatter { align: Some(2) }), 3);',
    '        assert_eq!(pad(&Formatter { align: None }), 1);',
    '    }',
    '}',
    '',
  ].join('\n');
  const repo = await makeRepo({ 'Cargo.toml': '[package]\nname = "fmtpad"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n', 'src/lib.rs': lib, '.gitignore': '/target\n' });
  try {
    const run = await tug(repo.root, ['run', 'extract-variable', '--range', 'src/lib.rs:12:17-12:34', '--name', 'requested', '--verify', 'tests', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    t.is(run.json.verification.status, 'passed');
    const text = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
    t.true(text.includes('    let requested = formatter.align();\n    let align = requested.unwrap_or(0);\n    align + 1\n'), text);
  } finally {
    await repo.cleanup();
  }
});

// strsim `osa_distance` in the sweep: rust-analyzer's `let chars = a.chars();` reached tug as small edits, one of them
// `count` → `chars` right after the file's own `.`, and --name went there too: `let sweep_v = a.sweep_v();`.
test('extract-variable --name leaves a method call alone when rust-analyzer named the variable after the method', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  const lib = [
    'pub fn osa_distance(a: &str, b: &str) -> usize {',
    '    let a_len = a.chars().count();',
    '    let b_len = b.chars().count();',
    '    a_len + b_len',
    '}',
    '',
    '#[cfg(test)]',
    'mod tests {',
    '    #[test]',
    '    fn counts() {',
    '        assert_eq!(super::osa_distance("ab", "cde"), 5);',
    '    }',
    '}',
    '',
  ].join('\n');
  const repo = await makeRepo({ 'Cargo.toml': '[package]\nname = "osa"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n', 'src/lib.rs': lib, '.gitignore': '/target\n' });
  try {
    const run = await tug(repo.root, ['run', 'extract-variable', '--range', 'src/lib.rs:2:17-2:26', '--name', 'letters', '--verify', 'tests', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    const text = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
    t.true(text.includes('    let letters = a.chars();\n    let a_len = letters.count();\n'), text);
  } finally {
    await repo.cleanup();
  }
});

test('inline replaces a local by its value', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  const { run, shapes } = await assist(['inline', '--at', 'src/shapes.rs:62:9']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification.status, 'passed');
  t.true(shapes.includes('pub fn starts(spans: &[Span]) -> Vec<usize> {\n    vec![spans[0].pre, spans[spans.len() - 1].pre]\n}'), shapes);
  t.false(shapes.includes('let firsts'));
});

test('an assist rust-analyzer does not offer there is UnsupportedByAdapter naming what it offers, through CLI and MCP alike', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  await sound(async ({ repo, env }) => {
    const run = await tug(repo.root, ['run', 'inline', '--at', 'src/shapes.rs:1:1', '--json'], { env });
    t.is(run.exitCode, 2, run.stdout);
    t.is(run.json.error.code, 'UnsupportedByAdapter');
    t.deepEqual(run.json.error.details.wanted, ['inline_local_variable', 'inline_call']);
    t.true(Array.isArray(run.json.error.details.offered) && run.json.error.details.offered.length > 0, run.stdout);
    const client = await mcpOn(repo.root);
    const inline = await client.callTool({ name: 'tug_inline', arguments: { file: 'src/shapes.rs', line: 1, column: 1 } }, undefined, GUARD);
    t.true(Boolean(inline.isError));
    t.true(JSON.stringify(inline.content).includes('UnsupportedByAdapter'), JSON.stringify(inline.content));
    // rust_analyzer picks the server: one that does not exist is RustAnalyzerNotFound, not the discovered one.
    const missing = await client.callTool({ name: 'tug_inline', arguments: { file: 'src/shapes.rs', line: 1, column: 1, rust_analyzer: '/nonexistent/rust-analyzer' } }, undefined, GUARD);
    t.true(JSON.stringify(missing.content).includes('RustAnalyzerNotFound'), JSON.stringify(missing.content));
  });
});

test('analyze-impact shows an assist\'s patch without writing anything; MCP takes file, line, column, end_line, end_column, new_name', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  await sound(async ({ repo, env }) => {
    const cli = await tug(repo.root, ['analyze-impact', 'extract-variable', '--range', 'src/shapes.rs:28:9-28:18', '--name', 'width', '--json'], { env });
    t.is(cli.exitCode, 0, cli.stdout);
    t.is(cli.json.operation, 'extract-variable');
    t.true(cli.json.patch.unified_diff.includes('+        let width = end - pre;'), cli.json.patch.unified_diff);
    t.is(cli.json.git, undefined, 'nothing is committed');
    t.is(await repo.git('branch', '--list', 'tug/*'), '');
    t.is(await repo.git('status', '--porcelain'), '');
    const client = await mcpOn(repo.root);
    const target = { file: 'src/shapes.rs', line: 28, column: 9, end_line: 28, end_column: 18, new_name: 'width' };
    const impact = await client.callTool({ name: 'tug_analyze_impact', arguments: { operation: 'extract_variable', ...target } }, undefined, GUARD);
    t.falsy(impact.isError, JSON.stringify(impact.content));
    t.is((impact.structuredContent as { patch: { unified_diff: string } }).patch.unified_diff, cli.json.patch.unified_diff);
    // A field the named refactor does not take is refused, not ignored.
    const stray = await client.callTool({ name: 'tug_analyze_impact', arguments: { operation: 'inline', ...target } }, undefined, GUARD);
    t.true(Boolean(stray.isError));
    t.true(JSON.stringify(stray.content).includes('end_line'), JSON.stringify(stray.content));
  });
});

test('the shorthand `tug inline --at` runs inline, and a flag of another refactor is refused', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  await sound(async ({ repo, env }) => {
    const stray = await tug(repo.root, ['run', 'inline', '--at', 'src/shapes.rs:62:9', '--name', 'x', '--json'], { env });
    t.is(stray.exitCode, 2, stray.stdout);
    t.regex(stray.json.error.message, /--name does not apply to inline/);
    const run = await tug(repo.root, ['inline', '--at', 'src/shapes.rs:62:9', '--json'], { env });
    t.is(run.exitCode, 0, run.stdout);
    t.is(run.json.operation, 'inline');
    t.regex(run.json.git.branch, /^tug\/inline\//);
  });
});

test('organize-imports removes the use nothing needs from --file', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  await sound(async ({ repo, env }) => {
    const run = await tug(repo.root, ['run', 'organize-imports', '--file', 'src/describe.rs', '--verify', 'tests', '--json'], { env });
    t.is(run.exitCode, 0, run.stdout);
    t.is(run.json.verification.status, 'passed');
    const describe = await repo.git('show', `${run.json.git.commit}:src/describe.rs`);
    t.false(describe.includes('HashMap'), describe);
    t.true(describe.startsWith('use crate::shapes::{Label, Span};\n'), 'used imports stay');
  });
});

// Issue 28: nothing to do is success for an idempotent operation (it was UnsupportedByAdapter, exit 3).
test('organize-imports on a Rust file whose every use is needed: ok, changed false, no branch', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  await sound(async ({ repo, env }) => {
    const branches = await repo.git('branch', '--list');
    const run = await tug(repo.root, ['run', 'organize-imports', '--file', 'src/shapes.rs', '--json'], { env });
    t.is(run.exitCode, 0, run.stdout);
    t.like(run.json, { status: 'ok', changed: false, summary: { files_changed: 0 } });
    t.false('undo_token' in run.json);
    t.is(await repo.git('branch', '--list'), branches);
  });
});
