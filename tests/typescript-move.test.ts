// move-symbol on TypeScript and JavaScript packages through the real CLI, the language service's Move to file and each package's own test script: importers, re-exports and `import type` follow with their `.js` style; refusals for default exports, import-time side effects, import-time cycles and CommonJS; computed module loads listed unsure.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { TS_ENV, tsFixture } from './helpers/typescript.js';
import { withDaemon } from './helpers/warm-fixture.js';

const ENV = TS_ENV;
const SHOP_INSTALL = { '': ['typescript', '@types/node'] };
type Check = { name: string; status: string };
const checks = (json: { verification?: { checks: Check[] } }) => (json.verification?.checks ?? []).map((c) => `${c.name}:${c.status}`);

test('a function moves to a new TypeScript module: importers and re-exports follow with .js specifiers, the package tests pass, analyze-impact shows the same patch', async (t) => {
  const repo = await tsFixture('shop', SHOP_INSTALL);
  const impact = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'src/pricing.ts:7:17', '--destination', 'src/discounts.ts'], { env: ENV });
  t.is(impact.exitCode, 0, impact.stdout);
  t.is(await repo.git('status', '--porcelain'), '', 'analyze-impact writes nothing');
  const run = await tug(repo.root, ['move', '--at', 'src/pricing.ts:7:17', '--destination', 'src/discounts.ts', '--verify', 'tests'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(checks(run.json), ['typescript-syntax:passed', 'tests:passed', 'typecheck:passed']);
  t.is(run.json.patch.unified_diff, impact.json.patch.unified_diff);
  t.is(run.json.git.branch, 'tug/move-symbol/discount-to-discounts');
  const show = (file: string) => repo.git('show', `${run.json.git.commit}:${file}`);
  t.is(
    await show('src/discounts.ts'),
    "import { round } from './money.js';\nimport { RATE } from './pricing.js';\n\n/** The discount on a total, rounded to cents. */\nexport function discount(total: number): number {\n  return round(total * RATE);\n}",
    'the declaration keeps its doc comment and its own text',
  );
  t.regex(await show('src/pricing.ts'), /^import \{ discount \} from '\.\/discounts\.js';\n/, 'the old module imports it back: price still calls it');
  t.notRegex(await show('src/pricing.ts'), /function discount/);
  t.is((await show('src/index.ts')).split('\n').slice(0, 2).join('\n'), "export { price as finalPrice } from './pricing.js';\nexport { discount } from './discounts.js';");
  t.regex(await show('src/report.ts'), /^import type \{ Quote \} from '\.\/pricing\.js';\nimport \{ discount \} from '\.\/discounts\.js';/);
  t.deepEqual(run.json.unsure.map((u: { file: string; line: number; reason: string }) => `${u.file}:${u.line}:${u.reason}`), ['src/report.ts:9:dynamic_module'], 'import(`./plugins/${name}.js`) may load any module');
  t.true(run.json.warnings.some((w: { code: string }) => w.code === 'UnsureReferences'));
  await repo.cleanup();
});

test('an interface moves into an existing module: `import type` and `export type { … } from` follow', async (t) => {
  const repo = await tsFixture('shop', SHOP_INSTALL);
  const run = await tug(repo.root, ['move', '--at', 'src/pricing.ts:15:18', '--destination', 'src/money.ts', '--verify', 'tests'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(checks(run.json), ['typescript-syntax:passed', 'tests:passed', 'typecheck:passed']);
  const show = (file: string) => repo.git('show', `${run.json.git.commit}:${file}`);
  t.regex(await show('src/money.ts'), /\n}\n\nexport interface Quote \{\n {2}total: number;/);
  t.regex(await show('src/report.ts'), /^import type \{ Quote \} from '\.\/money\.js';/);
  t.regex(await show('src/index.ts'), /\nexport type \{ Quote \} from '\.\/money\.js';\n/);
  t.deepEqual(run.json.patch.files_created ?? [], []);
  await repo.cleanup();
});

// Seven questions about one package go to one private daemon (helpers/warm-fixture.ts): the TypeScript project loads
// once, not seven times (~2 CPU s each). The other tests here keep the cold move covered.
test('refused with nothing written: a default export, a declaration that runs code at import, an import-time cycle, a name the destination has, a position on no top-level name', async (t) => {
  const repo = await tsFixture('shop');
  await withDaemon(repo.root, async (env) => {
    const move = (at: string, destination: string) => tug(repo.root, ['move', '--at', at, '--destination', destination], { env });
    const defaulted = await move('src/pricing.ts:24:25', 'src/describe.ts');
    t.is(defaulted.exitCode, 4, defaulted.stdout);
    t.like(defaulted.json.error, { code: 'UnsafeRefactor', details: { reason: 'default export', name: 'describe' } });
    const effect = await move('src/pricing.ts:22:14', 'src/state.ts');
    t.like(effect.json.error, { code: 'UnsafeRefactor', details: { reason: 'side effects at import time', name: 'registry', line: 22 } });
    // DOUBLE = RATE * 2 reads RATE while the new module loads, and pricing.ts (describe) imports DOUBLE back.
    const cycle = await move('src/pricing.ts:20:14', 'src/rates.ts');
    t.is(cycle.exitCode, 4, cycle.stdout);
    t.like(cycle.json.error, { code: 'ImportCycle', details: { modules: ['src/pricing.ts', 'src/rates.ts'], reader: 'src/rates.ts', name: 'RATE' } });
    await repo.write('src/other.ts', 'export const discount = 0;\n');
    await repo.git('add', '-A');
    await repo.git('commit', '-qm', 'other');
    const taken = await move('src/pricing.ts:7:17', 'src/other.ts');
    t.is(taken.exitCode, 4, taken.stdout);
    t.like(taken.json.error, { code: 'NameConflict', details: { conflicts: [{ file: 'src/other.ts', line: 1, name: 'discount' }] } });
    const same = await move('src/pricing.ts:7:17', 'src/pricing.ts');
    t.like(same.json.error, { code: 'InvalidArgument', details: { argument: 'destination' } });
    const notTop = await move('src/pricing.ts:8:3', 'src/x.ts');
    t.is(notTop.json.error.code, 'UnsupportedOperation', notTop.stdout);
    const noExt = await move('src/pricing.ts:7:17', 'src/discounts');
    t.like(noExt.json.error, { code: 'InvalidArgument', details: { argument: 'destination' } });
    t.is(await repo.git('status', '--porcelain'), '');
  });
  await repo.cleanup();
});

test('a function moves between ES modules of a JavaScript package; its test script passes; a run-time import of the old module is unsure', async (t) => {
  const repo = await tsFixture('esm-js');
  const run = await tug(repo.root, ['move', '--at', 'lib/strings.js:2:17', '--destination', 'lib/slug.js', '--verify', 'tests', '--apply'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(checks(run.json), ['typescript-syntax:passed', 'tests:passed']);
  t.is(await repo.readText('lib/slug.js'), "/** A URL-safe form of a title. */\nexport function slugify(text) {\n  return text.toLowerCase().trim().replace(/[^a-z0-9]+/g, '-');\n}\n");
  t.regex(await repo.readText('lib/strings.js'), /^import \{ slugify \} from '\.\/slug\.js';\n\nexport function titleCase/);
  t.is(await repo.readText('lib/index.js'), "export { titleCase, headline } from './strings.js';\nexport { slugify } from './slug.js';\n");
  t.regex(await repo.readText('test/strings.test.js'), /import \{ slugify \} from '\.\.\/lib\/slug\.js';/);
  t.deepEqual(run.json.unsure.map((u: { file: string; line: number; reason: string }) => `${u.file}:${u.line}:${u.reason}`), ['test/strings.test.js:12:unresolved']);
  const undo = await tug(repo.root, ['undo', run.json.undo_token], { env: ENV });
  t.is(undo.exitCode, 0, undo.stdout);
  t.is(await repo.git('status', '--porcelain', '--untracked-files=all'), '');
  await repo.cleanup();
});

test('a CommonJS module (module.exports) is refused with the reason, nothing written', async (t) => {
  const repo = await tsFixture('plain-js');
  const run = await tug(repo.root, ['move', '--at', 'lib/util.js:3:10', '--destination', 'lib/slug.js'], { env: ENV });
  t.is(run.exitCode, 2, run.stdout);
  t.like(run.json.error, { code: 'UnsupportedOperation', details: { reason: 'CommonJS exports', name: 'slugify', location: 'lib/util.js:11:1' } });
  t.is(await repo.git('status', '--porcelain'), '');
  await repo.cleanup();
});

test('under isolatedDeclarations the helpers a move exports get the types the service infers, so tsc passes as well as the tests (vercel/ms)', async (t) => {
  const repo = await tsFixture('durations', SHOP_INSTALL);
  const short = await tug(repo.root, ['move', '--at', 'src/index.ts:24:10', '--destination', 'src/fmt-short.ts', '--verify', 'tests'], { env: ENV });
  t.is(short.exitCode, 0, short.stdout);
  t.deepEqual(checks(short.json), ['typescript-syntax:passed', 'tests:passed', 'typecheck:passed']);
  const show = (run: typeof short, file: string) => repo.git('show', `${run.json.git.commit}:${file}`);
  t.is(
    (await show(short, 'src/index.ts')).split('\n').slice(0, 7).join('\n'),
    "import { fmtShort } from './fmt-short.js';\n\nexport const s = 1000;\nexport const m: number = s * 60;\nexport const h: number = m * 60;\nexport const d: number = h * 24;\n",
    'a literal needs no annotation (and `number` would widen it); the computed ones get theirs',
  );
  // fmtLong has no return type: exported from its new module, it gets the one inferred.
  const long = await tug(repo.root, ['move', '--at', 'src/index.ts:44:10', '--destination', 'src/fmt-long.ts', '--verify', 'tests'], { env: ENV });
  t.is(long.exitCode, 0, long.stdout);
  t.deepEqual(checks(long.json), ['typescript-syntax:passed', 'tests:passed', 'typecheck:passed']);
  t.regex(await show(long, 'src/fmt-long.ts'), /^export function fmtLong\(ms: number\): string \{$/m);
  t.regex(await show(long, 'src/index.ts'), /^export function plural\(\n/m, 'plural had its return type already');
  await repo.cleanup();
});

test('under verbatimModuleSyntax a type the old module still uses is imported back with `type`, so tsc passes', async (t) => {
  const repo = await tsFixture('shop', SHOP_INSTALL);
  const config = await repo.readText('tsconfig.json');
  await repo.write('tsconfig.json', config.replace('"strict": true,', '"strict": true,\n    "verbatimModuleSyntax": true,'));
  await repo.git('commit', '-qam', 'verbatimModuleSyntax');
  const run = await tug(repo.root, ['move', '--at', 'src/pricing.ts:15:18', '--destination', 'src/money.ts', '--verify', 'tests'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(checks(run.json), ['typescript-syntax:passed', 'tests:passed', 'typecheck:passed']);
  t.regex(await repo.git('show', `${run.json.git.commit}:src/pricing.ts`), /^import \{ round, type Quote \} from '\.\/money\.js';\n/);
  await repo.cleanup();
});

test('under isolatedDeclarations a helper the service cannot annotate (a class expression) refuses the move, at the helper', async (t) => {
  const repo = await tsFixture('durations', SHOP_INSTALL);
  const index = await repo.readText('src/index.ts');
  await repo.write('src/index.ts', index.replace('const d = h * 24;\n', 'const d = h * 24;\nconst Units = class {\n  static day = d;\n};\n').replace('if (msAbs >= d) {\n    return `${Math.round(ms / d)}d`;', 'if (msAbs >= Units.day) {\n    return `${Math.round(ms / d)}d`;'));
  await repo.git('commit', '-qam', 'a class expression');
  const run = await tug(repo.root, ['move', '--at', 'src/index.ts:27:10', '--destination', 'src/fmt-short.ts', '--verify', 'tests'], { env: ENV });
  t.is(run.exitCode, 4, run.stdout);
  t.like(run.json.error, { code: 'UnsafeRefactor', details: { reason: 'isolatedDeclarations' }, location: { file: 'src/index.ts', line: 5, col: 15 } });
  t.regex(run.json.error.message, /TS9022/);
  t.is(await repo.git('status', '--porcelain'), '');
  t.is(await repo.git('branch', '--list', 'tug/*'), '');
  await repo.cleanup();
});
