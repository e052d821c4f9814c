// inline of a TypeScript/JavaScript variable through the real CLI, MCP and library, the real language service's "Inline variable" and the packages' own test scripts: what it inlines, what tug refuses and why, nothing written on a refusal.
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { inline } from '../lib/index.js';
import { TUG_BIN, tug } from './helpers/cli.js';
import { TS_ENV as ENV, tsFixture } from './helpers/typescript.js';
import { withDaemon } from './helpers/warm-fixture.js';

type Check = { name: string; status: string };
const INSTALL = { '': ['typescript', '@types/node'] };
const refusal = (run: { json: { error?: { code: string; details?: { reason?: string } } } }) => `${run.json.error?.code}:${run.json.error?.details?.reason}`;

test('a TypeScript local is inlined by the language service, verified by the package tests and committed; impact shows the same patch', async (t) => {
  const repo = await tsFixture('invoice', INSTALL);
  const impact = await tug(repo.root, ['analyze-impact', 'inline', '--at', 'src/money.ts:7:26'], { env: ENV });
  t.is(impact.exitCode, 0, impact.stdout);
  t.deepEqual(impact.json.patch.edits.map((e: { new_text: string }) => e.new_text), ['  const gross = amount * (1 + rate);\n']);
  const run = await tug(repo.root, ['run', 'inline', '--at', 'src/money.ts:6:9', '--verify', 'tests'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(run.json.verification.checks.map((c: Check) => `${c.name}:${c.status}`), ['typescript-syntax:passed', 'tests:passed', 'typecheck:passed']);
  t.is(run.json.git.branch, 'tug/inline/factor');
  const after = await repo.git('show', `${run.json.git.commit}:src/money.ts`);
  t.regex(after, /\n {2}const gross = amount \* \(1 \+ rate\);\n/);
  t.notRegex(after, /factor/);
  // A call moves into the only use, in the next statement, and into a template string.
  const call = await tug(repo.root, ['run', 'inline', '--at', 'src/money.ts:27:13', '--verify', 'tests'], { env: ENV });
  t.is(call.exitCode, 0, call.stdout);
  t.regex(await repo.git('show', `${call.json.git.commit}:src/money.ts`), /\n {2}return `\$\{String\(value\)\} EUR`;\n\}/);
  await repo.cleanup();
});

test('a JavaScript (CommonJS) local: a member read and a fresh object inlined into their next statement, the package tests run', async (t) => {
  const repo = await tsFixture('invoice-js');
  const count = await tug(repo.root, ['run', 'inline', '--at', 'lib/report.js:8:9', '--verify', 'tests'], { env: ENV });
  t.is(count.exitCode, 0, count.stdout);
  t.is(count.json.verification.checks.find((c: Check) => c.name === 'tests')?.status, 'passed');
  t.regex(await repo.git('show', `${count.json.git.commit}:lib/report.js`), /return `\$\{ledger\.owner\}: \$\{ledger\.entries\.length\} lines`;/);
  const entry = await tug(repo.root, ['run', 'inline', '--at', 'lib/money.js:16:23', '--verify', 'tests', '--apply'], { env: ENV });
  t.is(entry.exitCode, 0, entry.stdout);
  t.regex(await repo.readText('lib/money.js'), /\n {4}this\.entries\.push\(\{ amount, note \}\);\n {4}return this;/);
  await repo.cleanup();
});

test('the last of several declarators in one `var` (clsx: `var i=0, tmp, str=\'\', len=mix.length;`): only that one goes, the others stay', async (t) => {
  const repo = await tsFixture('invoice-js');
  const run = await tug(repo.root, ['run', 'inline', '--at', 'lib/report.js:13:24', '--verify', 'tests'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification.checks.find((c: Check) => c.name === 'tests')?.status, 'passed');
  const report = await repo.git('show', `${run.json.git.commit}:lib/report.js`);
  t.true(report.includes("  var i = 0, out = '';\n  for (; i < amounts.length; i++) {\n"), report);
  await repo.cleanup();
});

// Ten refusals on one package go to one private daemon (helpers/warm-fixture.ts): the TypeScript project loads once,
// not ten times (~2 CPU s each). The other tests here keep the cold inline covered.
test('refusals name the reason and write nothing: effects, nested uses, shadowing, exports, writes, functions, imports', async (t) => {
  const repo = await tsFixture('invoice');
  await repo.write(
    'src/cases.ts',
    [
      "import { total } from './money.js';",
      'export const RATE = 0.2;',
      'let counter = 1;',
      'counter = 2;',
      'const base = 3;',
      'const alias = base;',
      'export function shadow(base: number): number {',
      '  return alias + base;',
      '}',
      'export function twice(): number[] {',
      '  const now = Date.now();',
      '  return [now, now];',
      '}',
      'export function later(flag: boolean): number {',
      '  const value = total(1, RATE);',
      '  if (flag) return value;',
      '  return 0;',
      '}',
      'export function late(items: number[]): number {',
      '  const first = items[0];',
      '  items.shift();',
      '  return first ?? 0;',
      '}',
      'export const read = () => counter;',
      '',
    ].join('\n'),
  );
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'cases');
  const cases: Array<[string, string]> = [
    ['src/cases.ts:2:14', 'UnsafeRefactor:exported'],
    ['src/cases.ts:3:5', 'UnsafeRefactor:reassigned'],
    ['src/cases.ts:6:7', 'UnsafeRefactor:name means something else at a use'],
    ['src/cases.ts:11:9', 'UnsafeRefactor:value with effects used more than once'],
    ['src/cases.ts:15:9', 'UnsafeRefactor:value with effects used conditionally'],
    ['src/cases.ts:20:9', 'UnsafeRefactor:value reads state that may change'],
    ['src/invoice.ts:7:11', 'UnsafeRefactor:used inside a nested function'],
    ['src/money.ts:5:17', 'UnsupportedByAdapter:not a variable'],
    ['src/cases.ts:1:10', 'UnsupportedByAdapter:import'],
    ['src/money.ts:1:1', "SymbolNotFound:put the position on the variable's declaration or a use"],
  ];
  await withDaemon(repo.root, async (env) => {
    for (const [at, expected] of cases) {
      const run = await tug(repo.root, ['run', 'inline', '--at', at], { env });
      t.is(refusal(run), expected, `${at}: ${run.stdout}`);
      t.not(run.exitCode, 0);
    }
    t.is(await repo.git('branch', '--list', 'tug/*'), '');
    t.is(await repo.git('status', '--porcelain'), '');
  });
  await repo.cleanup();
});

test('MCP and the library inline the same way as the CLI', async (t) => {
  const repo = await tsFixture('invoice-js');
  const cli = await tug(repo.root, ['run', 'inline', '--at', 'lib/report.js:8:9'], { env: ENV });
  t.is(cli.exitCode, 0, cli.stdout);
  const client = new Client({ name: 'tug-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe', env: { ...process.env, ...ENV } as Record<string, string> }));
  try {
    const result = await client.callTool({ name: 'tug_inline', arguments: { file: 'lib/report.js', line: 8, column: 9 } }, undefined, { timeout: 600_000 });
    t.falsy(result.isError, JSON.stringify(result.structuredContent));
    t.is((result.structuredContent as { git: { commit: string } }).git.commit, cli.json.git.commit);
  } finally {
    await client.close();
  }
  const library = (await inline({ workspace: repo.root, file: 'lib/report.js', line: 8, column: 9 })) as { git: { commit: string } };
  t.is(library.git.commit, cli.json.git.commit);
  await repo.cleanup();
});

test('a value that reads through an import binding (`import * as`, a named import) is inlined: the binding is not a write', async (t) => {
  const repo = await tsFixture('shapes');
  await repo.write('src/far.ts', ["import * as geo from './geometry.js';", "import { distance } from './geometry.js';", '', 'export function far(p: geo.Point): boolean {', '  const d = distance(geo.ORIGIN, p);', '  return d > 10;', '}', ''].join('\n'));
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'far');
  const run = await tug(repo.root, ['run', 'inline', '--at', 'src/far.ts:5:9', '--verify', 'none'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.regex(await repo.git('show', `${run.json.git.commit}:src/far.ts`), /\n {2}return distance\(geo\.ORIGIN, p\) > 10;\n/);
  await repo.cleanup();
});
