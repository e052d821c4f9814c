// organize-imports on TypeScript and JavaScript files through the real CLI and language service: sorted, merged, unused removed, idempotent, verified and committed.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { standInCompiler, TS_ENV as ENV, tsFixture } from './helpers/typescript.js';

test('imports are sorted, merged and pruned; a second run has nothing to do', async (t) => {
  const repo = await tsFixture('shapes');
  await repo.write('src/report.ts', [
    "import { format } from './labels.js';",
    "import { ORIGIN } from './geometry.js';",
    "import { describe } from './labels.js';",
    "import Circle from './geometry.js';",
    '',
    'export function report() {',
    '  return format(\'short\', ORIGIN) + describe(ORIGIN).label;',
    '}',
    '',
  ].join('\n'));
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'report');
  const run = await tug(repo.root, ['run', 'organize-imports', '--file', 'src/report.ts'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.git.branch, 'tug/organize-imports/imports-src-report');
  const after = await repo.git('show', `${run.json.git.commit}:src/report.ts`);
  t.is(after.split('\n\n')[0], "import { ORIGIN } from './geometry.js';\nimport { describe, format } from './labels.js';");
  await repo.git('merge', '-q', run.json.git.branch);
  const again = await tug(repo.root, ['run', 'organize-imports', '--file', 'src/report.ts'], { env: ENV });
  t.is(again.exitCode, 0, again.stdout);
  t.is(again.json.summary.edits_count, 0);
  await repo.cleanup();
});

test('CommonJS and ES module JavaScript without a config: unused imports go, requires stay', async (t) => {
  const repo = await tsFixture('plain-js');
  await repo.write('lib/esm.mjs', "import { b, a } from './dep.mjs';\nimport { unused } from './dep.mjs';\nexport const both = a + b;\n");
  await repo.write('tool.py', 'x = 1\n');
  await repo.write('lib/dep.mjs', 'export const a = 1;\nexport const b = 2;\nexport const unused = 3;\n');
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'esm');
  const run = await tug(repo.root, ['run', 'organize-imports', '--file', 'lib/esm.mjs'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.is(await repo.git('show', `${run.json.git.commit}:lib/esm.mjs`), "import { a, b } from './dep.mjs';\nexport const both = a + b;");
  const mixed = await tug(repo.root, ['run', 'organize-imports', '--files', 'lib/esm.mjs', '--files', 'tool.py'], { env: ENV });
  t.is(mixed.json.error.code, 'InvalidArgument', mixed.stdout);
  await repo.cleanup();
});

test('a file written with two-space lists, trailing commas and no semicolons keeps its style: only the order changes', async (t) => {
  const repo = await tsFixture('shapes');
  const report = [
    '/**',
    ' * A report (the comment\'s one-space lines are not the file\'s indentation).',
    ' */',
    'import {',
    '  format,',
    '  describe,',
    "} from './labels.js'",
    "import { ORIGIN } from './geometry.js'",
    '',
    'export function report() {',
    "  return format('short', ORIGIN) + describe(ORIGIN).label",
    '}',
    '',
  ];
  await repo.write('src/report.ts', report.join('\n'));
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'report');
  const run = await tug(repo.root, ['run', 'organize-imports', '--file', 'src/report.ts', '--verify', 'none'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  const organized = [...report];
  organized.splice(3, 5, "import { ORIGIN } from './geometry.js'", 'import {', '  describe,', '  format,', "} from './labels.js'");
  t.is(await repo.git('show', `${run.json.git.commit}:src/report.ts`), organized.join('\n').trimEnd());
  await repo.cleanup();
});

test('with a compiler before 5.0, which reprints a one-name-a-line list without its last comma, the comma is kept', async (t) => {
  const repo = await tsFixture('shapes');
  // The stand-in's organizeImports drops the comma after a list's last name, as TypeScript 4.7's does.
  await standInCompiler(repo.root, {
    organizeImports: '(...a) => service.organizeImports(...a).map((c) => ({ ...c, textChanges: c.textChanges.map((x) => ({ ...x, newText: x.newText.replace(/,(\\n\\})/g, "$1") })) }))',
  });
  await repo.write('src/report.ts', ['import {', '  format,', '  describe,', "} from './labels.js';", '', 'export const report = () => format(\'short\', { x: 0, y: 0 }) + describe({ x: 0, y: 0 }).label;', ''].join('\n'));
  await repo.write('src/tidy.ts', ['import {', '  describe,', '  format,', "} from './labels.js';", '', 'export const tidy = () => format(\'short\', { x: 0, y: 0 }) + describe({ x: 0, y: 0 }).label;', ''].join('\n'));
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'report');
  const run = await tug(repo.root, ['run', 'organize-imports', '--file', 'src/report.ts', '--verify', 'none'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.regex(await repo.git('show', `${run.json.git.commit}:src/report.ts`), /^import \{\n {2}describe,\n {2}format,\n\} from '\.\/labels\.js';\n/);
  // Already in order: nothing to do (the comma the compiler drops is not a change).
  const tidy = await tug(repo.root, ['run', 'organize-imports', '--file', 'src/tidy.ts', '--verify', 'none'], { env: ENV });
  t.is(tidy.exitCode, 0, tidy.stdout);
  t.is(tidy.json.summary.edits_count, 0);
  await repo.cleanup();
});
