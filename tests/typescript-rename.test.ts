// TypeScript/JavaScript renames through the real CLI and the real language service on the fixture packages: re-exports, default exports, JSX, shorthand properties, project references, workspaces, plain JavaScript, unsure places and refusals.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { TS_ENV as ENV, tsFixture } from './helpers/typescript.js';
import { withDaemon } from './helpers/warm-fixture.js';

type Ref = { location: { file: string; line: number }; kind: string };
const files = (run: { json: { patch: { edits: Array<{ file: string }> } } }) => [...new Set(run.json.patch.edits.map((e) => e.file))].sort();
const where = (refs: Ref[]) => refs.map((r) => `${r.location.file}:${r.location.line}:${r.kind}`);

test('a function renamed through a re-export keeps the exported alias, commits on tug/rename and undoes', async (t) => {
  const repo = await tsFixture('shapes');
  const impact = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/geometry.ts:8:17', '--to', 'span'], { env: ENV });
  t.is(impact.exitCode, 0, impact.stdout);
  t.like(impact.json.symbol, { name: 'distance', kind: 'function' });
  t.deepEqual(where(impact.json.references), ['src/geometry.ts:8:definition', 'src/geometry.ts:20:call', 'src/index.ts:1:import']);
  const run = await tug(repo.root, ['rename', 'src/geometry.ts:8:17', 'span'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.git.branch, 'tug/rename/distance-to-span');
  t.is(run.json.summary.edits_count, 3);
  t.is(await repo.git('show', `${run.json.git.commit}:src/index.ts`).then((s) => s.split('\n')[0]), "export { span as dist, ORIGIN } from './geometry.js';");
  t.regex(await repo.git('log', '-1', '--format=%s', run.json.git.branch), /^refactor\(rename\): distance -> span$/);
  const applied = await tug(repo.root, ['rename', 'src/geometry.ts:8:17', 'span', '--apply'], { env: ENV });
  t.is(applied.exitCode, 0, applied.stdout);
  t.regex(await repo.readText('src/geometry.ts'), /export function span\(/);
  const undo = await tug(repo.root, ['undo', applied.json.undo_token], { env: ENV });
  t.is(undo.exitCode, 0, undo.stdout);
  t.regex(await repo.readText('src/geometry.ts'), /export function distance\(/);
  await repo.cleanup();
});

test('asked at a use that gets the name through a re-export keeping its public name, only the local binding is renamed, and a warning says where to ask', async (t) => {
  const repo = await tsFixture('shapes');
  // test/geometry.test.ts imports ORIGIN from src/index.ts, whose `export { …, ORIGIN } from` keeps the name when the
  // declaration is renamed: the declaration's rename does not reach the test, so asked there, only its binding changes.
  const local = await tug(repo.root, ['rename', 'test/geometry.test.ts:8:21', 'START'], { env: ENV });
  t.is(local.exitCode, 0, local.stdout);
  t.deepEqual(files(local), ['test/geometry.test.ts']);
  t.regex(await repo.git('show', `${local.json.git.commit}:test/geometry.test.ts`), /import \{ Circle, dist, ORIGIN as START, describe \}/);
  const warning = local.json.warnings.find((w: { code: string }) => w.code === 'LocalBindingOnly');
  t.like(warning, { location: { file: 'src/geometry.ts', line: 6, col: 14 } });
  t.regex(warning.message, /src\/geometry\.ts:6:14/);
  // Asked at the declaration, or at a use that reaches it (labels.ts imports from geometry.ts itself): no such warning.
  for (const at of ['src/geometry.ts:6:14', 'src/labels.ts:4:28']) {
    const whole = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', at, '--to', 'START'], { env: ENV });
    t.is(whole.exitCode, 0, whole.stdout);
    t.deepEqual([...new Set(whole.json.references.map((r: Ref) => r.location.file))].sort(), ['src/geometry.ts', 'src/index.ts', 'src/labels.ts'], at);
    t.false(whole.json.warnings.some((w: { code: string }) => w.code === 'LocalBindingOnly'), at);
  }
  await repo.cleanup();
});

test('shorthand properties keep their key, JSX tags and default-exported classes follow their symbol', async (t) => {
  const repo = await tsFixture('shapes');
  const shorthand = await tug(repo.root, ['rename', 'src/labels.ts:5:9', 'text'], { env: ENV });
  t.is(shorthand.exitCode, 0, shorthand.stdout);
  t.regex(await repo.git('show', `${shorthand.json.git.commit}:src/labels.ts`), /return \{ label: text, offset \};/);
  const jsx = await tug(repo.root, ['rename', 'src/view.tsx:3:17', 'Tag'], { env: ENV });
  t.is(jsx.exitCode, 0, jsx.stdout);
  t.regex(await repo.git('show', `${jsx.json.git.commit}:src/view.tsx`), /<Tag label="origin" \/>/);
  const klass = await tug(repo.root, ['rename', 'src/geometry.ts:12:22', 'Ring'], { env: ENV });
  t.is(klass.exitCode, 0, klass.stdout);
  t.deepEqual(files(klass), ['src/geometry.ts'], 'importers use the default export, not the class name');
  await repo.cleanup();
});

test('a property is renamed in every object literal of its type; strings naming it are unsure and renamed only on request', async (t) => {
  const repo = await tsFixture('shapes');
  const run = await tug(repo.root, ['rename', 'src/labels.ts:10:3', 'brief'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(
    run.json.unsure.map((u: { file: string; line: number; reason: string; renamed: boolean }) => `${u.file}:${u.line}:${u.reason}:${u.renamed}`),
    ['src/labels.ts:17:string_mention:false', 'src/labels.ts:20:string_mention:false', 'test/geometry.test.ts:19:string_mention:false'],
  );
  const all = await tug(repo.root, ['rename', 'src/labels.ts:10:3', 'brief', '--include-unsure'], { env: ENV });
  t.is(all.exitCode, 0, all.stdout);
  t.true(all.json.unsure.every((u: { renamed: boolean }) => u.renamed));
  t.regex(await repo.git('show', `${all.json.git.commit}:src/labels.ts`), /DEFAULT_FORMAT = 'brief'/);
  await repo.cleanup();
});

test('members reached through an untyped receiver or a computed key are unsure', async (t) => {
  const repo = await tsFixture('shapes');
  await repo.write('src/loose.ts', [
    'import { Counter } from "./counter.js";',
    'export function bump(anything: any, c: Counter, key: "step" | "reset") {',
    '  anything.step();',
    '  c[key]();',
    '  return c.step();',
    '}',
    '',
  ].join('\n'));
  await repo.write('src/counter.ts', 'export class Counter {\n  n = 0;\n  step() {\n    this.n++;\n  }\n  reset() {\n    this.n = 0;\n  }\n}\n');
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'counter');
  const run = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/counter.ts:3:3', '--to', 'advance'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(where(run.json.references), ['src/counter.ts:3:definition', 'src/loose.ts:5:call']);
  t.deepEqual(run.json.unsure.map((u: { line: number; reason: string }) => `${u.line}:${u.reason}`), ['2:string_mention', '3:untyped_receiver', '4:dynamic_getattr']);
  await repo.cleanup();
});

// Five questions about one package go to one private daemon (helpers/warm-fixture.ts): the TypeScript project loads
// once, not five times (~2 CPU s each). The other tests here keep the cold rename covered.
test('a name that would capture or be captured is a NameConflict; bad names and positions are usage errors', async (t) => {
  const repo = await tsFixture('shapes');
  await withDaemon(repo.root, async (env) => {
    const capture = await tug(repo.root, ['rename', 'src/labels.ts:4:9', 'label'], { env });
    t.is(capture.exitCode, 4, capture.stdout);
    t.is(capture.json.error.code, 'NameConflict');
    t.like(capture.json.error.details.conflicts[0], { file: 'src/labels.ts', line: 6 });
    const reserved = await tug(repo.root, ['rename', 'src/labels.ts:4:9', 'delete'], { env });
    t.is(reserved.json.error.code, 'InvalidArgument');
    const keyword = await tug(repo.root, ['rename', 'src/labels.ts:3:1', 'x'], { env });
    t.is(keyword.json.error.code, 'SymbolNotFound');
    const library = await tug(repo.root, ['rename', 'src/geometry.ts:9:15', 'hyp'], { env });
    t.is(library.json.error.code, 'UnsafeRefactor', library.stdout);
    await repo.write('src/broken.ts', 'export const x = ;\n');
    const broken = await tug(repo.root, ['rename', 'src/broken.ts:1:14', 'y'], { env });
    t.is(broken.json.error.code, 'SourceSyntaxError');
    t.is(await repo.git('branch', '--list', 'tug/*'), '');
  });
  await repo.cleanup();
});

test('project references and paths: renamed from a use in another project, the declaration and every user change', async (t) => {
  const repo = await tsFixture('refs');
  const run = await tug(repo.root, ['rename', 'packages/app/src/volume.ts:4:10', 'limit'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(files(run), ['packages/app/src/volume.ts', 'packages/util/src/index.ts']);
  t.regex(await repo.git('show', `${run.json.git.commit}:packages/app/src/volume.ts`), /import \{ limit \} from '@refs\/util';/);
  await repo.cleanup();
});

test('npm workspaces: a package imported by name through its node_modules link is renamed in both packages', async (t) => {
  const repo = await tsFixture('monorepo', { '': ['@mono/core=packages/core', '@mono/app=packages/app'] });
  const run = await tug(repo.root, ['rename', 'packages/app/src/cart.js:5:13', 'addTax'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(files(run), ['packages/app/src/cart.js', 'packages/core/src/index.js', 'packages/core/test/core.test.js']);
  await repo.cleanup();
});

test('plain CommonJS without a config: module.exports keeps its key, string mentions are unsure', async (t) => {
  const repo = await tsFixture('plain-js');
  const run = await tug(repo.root, ['rename', 'lib/util.js:3:10', 'toSlug'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  const util = await repo.git('show', `${run.json.git.commit}:lib/util.js`);
  t.regex(util, /function toSlug\(text\)/);
  t.regex(util, /module\.exports = \{ slugify: toSlug, titleCase \};/);
  t.deepEqual(run.json.unsure.map((u: { file: string; line: number }) => `${u.file}:${u.line}`), ['lib/index.js:14', 'test/util.test.js:7']);
  await repo.cleanup();
});

test('a member whose values come from untyped data (JSON.parse annotated or cast as the type) is refused; typed values alone rename', async (t) => {
  const repo = await tsFixture('shapes');
  await repo.write('src/pack.ts', ['export interface Pack {', '  name: string;', '  version: string;', '}', '', "export const made: Pack = { name: 'y', version: '2' };", 'export const label = (p: Pack): string => p.name;', 'export interface Box {', '  size: number;', '}', 'export const box: Box = { size: 1 };', ''].join('\n'));
  await repo.write('src/read.ts', ["import type { Pack } from './pack.js';", '', "export const read = (text: string) => JSON.parse(text) as Pack;", ''].join('\n'));
  await repo.write('src/cli.js', ['/**', ' * @typedef Meta', ' * @property {string} title', ' */', '', '/** @type {Meta} */', "const meta = JSON.parse('{\"title\": \"x\"}');", 'export const shown = meta.title;', ''].join('\n'));
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'data');
  // A cast of JSON.parse in another module, and a JSDoc-typed JSON.parse: the data keeps its keys.
  const cast = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/pack.ts:2:3', '--to', 'title'], { env: ENV });
  t.is(cast.json.error?.code, 'UnsafeRefactor', cast.stdout);
  t.like(cast.json.error.details, { reason: 'untyped data', path: 'src/read.ts', line: 3 });
  const jsdoc = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/cli.js:8:27', '--to', 'heading'], { env: ENV });
  t.like(jsdoc.json.error?.details, { reason: 'untyped data', path: 'src/cli.js', line: 7 });
  // Values made in code only: renamed everywhere.
  const typed = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/pack.ts:9:3', '--to', 'width'], { env: ENV });
  t.is(typed.exitCode, 0, typed.stdout);
  t.is(typed.json.references.length, 2);
  await repo.cleanup();
});
