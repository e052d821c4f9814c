// The assist catalog on fixtures/rust/catalog with the real rust-analyzer and cargo: `tug assists` lists what is offered
// at a place, `tug run assist --id` applies one (snippet markers gone, cargo check and tests green, committed on
// tug/assist/…), an id not offered there names the ids that are; snippet parsing checked on its own below.
import test, { type ExecutionContext } from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { tug, TUG_BIN } from './helpers/cli.js';
import { fixtureRepo } from './helpers/rename-cases.js';
import { requireRustToolchain } from './helpers/toolchains.js';
import { warmFixtures } from './helpers/warm-fixture.js';
import { snippetText, SnippetNeedsInput } from '../lib/rust/snippets.js';
import { listAssists } from '../lib/index.js';
import { releaseResources } from '../lib/ops/resources.js';

const SNIPPET_MARK = /\$\d|\$\{\d/;

function checkPassed(t: ExecutionContext, result: any, raw: string) {
  t.is(result?.verification?.status, 'passed', raw);
  const check = (result.verification.checks as Array<{ name: string; status: string }>).find((c) => c.name === 'cargo check');
  t.is(check?.status, 'passed', raw);
}

// rust-analyzer starts cold for each CLI call; on a loaded machine that takes long, hence the generous guard.
const GUARD_MS = 900_000;
// The first test is the cold CLI path of `assists` and `run assist`; the last two share one copy of the fixture behind
// one daemon (helpers/warm-fixture.ts: rust-analyzer indexes it once, each case starts from the committed fixture).
const fixtures = warmFixtures();
test.after.always(() => fixtures.stopAll());
fixtures.plan('rust', 'catalog', 2);

test('CLI: assists lists what rust-analyzer offers on a match, sorted by id; run assist add_missing_match_arms applies without snippet marks', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const repo = await fixtureRepo('rust', 'catalog');
  try {
    const list = await tug(repo.root, ['assists', '--at', 'src/lib.rs:8:5', '--json']);
    t.is(list.exitCode, 0, list.stdout);
    const ids = (list.json.assists as Array<{ id: string; label: string; kind: string }>).map((a) => a.id);
    t.true(ids.includes('add_missing_match_arms'), ids.join(','));
    t.deepEqual(ids, [...ids].sort());
    t.is(list.json.location, 'src/lib.rs:8:5');

    // The library function answers what the command line does.
    try {
      const library = await listAssists({ workspace: repo.root, file: 'src/lib.rs', line: 8, column: 5 });
      t.deepEqual(library.assists, list.json.assists);
    } finally {
      await releaseResources();
    }

    const run = await tug(repo.root, ['run', 'assist', '--id', 'add_missing_match_arms', '--at', 'src/lib.rs:8:5', '--verify', 'tests', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    checkPassed(t, run.json, run.stdout);
    t.is(run.json.git.branch, 'tug/assist/add_missing_match_arms-src-lib-8');
    t.truthy(run.json.undo_token);
    const text = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
    t.true(text.includes('        Shape::Square(_) => todo!(),\n        Shape::Triangle(_) => todo!(),\n'), text);
    t.false(SNIPPET_MARK.test(text), text);
    // Nothing but the branch: the working tree is as it was.
    t.is(await repo.git('status', '--porcelain'), '');
  } finally {
    await repo.cleanup();
  }
});

test('MCP: convert_to_guarded_return and generate_new apply and pass cargo test; an id not offered lists the ids that are', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const repo = await fixtureRepo('rust', 'catalog');
  const client = new Client({ name: 'tug-assist-catalog', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe', env: { ...(process.env as Record<string, string>) } }));
  const call = async (name: string, args: Record<string, unknown>) => {
    const answer = await client.callTool({ name, arguments: args }, undefined, { timeout: GUARD_MS });
    return { isError: Boolean(answer.isError), result: answer.structuredContent as any, raw: JSON.stringify(answer.content) };
  };
  try {
    const list = await call('tug_assists', { file: 'src/lib.rs', line: 27, column: 5 });
    t.false(list.isError, list.raw);
    t.true((list.result.assists as Array<{ id: string }>).some((a) => a.id === 'convert_to_guarded_return'), list.raw);

    // A range (end_line, end_column) selects an expression: rust-analyzer offers to extract it.
    const range = await call('tug_assists', { file: 'src/lib.rs', line: 27, column: 8, end_line: 27, end_column: 13 });
    t.false(range.isError, range.raw);
    t.true((range.result.assists as Array<{ id: string }>).some((a) => a.id === 'extract_variable'), range.raw);
    t.is(range.result.location, 'src/lib.rs:27:8-27:13');
    const missing = await call('tug_assists', { file: 'src/lib.rs', line: 27, column: 5, rust_analyzer: '/nonexistent/rust-analyzer' });
    t.is(missing.result.error.code, 'RustAnalyzerNotFound', missing.raw);

    const guarded = await call('tug_assist', { file: 'src/lib.rs', line: 27, column: 5, id: 'convert_to_guarded_return', verify: 'tests' });
    t.false(guarded.isError, guarded.raw);
    checkPassed(t, guarded.result, guarded.raw);
    t.is(guarded.result.git.branch, 'tug/assist/convert_to_guarded_return-src-lib-27');
    const after = await repo.git('show', `${guarded.result.git.commit}:src/lib.rs`);
    t.true(after.includes('    if n <= 0 {\n        return;\n    }\n    out.push(n);\n'), after);

    const generated = await call('tug_assist', { file: 'src/lib.rs', line: 21, column: 12, id: 'generate_new', verify: 'tests' });
    t.false(generated.isError, generated.raw);
    checkPassed(t, generated.result, generated.raw);
    const text = await repo.git('show', `${generated.result.git.commit}:src/lib.rs`);
    t.true(text.includes('impl Point {\n    pub fn new(x: i32, y: i32) -> Self {\n        Self { x, y }\n    }\n}\n'), text);
    t.false(SNIPPET_MARK.test(text), text);

    const wrong = await call('tug_assist', { file: 'src/lib.rs', line: 21, column: 12, id: 'generate_neww' });
    t.true(wrong.isError, wrong.raw);
    t.is(wrong.result.error.code, 'InvalidArgument');
    t.is(wrong.result.error.details.did_you_mean, 'generate_new');
    t.true((wrong.result.error.details.offered as string[]).includes('generate_new'), wrong.raw);
    t.is(await repo.git('branch', '--list', 'tug/assist/generate_neww*'), '');
  } finally {
    await client.close();
    await repo.cleanup();
  }
});

test('CLI: move_module_to_file creates the module file it implies, committed with the edit', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  await fixtures.use('rust', 'catalog', async ({ repo, env }) => {
    const run = await tug(repo.root, ['run', 'assist', '--id', 'move_module_to_file', '--at', 'src/lib.rs:58:10', '--verify', 'tests', '--json'], { env });
    t.is(run.exitCode, 0, run.stdout);
    checkPassed(t, run.json, run.stdout);
    // (git's output comes without its final newline.)
    t.is(await repo.git('show', `${run.json.git.commit}:src/units.rs`), 'pub fn metres(cm: u32) -> u32 {\n    cm / 100\n}');
    const lib = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
    t.true(lib.endsWith('\n\npub mod units;') && !lib.includes('pub mod units {'), lib);
    t.is(await repo.git('status', '--porcelain'), '');
  });
});

test('CLI: an assist rust-analyzer offers but cannot resolve (destructure_struct_binding of a binding read as p.x) is UnsupportedByAdapter naming it, nothing committed', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  await fixtures.use('rust', 'catalog', async ({ repo, env }) => {
    const list = await tug(repo.root, ['assists', '--at', 'src/lib.rs:45:13', '--json'], { env });
    t.is(list.exitCode, 0, list.stdout);
    t.true((list.json.assists as Array<{ id: string }>).some((a) => a.id === 'destructure_struct_binding'), list.stdout);
    const run = await tug(repo.root, ['run', 'assist', '--id', 'destructure_struct_binding', '--at', 'src/lib.rs:45:13', '--verify', 'none', '--json'], { env });
    t.is(run.exitCode, 2, run.stdout);
    t.is(run.json.error.code, 'UnsupportedByAdapter', run.stdout);
    t.is(run.json.error.details.assist, 'destructure_struct_binding');
    t.regex(run.json.error.details.reason as string, /rust-analyzer could not resolve it/);
    t.is(await repo.git('branch', '--list', 'tug/assist/*'), '');
    t.is(await repo.git('status', '--porcelain'), '');
  });
});

test('snippet text keeps placeholder defaults and drops tab stops, by parsing (escaped $ and } stay code)', (t) => {
  t.is(snippetText('let $0var_name = 1;'), 'let var_name = 1;');
  t.is(snippetText('Shape::Square(_) => ${1:todo!()},\n$0'), 'Shape::Square(_) => todo!(),\n');
  t.is(snippetText('fn ${1:name}(${2:a: ${3:u8}}) {$0}'), 'fn name(a: u8) {}');
  t.is(snippetText('macro_rules! m { (\\$x:expr) => { \\$x \\} }'), 'macro_rules! m { ($x:expr) => { $x } }');
  t.is(snippetText('cost $ 5 \\n'), 'cost $ 5 \\n');
  t.throws(() => snippetText('${1|a,b|}'), { instanceOf: SnippetNeedsInput });
  t.throws(() => snippetText('${TM_SELECTED_TEXT}'), { instanceOf: SnippetNeedsInput });
});
