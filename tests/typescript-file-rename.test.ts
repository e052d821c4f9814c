// Renaming a TypeScript/JavaScript module (rename-symbol at a module specifier) through the real CLI, the language service's getEditsForFileRename and each package's own test script: the file or an index module's directory moves; imports, export-from, require, import() and `paths` aliases follow; computed loads and path strings listed unsure.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { TS_ENV as ENV, tsFixture } from './helpers/typescript.js';
import { withDaemon } from './helpers/warm-fixture.js';

type Check = { name: string; status: string };
const checks = (json: { verification?: { checks: Check[] } }) => (json.verification?.checks ?? []).map((c) => `${c.name}:${c.status}`);
const unsureOf = (json: { unsure?: Array<{ file: string; line: number; reason: string }> }) => (json.unsure ?? []).map((u) => `${u.file}:${u.line}:${u.reason}`);
const SHOP_INSTALL = { '': ['typescript', '@types/node'] };

test('a TypeScript module renamed at an import: the file moves, imports and `export * from` follow with .js, the package tests pass, analyze-impact lists the specifiers', async (t) => {
  const repo = await tsFixture('shop', SHOP_INSTALL);
  const impact = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/pricing.ts:1:23', '--to', 'cash'], { env: ENV });
  t.is(impact.exitCode, 0, impact.stdout);
  t.like(impact.json.symbol, { name: 'money', kind: 'module', location: { file: 'src/money.ts' } });
  t.deepEqual(impact.json.references.map((r: { location: { file: string; line: number } }) => `${r.location.file}:${r.location.line}`), ['src/index.ts:3', 'src/pricing.ts:1']);
  const run = await tug(repo.root, ['rename', 'src/pricing.ts:1:23', 'cash', '--verify', 'tests'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(checks(run.json), ['typescript-syntax:passed', 'tests:passed', 'typecheck:passed']);
  t.deepEqual(run.json.patch.file_moves, [{ from: 'src/money.ts', to: 'src/cash.ts' }]);
  const show = (file: string) => repo.git('show', `${run.json.git.commit}:${file}`);
  t.regex(await show('src/pricing.ts'), /^import \{ round \} from '\.\/cash\.js';/);
  t.regex(await show('src/index.ts'), /\nexport \* from '\.\/cash\.js';/);
  t.regex(await show('src/cash.ts'), /^export function round/);
  t.deepEqual(unsureOf(run.json), ['src/report.ts:9:dynamic_module']);
  await repo.cleanup();
});

test('a module moved to another directory through a `paths` alias: the alias keeps its prefix, the moved file\'s own imports follow; tsc passes', async (t) => {
  const repo = await tsFixture('shop', SHOP_INSTALL);
  const config = JSON.parse(await repo.readText('tsconfig.json'));
  config.compilerOptions.paths = { '#shop/*': ['./src/*'] };
  await repo.write('tsconfig.json', JSON.stringify(config, null, 2));
  await repo.write('src/alias.ts', "import { discount } from '#shop/pricing.js';\n\nexport const half = (n: number) => discount(n) / 2;\n");
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'alias');
  const run = await tug(repo.root, ['rename', 'src/alias.ts:1:26', 'src/billing/pricing.ts', '--verify', 'typecheck', '--test-command', '["true"]'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(checks(run.json).filter((c) => c.startsWith('typecheck')), ['typecheck:passed']);
  t.deepEqual(run.json.patch.file_moves, [{ from: 'src/pricing.ts', to: 'src/billing/pricing.ts' }]);
  const show = (file: string) => repo.git('show', `${run.json.git.commit}:${file}`);
  t.regex(await show('src/alias.ts'), /^import \{ discount \} from '#shop\/billing\/pricing\.js';/);
  t.regex(await show('src/billing/pricing.ts'), /^import \{ round \} from '\.\.\/money\.js';/);
  t.regex(await show('src/report.ts'), /import type \{ Quote \} from '\.\/billing\/pricing\.js';\nimport \{ discount \} from '\.\/billing\/pricing\.js';/);
  t.regex(await show('src/index.ts'), /^export \{ discount, price as finalPrice \} from '\.\/billing\/pricing\.js';\nexport type \{ Quote \} from '\.\/billing\/pricing\.js';/);
  await repo.cleanup();
});

test('CommonJS: require() of a file and of a directory index follow, a computed require is unsure, the package tests pass', async (t) => {
  const repo = await tsFixture('plain-js');
  await repo.write('lib/text/index.js', "'use strict';\nconst { shout } = require('./case');\n\nmodule.exports = { shout };\n");
  await repo.write('lib/text/case.js', "'use strict';\nmodule.exports = { shout: (s) => s.toUpperCase() };\n");
  await repo.write('lib/loud.js', "'use strict';\nconst { shout } = require('./text');\n\nfunction load(name) {\n  return require(name);\n}\n\nmodule.exports = { loud: (s) => shout(s), load };\n");
  await repo.write('test/loud.test.js', "'use strict';\nconst test = require('node:test');\nconst assert = require('node:assert/strict');\nconst { loud } = require('../lib/loud');\n\ntest('loud', () => {\n  assert.equal(loud('a'), 'A');\n});\n");
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'text');
  const file = await tug(repo.root, ['rename', 'lib/index.js:3:40', 'strings', '--verify', 'tests'], { env: ENV });
  t.is(file.exitCode, 0, file.stdout);
  t.deepEqual(checks(file.json), ['typescript-syntax:passed', 'tests:passed']);
  t.deepEqual(file.json.patch.file_moves, [{ from: 'lib/util.js', to: 'lib/strings.js' }]);
  const show = (commit: string, path: string) => repo.git('show', `${commit}:${path}`);
  const index = await show(file.json.git.commit, 'lib/index.js');
  t.regex(index, /= require\('\.\/strings'\);/);
  t.regex(index, /const util = require\('\.\/strings'\);/, 'the require inside a function follows too');
  t.regex(await show(file.json.git.commit, 'test/util.test.js'), /require\('\.\.\/lib\/strings'\)/);
  t.deepEqual(unsureOf(file.json), ['lib/loud.js:5:dynamic_module']);
  const dir = await tug(repo.root, ['rename', 'lib/loud.js:2:27', 'words', '--verify', 'tests'], { env: ENV });
  t.is(dir.exitCode, 0, dir.stdout);
  t.deepEqual(checks(dir.json), ['typescript-syntax:passed', 'tests:passed']);
  t.deepEqual(dir.json.patch.file_moves, [{ from: 'lib/text/case.js', to: 'lib/words/case.js' }, { from: 'lib/text/index.js', to: 'lib/words/index.js' }]);
  t.regex(await show(dir.json.git.commit, 'lib/loud.js'), /require\('\.\/words'\)/);
  await repo.cleanup();
});

// After the cold rename and undo, its four questions go to one private daemon (helpers/warm-fixture.ts): the
// TypeScript project loads once for them, not four times (~2 CPU s each).
test('ES modules in JavaScript: export-from and a literal import() follow; package.json naming the file is unsure; refusals leave nothing behind', async (t) => {
  const repo = await tsFixture('esm-js');
  const run = await tug(repo.root, ['rename', 'lib/index.js:1:46', 'text', '--verify', 'tests', '--apply'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(checks(run.json), ['typescript-syntax:passed', 'tests:passed']);
  t.is(await repo.readText('lib/index.js'), "export { slugify, titleCase, headline } from './text.js';\n");
  const test = await repo.readText('test/strings.test.js');
  t.regex(test, /import \{ slugify \} from '\.\.\/lib\/text\.js';/);
  t.regex(test, /await import\('\.\.\/lib\/text\.js'\)/);
  const undo = await tug(repo.root, ['undo', run.json.undo_token], { env: ENV });
  t.is(undo.exitCode, 0, undo.stdout);
  const manifest = JSON.parse(await repo.readText('package.json'));
  await repo.write('package.json', JSON.stringify({ ...manifest, main: 'lib/index.js' }, null, 2));
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'main');
  await withDaemon(repo.root, async (env) => {
    const entry = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'test/strings.test.js:3:26', '--to', 'api'], { env });
    t.is(entry.exitCode, 0, entry.stdout);
    t.deepEqual(unsureOf(entry.json), ['package.json:9:string_mention']);
    const taken = await tug(repo.root, ['rename', 'lib/index.js:1:46', 'index'], { env });
    t.is(taken.exitCode, 4, taken.stdout);
    t.like(taken.json.error, { code: 'NameConflict' });
    const outside = await tug(repo.root, ['rename', 'test/strings.test.js:1:18', 'runner'], { env });
    t.is(outside.json.error.code, 'UnsafeRefactor', outside.stdout);
    const language = await tug(repo.root, ['rename', 'lib/index.js:1:46', 'text.ts'], { env });
    t.like(language.json.error, { code: 'InvalidArgument', details: { argument: 'to' } });
    t.is(await repo.git('status', '--porcelain'), '');
  });
  await repo.cleanup();
});
