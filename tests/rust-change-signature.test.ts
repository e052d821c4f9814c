// change-signature on a Rust fn or method (fixtures/rust/signature) with the real rust-analyzer and cargo: a trait
// method reordered in the declaration, both impls (one names the parameter differently) and every call (method, `dyn`,
// `Trait::m(x, …)`, `Type::m(x, …)`); a free fn renamed, reordered and given a new parameter across modules; a removed
// parameter; a reorder that would change the evaluation order refused unless forced, a fn pointer listed as unsure.
// The first test is the cold CLI path; the last two share one copy of the fixture behind one daemon
// (helpers/warm-fixture.ts: rust-analyzer indexes it once, each case starts from the committed fixture).
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { tug, TUG_BIN } from './helpers/cli.js';
import { fixtureRepo } from './helpers/rename-cases.js';
import { requireRustToolchain } from './helpers/toolchains.js';
import { warmFixtures } from './helpers/warm-fixture.js';

const GUARD_MS = 900_000;
const fixtures = warmFixtures();
test.after.always(() => fixtures.stopAll());
fixtures.plan('rust', 'signature', 2);

test('CLI: a trait method reordered in the trait, every impl and every call form; cargo test passes', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const repo = await fixtureRepo('rust', 'signature');
  try {
    const run = await tug(repo.root, ['run', 'change-signature', '--at', 'src/lib.rs:6:8', '--params', '[{"name":"offset"},{"name":"factor"}]', '--verify', 'tests', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    t.is(run.json.verification.status, 'passed', run.stdout);
    const text = await repo.git('show', `${run.json.git.commit}:src/lib.rs`);
    for (const line of [
      '    fn scaled(&self, offset: u32, factor: u32) -> u32;\n',
      '    fn scaled(&self, offset: u32, factor: u32) -> u32 {\n        self.0 * factor + offset\n',
      '    fn scaled(&self, offset: u32, k: u32) -> u32 {\n',
      'shapes.iter().map(|s| s.scaled(1, 2)).sum()',
      'Scale::scaled(sq, 0, 3) + Square::scaled(sq, 1, 1) + area(2, 3)',
      'assert_eq!(Square(2).scaled(1, 3), 7);',
    ]) t.true(text.includes(line), `${line}\n---\n${text}`);
    t.is(await repo.git('log', '-1', '--format=%s', run.json.git.commit), 'refactor(change-signature): scaled(offset, factor) (4 calls)');
  } finally {
    await repo.cleanup();
  }
});

test('MCP: rename + reorder + add across modules (the body follows the rename), and a removed parameter', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  const repo = await fixtureRepo('rust', 'signature');
  const client = new Client({ name: 'tug-rust-signature', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe', env: { ...(process.env as Record<string, string>) } }));
  const call = async (args: Record<string, unknown>) => {
    const answer = await client.callTool({ name: 'tug_change_signature', arguments: args }, undefined, { timeout: GUARD_MS });
    return { isError: Boolean(answer.isError), result: answer.structuredContent as any, raw: JSON.stringify(answer.content) };
  };
  try {
    const label = await call({ file: 'src/shapes.rs', line: 3, column: 8, verify: 'tests', new_params: [{ name: 'n', from: 'side' }, { name: 'name' }, { name: 'sep', type: 'char', value: "':'" }] });
    t.false(label.isError, label.raw);
    t.is(label.result.verification.status, 'passed', label.raw);
    const shapes = await repo.git('show', `${label.result.git.commit}:src/shapes.rs`);
    t.true(shapes.includes('pub fn label(n: u32, name: &str, sep: char) -> String {\n    format!("{}:{}", name, area(n, 1))\n'), shapes);
    const lib = await repo.git('show', `${label.result.git.commit}:src/lib.rs`);
    t.true(lib.includes('shapes::label(3, "box", \':\')'), lib);

    const greet = await call({ file: 'src/shapes.rs', line: 7, column: 8, verify: 'tests', new_params: [{ name: 'name' }] });
    t.false(greet.isError, greet.raw);
    t.is(greet.result.verification.status, 'passed', greet.raw);
    t.true((await repo.git('show', `${greet.result.git.commit}:src/lib.rs`)).includes('shapes::greet("ann")'));

    const wrong = await call({ file: 'src/shapes.rs', line: 7, column: 8, new_params: [{ name: 'name' }, { name: 'loud', type: 'bool' }] });
    t.true(wrong.isError, wrong.raw);
    t.is(wrong.result.error.code, 'InvalidArgument');
  } finally {
    await client.close();
    await repo.cleanup();
  }
});

test('CLI: a reorder that changes which argument with effects runs first is refused; forced, a fn pointer is listed as unsure', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  await fixtures.use('rust', 'signature', async ({ repo, env }) => {
    const params = ['--params', '[{"name":"height"},{"name":"width"}]'];
    const refused = await tug(repo.root, ['run', 'change-signature', '--at', 'src/lib.rs:24:8', ...params, '--json'], { env });
    t.is(refused.json.error.code, 'UnsafeRefactor', refused.stdout);
    t.is(refused.json.error.details.reason, 'arguments with effects reordered');
    t.is(await repo.git('branch', '--list', 'tug/*'), '');

    const forced = await tug(repo.root, ['run', 'change-signature', '--at', 'src/lib.rs:24:8', ...params, '--force', '--verify', 'tests', '--json'], { env });
    t.is(forced.exitCode, 0, forced.stdout);
    t.deepEqual(forced.json.unsure, [{ file: 'src/lib.rs', line: 37, col: 34, text: 'let f: fn(u32, u32) -> u32 = area;', reason: 'value_use', renamed: false }]);
    const text = await repo.git('show', `${forced.json.git.commit}:src/lib.rs`);
    t.true(text.includes('vec![f(1, 2), area(5, 4)]') && text.includes('assert_eq!(area(two() + 1, two()), 6);'), text);
    t.true((await repo.git('show', `${forced.json.git.commit}:src/shapes.rs`)).includes('area(1, side)'));
  });
});

// Found by the sweep on percent-encoding: renaming `next` of `impl Iterator for PercentDecode` also renamed
// `iter.next()` of another type, and the trait cannot follow anyway. Refused, from the definition or a call.
test('CLI: rename and change-signature of next in impl Iterator (a trait from outside the workspace) are refused', async (t) => {
  if (!(await requireRustToolchain(t))) return;
  t.timeout(GUARD_MS);
  await fixtures.use('rust', 'signature', async ({ repo, env }) => {
    for (const args of [
      ['rename', 'src/shapes.rs:16:8', 'advance'],
      ['rename', 'src/shapes.rs:28:26', 'advance'],
      ['run', 'change-signature', '--at', 'src/shapes.rs:16:8', '--params', '[{"name":"n","type":"u32","value":"1"}]'],
    ]) {
      const run = await tug(repo.root, [...args, '--json'], { env });
      t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
      t.like(run.json.error.details, { reason: 'implements a foreign trait', trait: 'Iterator', line: 16, col: 8 });
    }
    t.is(await repo.git('branch', '--list', 'tug/*'), '');
  });
});
