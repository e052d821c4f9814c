// change-signature on TypeScript/JavaScript through the real CLI, MCP and library, on the real language service's references: definitions, overloads, interface members with their implementations and overrides, plain, method, optional, `new` and `super` calls, the packages' own test scripts; unsure places listed, unsafe calls refused.
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { changeSignature } from '../lib/index.js';
import { TUG_BIN, tug } from './helpers/cli.js';
import { TS_ENV as ENV, tsFixture } from './helpers/typescript.js';
import { withDaemon } from './helpers/warm-fixture.js';

type Check = { name: string; status: string };
const INSTALL = { '': ['typescript', '@types/node'] };
const sig = (at: string, params: unknown, ...flags: string[]) => ['run', 'change-signature', '--at', at, '--params', JSON.stringify(params), ...flags];
const testsOf = (run: { json: { verification: { checks: Check[] } } }) => run.json.verification.checks.find((c) => c.name === 'tests')?.status;

test('a function: reorder, rename and a new parameter with a default, through an aliased import; impact shows the patch; the package tests pass', async (t) => {
  const repo = await tsFixture('invoice', INSTALL);
  const params = [{ name: 'rate' }, { name: 'value', from: 'amount' }, { name: 'currency', type: 'string', default: "'EUR'" }];
  const impact = await tug(repo.root, ['analyze-impact', 'change-signature', '--at', 'src/money.ts:5:17', '--params', JSON.stringify(params)], { env: ENV });
  t.is(impact.exitCode, 0, impact.stdout);
  t.deepEqual([...new Set(impact.json.patch.edits.map((e: { file: string }) => e.file))], ['src/invoice.ts', 'src/money.ts', 'test/invoice.test.ts']);
  const run = await tug(repo.root, sig('src/money.ts:5:17', params, '--verify', 'tests'), { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.is(testsOf(run), 'passed');
  t.is(run.json.git.branch, 'tug/change-signature/signature-total');
  const money = await repo.git('show', `${run.json.git.commit}:src/money.ts`);
  t.regex(money, /export function total\(rate: number, value: number, currency: string = 'EUR'\): number \{\n {2}const factor = 1 \+ rate;\n {2}const gross = value \* factor;/);
  t.regex(money, /return total\(rate, amount\);/);
  t.regex(await repo.git('show', `${run.json.git.commit}:src/invoice.ts`), /format\(sum\(rate, a\)\)/);
  t.regex(await repo.git('show', `${run.json.git.commit}:test/invoice.test.ts`), /total\(0\.2, 100\)/);
  await repo.cleanup();
});

test('an interface method: the member, its implementation and override, super, method and optional calls; overloads; a constructor and its new calls', async (t) => {
  const repo = await tsFixture('invoice', INSTALL);
  const method = await tug(repo.root, sig('src/money.ts:2:3', [{ name: 'rate' }, { name: 'amount' }], '--verify', 'tests'), { env: ENV });
  t.is(method.exitCode, 0, method.stdout);
  t.is(testsOf(method), 'passed');
  const money = await repo.git('show', `${method.json.git.commit}:src/money.ts`);
  t.is(money.match(/price\(rate: number, amount: number\): number/g)?.length, 3);
  t.regex(money, /super\.price\(rate, amount\)/);
  t.regex(await repo.git('show', `${method.json.git.commit}:src/invoice.ts`), /pricer\?\.price\(rate, 10\)/);
  const overloads = await tug(repo.root, sig('src/money.ts:23:17', [{ name: 'value' }, { name: 'digits', type: 'number', default: '2' }], '--verify', 'tests'), { env: ENV });
  t.is(overloads.exitCode, 0, overloads.stdout);
  const formatted = await repo.git('show', `${overloads.json.git.commit}:src/money.ts`);
  t.regex(formatted, /format\(value: number, digits\?: number\): string;\nexport function format\(value: string, digits\?: number\): string;\nexport function format\(value: number \| string, digits: number = 2\): string \{/);
  const ctor = await tug(repo.root, sig('src/invoice.ts:4:3', [{ name: 'amounts' }, { name: 'customer' }], '--verify', 'tests'), { env: ENV });
  t.is(ctor.exitCode, 0, ctor.stdout);
  t.is(ctor.json.summary.edits_count, 3);
  t.regex(await repo.git('show', `${ctor.json.git.commit}:test/invoice.test.ts`), /new Invoice\(\[10, 20\], 'ada'\)/);
  await repo.cleanup();
});

test('JavaScript (CommonJS): a function and a method reordered across require, the package tests pass', async (t) => {
  const repo = await tsFixture('invoice-js');
  const fn = await tug(repo.root, sig('lib/money.js:3:10', [{ name: 'rate' }, { name: 'amount' }], '--verify', 'tests'), { env: ENV });
  t.is(fn.exitCode, 0, fn.stdout);
  t.is(testsOf(fn), 'passed');
  t.regex(await repo.git('show', `${fn.json.git.commit}:lib/report.js`), /ledger\.add\(total\(rate, a\), 'line'\)/);
  const method = await tug(repo.root, sig('lib/money.js:14:3', [{ name: 'note' }, { name: 'amount' }], '--verify', 'tests'), { env: ENV });
  t.is(method.exitCode, 0, method.stdout);
  t.is(testsOf(method), 'passed');
  t.regex(await repo.git('show', `${method.json.git.commit}:test/money.test.js`), /new Ledger\('me'\)\.add\('a', 5\)\.add\('b', 7\)/);
  t.regex(await repo.git('show', `${method.json.git.commit}:lib/money.js`), /add\(note, amount\) \{/);
  await repo.cleanup();
});

// Its seven questions about one package go to one private daemon (helpers/warm-fixture.ts): the TypeScript project loads
// once, not seven times (~2 CPU s each). The other tests here keep the cold change-signature covered.
test('values, spreads and .call are unsure; calls whose arguments have effects are refused unless force; bad new_params are usage errors', async (t) => {
  const repo = await tsFixture('invoice');
  await repo.write(
    'src/uses.ts',
    [
      "import { total } from './money.js';",
      'export const each = [1, 2].map((n) => total(n, 0.1));',
      'export const pass = (fn: typeof total) => fn(1, 2);',
      'export const passed = pass(total);',
      'export const spread = total(...([3, 0.1] as [number, number]));',
      'export const bound = total.call(null, 4, 0.2);',
      'export const effects = () => total(Math.random(), Date.now());',
      '',
    ].join('\n'),
  );
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'uses');
  await withDaemon(repo.root, async (env) => {
    const swap = [{ name: 'rate' }, { name: 'amount' }];
    const refused = await tug(repo.root, sig('src/money.ts:5:17', swap), { env });
    t.is(refused.json.error?.code, 'UnsafeRefactor', refused.stdout);
    t.like(refused.json.error.details, { reason: 'arguments with effects reordered', line: 7 });
    const dropped = await tug(repo.root, sig('src/uses.ts:7:30', [{ name: 'amount' }]), { env });
    t.like(dropped.json.error?.details, { reason: 'argument with effects removed' });
    const forced = await tug(repo.root, sig('src/money.ts:5:17', swap, '--force', '--verify', 'syntax'), { env });
    t.is(forced.exitCode, 0, forced.stdout);
    t.deepEqual(
      forced.json.unsure.map((u: { file: string; line: number; reason: string }) => `${u.file}:${u.line}:${u.reason}`),
      ['src/uses.ts:4:value_use', 'src/uses.ts:5:unresolved', 'src/uses.ts:6:value_use'],
    );
    const uses = await repo.git('show', `${forced.json.git.commit}:src/uses.ts`);
    t.regex(uses, /total\(0\.1, n\)/);
    t.regex(uses, /total\(Date\.now\(\), Math\.random\(\)\)/);
    t.regex(uses, /total\.call\(null, 4, 0\.2\)/, 'left as it was');
    const usage: Array<[string[], string]> = [
      [sig('src/money.ts:5:17', [{ name: '*' }]), 'python marker'],
      [sig('src/money.ts:5:17', [{ name: 'amount' }, { name: 'rate' }, { name: 'extra' }]), 'new parameter without default or value'],
      [sig('src/money.ts:5:17', [{ name: 'amount', from: 'nope' }]), 'unknown from'],
    ];
    for (const [args, reason] of usage) {
      const run = await tug(repo.root, args, { env });
      t.is(run.json.error?.code, 'InvalidArgument', run.stdout);
      t.is(run.json.error.details.reason, reason);
      t.is(run.exitCode, 2);
    }
    const notFunction = await tug(repo.root, sig('src/money.ts:6:9', swap), { env });
    t.is(notFunction.json.error?.code, 'SymbolNotFound', notFunction.stdout);
    t.is(await repo.git('status', '--porcelain'), '');
  });
  await repo.cleanup();
});

test('a JavaScript type is a usage error; MCP and the library make the same commit as the CLI', async (t) => {
  const repo = await tsFixture('invoice-js');
  const typed = await tug(repo.root, sig('lib/money.js:3:10', [{ name: 'amount', type: 'number' }, { name: 'rate' }]), { env: ENV });
  t.like(typed.json.error, { code: 'InvalidArgument', details: { reason: 'type in JavaScript' } });
  const params = [{ name: 'amount' }, { name: 'rate' }, { name: 'currency', value: "'EUR'" }];
  const cli = await tug(repo.root, sig('lib/money.js:3:10', params), { env: ENV });
  t.is(cli.exitCode, 0, cli.stdout);
  t.regex(await repo.git('show', `${cli.json.git.commit}:lib/report.js`), /total\(a, rate, 'EUR'\)/);
  const client = new Client({ name: 'tug-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: 'node', args: [TUG_BIN, 'mcp'], cwd: repo.root, stderr: 'pipe', env: { ...process.env, ...ENV } as Record<string, string> }));
  try {
    const result = await client.callTool({ name: 'tug_change_signature', arguments: { file: 'lib/money.js', line: 3, column: 10, new_params: params } }, undefined, { timeout: 600_000 });
    t.falsy(result.isError, JSON.stringify(result.structuredContent));
    t.is((result.structuredContent as { git: { commit: string } }).git.commit, cli.json.git.commit);
  } finally {
    await client.close();
  }
  const library = (await changeSignature({ workspace: repo.root, file: 'lib/money.js', line: 3, column: 10, new_params: params })) as { git: { commit: string } };
  t.is(library.git.commit, cli.json.git.commit);
  await repo.cleanup();
});

test('a parameter list and a call written one item a line keep that layout, trailing comma included (vercel/ms plural)', async (t) => {
  const repo = await tsFixture('durations', INSTALL);
  const params = [{ name: 'ms' }, { name: 'n' }, { name: 'unit', from: 'name' }, { name: 'msAbs' }];
  const run = await tug(repo.root, sig('src/index.ts:69:10', params, '--verify', 'tests'), { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.is(testsOf(run), 'passed');
  const text = await repo.git('show', `${run.json.git.commit}:src/index.ts`);
  t.true(text.includes('function plural(\n  ms: number,\n  n: number,\n  unit: string,\n  msAbs: number,\n): string {\n'), text);
  t.true(text.includes("    return plural(\n      ms,\n      d,\n      'day',\n      msAbs,\n    );\n"), text);
  t.true(text.includes("    return plural(ms, h, 'hour', msAbs);\n"), 'a call on one line stays on one line');
  await repo.cleanup();
});

test('a function passed as a value: a change old calls no longer fit is refused unless force, one they still fit is not', async (t) => {
  const repo = await tsFixture('invoice');
  await repo.write('src/scale.ts', ['export function scale(n: number, by: number): number {', '  return n * by;', '}', '', 'export const apply = (f: (a: number, b: number) => number) => f(2, 3);', 'export const six = apply(scale);', 'export const eight = scale(4, 2);', ''].join('\n'));
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'scale');
  await withDaemon(repo.root, async (env) => {
    // apply calls it f(2, 3) the old way: swapped, it would silently get the arguments the other way round.
    const swap = await tug(repo.root, sig('src/scale.ts:1:17', [{ name: 'by' }, { name: 'n' }], '--verify', 'none'), { env });
    t.is(swap.json.error?.code, 'UnsafeRefactor', swap.stdout);
    t.like(swap.json.error.details, { reason: 'value use', path: 'src/scale.ts', line: 6 });
    const removed = await tug(repo.root, sig('src/scale.ts:1:17', [{ name: 'n' }], '--verify', 'none'), { env });
    t.is(removed.json.error?.details?.reason, 'value use', removed.stdout);
    // A parameter added after the others with a default, or a rename: old calls still fit.
    const added = await tug(repo.root, sig('src/scale.ts:1:17', [{ name: 'n' }, { name: 'by' }, { name: 'round', default: 'false' }], '--verify', 'none'), { env });
    t.is(added.exitCode, 0, added.stdout);
    const forced = await tug(repo.root, sig('src/scale.ts:1:17', [{ name: 'by' }, { name: 'n' }], '--force', '--verify', 'none'), { env });
    t.is(forced.exitCode, 0, forced.stdout);
    t.deepEqual(forced.json.unsure.map((u: { line: number; reason: string }) => `${u.line}:${u.reason}`), ['6:value_use']);
    t.regex(await repo.git('show', `${forced.json.git.commit}:src/scale.ts`), /export const eight = scale\(2, 4\);/);
  });
  await repo.cleanup();
});
