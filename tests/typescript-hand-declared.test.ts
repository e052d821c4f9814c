// A JavaScript module with a declaration file written by hand beside it (lib.js and lib.d.ts, as rehype and sade ship):
// importers resolve to the declaration file, so a rename of an export in the .js reached neither it nor them and came
// back ok, edited in lib.js alone (and from an importer, lib.d.ts and the importers without lib.js). Both halves are
// renamed now, with every importer; what cannot be tied one to one, and the other operations on such an export, refuse.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo, repoState } from './helpers/repo.js';
import { TS_ENV as ENV } from './helpers/typescript.js';

const FILES = {
  'package.json': '{ "name": "hand", "type": "module", "version": "1.0.0" }\n',
  'tsconfig.json': '{ "compilerOptions": { "allowJs": true, "module": "NodeNext", "moduleResolution": "NodeNext", "noEmit": true, "strict": true }, "include": ["src"] }\n',
  'src/lib.js': 'function helper(x) {\n  return x;\n}\n\nexport function greet(name) {\n  return `hi ${helper(name)}`;\n}\n\nexport class Box {\n  open() {\n    return 1;\n  }\n}\n',
  'src/lib.d.ts': 'export function greet(name: string): string;\n\nexport class Box {\n  open(): number;\n}\n',
  'src/main.ts': "import { greet } from './lib.js';\nexport const message: string = greet('a');\n",
  // The importer that runs: an ES module whose named import must exist in lib.js when loaded.
  'src/cli.js': "import { greet, Box } from './lib.js';\nconsole.log(greet('b'), new Box().open());\n",
};
/** Types (tsc, the importer against the renamed .d.ts) and the run (node loads cli.js, which imports from lib.js). */
const VERIFY = ['--verify', 'typecheck', '--test-command', '["node","src/cli.js"]'];
type Check = { name: string; status: string };
const checks = (json: { verification?: { checks: Check[] } }) => (json.verification?.checks ?? []).map((c) => `${c.name}:${c.status}`);

for (const [from, at] of [['the .js declaration', 'src/lib.js:5:17'], ['an importer (the .d.ts declaration)', 'src/main.ts:1:10']] as const) {
  test(`renaming an export of a .js with a hand-written .d.ts, asked at ${from}, renames both and every importer; tsc and the run pass`, async (t) => {
    const repo = await makeRepo(FILES);
    const run = await tug(repo.root, ['rename', at, 'welcome', ...VERIFY, '--json'], { env: ENV });
    t.is(run.exitCode, 0, run.stdout);
    t.deepEqual(checks(run.json), ['typescript-syntax:passed', 'tests:passed', 'typecheck:passed']);
    const show = (file: string) => repo.git('show', `${run.json.git.commit}:${file}`);
    t.regex(await show('src/lib.js'), /export function welcome\(name\)/);
    t.regex(await show('src/lib.d.ts'), /^export function welcome\(name: string\): string;/);
    t.regex(await show('src/main.ts'), /^import \{ welcome \} from '\.\/lib\.js';\nexport const message: string = welcome\('a'\);/);
    t.regex(await show('src/cli.js'), /^import \{ welcome, Box \} from '\.\/lib\.js';\nconsole\.log\(welcome\('b'\)/);
    t.deepEqual([...new Set(run.json.patch.edits.map((e: { file: string }) => e.file))].sort(), ['src/cli.js', 'src/lib.d.ts', 'src/lib.js', 'src/main.ts']);
    await repo.cleanup();
  });
}

test('analyze-impact of such a rename lists the declaration file and the importers', async (t) => {
  const repo = await makeRepo(FILES);
  const impact = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/lib.js:5:17', '--to', 'welcome'], { env: ENV });
  t.is(impact.exitCode, 0, impact.stdout);
  const files = impact.json.references.map((r: { location: { file: string; line: number } }) => `${r.location.file}:${r.location.line}`);
  t.deepEqual(files, ['src/cli.js:1', 'src/cli.js:2', 'src/lib.d.ts:1', 'src/lib.js:5', 'src/main.ts:1', 'src/main.ts:2']);
  await repo.cleanup();
});

const refused = async (t: import('ava').ExecutionContext, files: Record<string, string>, argv: string[], why: string) => {
  const repo = await makeRepo(files);
  const before = await repoState(repo);
  const run = await tug(repo.root, [...argv, '--verify', 'syntax', '--json'], { env: ENV });
  t.is(run.exitCode, 4, run.stdout);
  t.is(run.json.error.code, 'UnsafeRefactor');
  t.like(run.json.error.details, { reason: 'hand-written declaration file', why, declaration_file: 'src/lib.d.ts' });
  t.is(await repoState(repo), before);
  await repo.cleanup();
};

test('an export the .d.ts declares twice (overloads) is refused, naming the .d.ts', async (t) => {
  const files = { ...FILES, 'src/lib.d.ts': 'export function greet(name: string): string;\nexport function greet(name: string, loud: boolean): string;\n\nexport class Box {\n  open(): number;\n}\n' };
  await refused(t, files, ['rename', 'src/lib.js:5:17', 'welcome'], 'declared more than once');
});

test('an export the .d.ts has only through a re-export is refused', async (t) => {
  const files = { ...FILES, 'src/types.d.ts': 'export function greet(name: string): string;\n', 'src/lib.d.ts': "export { greet } from './types.js';\n\nexport class Box {\n  open(): number;\n}\n" };
  await refused(t, files, ['rename', 'src/lib.js:5:17', 'welcome'], 'declared differently');
});

test('a method of an exported class the .d.ts declares too is refused (a member is not tied across the two files)', async (t) => {
  await refused(t, FILES, ['rename', 'src/lib.js:10:3', 'unlock'], 'member');
});

test('change-signature and move-symbol of such an export are refused', async (t) => {
  await refused(t, FILES, ['run', 'change-signature', '--at', 'src/lib.js:5:17', '--params', JSON.stringify([{ name: 'name' }, { name: 'loud', default: 'false' }])], 'change-signature');
  await refused(t, FILES, ['move', '--at', 'src/lib.js:5:17', '--destination', 'src/greet.js'], 'move-symbol');
  await refused(t, { ...FILES, 'src/other.js': 'export function shout(s) {\n  return s.toUpperCase();\n}\n' }, ['move', '--at', 'src/other.js:1:17', '--destination', 'src/lib.js'], 'destination');
});

test('a type only the .d.ts declares renames there and in its importers (the .js has nothing to tie)', async (t) => {
  const files = { ...FILES, 'src/lib.d.ts': `${FILES['src/lib.d.ts']}\nexport interface Greeting {\n  text: string;\n}\n`, 'src/kinds.ts': "import type { Greeting } from './lib.js';\nexport const hello: Greeting = { text: 'hi' };\n" };
  const repo = await makeRepo(files);
  const run = await tug(repo.root, ['rename', 'src/kinds.ts:1:15', 'Salutation', ...VERIFY, '--json'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual([...new Set(run.json.patch.edits.map((e: { file: string }) => e.file))].sort(), ['src/kinds.ts', 'src/lib.d.ts']);
  await repo.cleanup();
});

test('a function of the same .js that is not exported still renames', async (t) => {
  const repo = await makeRepo(FILES);
  const run = await tug(repo.root, ['rename', 'src/lib.js:1:10', 'assist', '--verify', 'syntax', '--json'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.regex(await repo.git('show', `${run.json.git.commit}:src/lib.js`), /function assist\(x\)[^]*assist\(name\)/);
  await repo.cleanup();
});

test('renaming the module at an importer moves lib.js and lib.d.ts together; every specifier follows; tsc and the run pass', async (t) => {
  const repo = await makeRepo(FILES);
  const run = await tug(repo.root, ['rename', 'src/main.ts:1:24', 'salute', ...VERIFY, '--json'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(checks(run.json), ['typescript-syntax:passed', 'tests:passed', 'typecheck:passed']);
  const moves = [...run.json.patch.file_moves].sort((a: { from: string }, b: { from: string }) => (a.from < b.from ? -1 : 1));
  t.deepEqual(moves, [{ from: 'src/lib.d.ts', to: 'src/salute.d.ts' }, { from: 'src/lib.js', to: 'src/salute.js' }]);
  const show = (file: string) => repo.git('show', `${run.json.git.commit}:${file}`);
  t.regex(await show('src/main.ts'), /^import \{ greet \} from '\.\/salute\.js';/);
  t.regex(await show('src/cli.js'), /^import \{ greet, Box \} from '\.\/salute\.js';/);
  await repo.cleanup();
});

test('a rename from a .js only an inferred project holds (its .d.ts shadows it in the config) reaching files of the config: ok, no "Could not find source file"', async (t) => {
  // rehype's packages/rehype/index.js: `import rehypeParse from 'rehype-parse'` renamed to `parse` crashed with
  // InternalError: the duplicate check asked the .js's own project about test/api.js, which only the root config holds.
  const repo = await makeRepo({
    'package.json': '{ "name": "mono", "type": "module", "version": "1.0.0" }\n',
    'tsconfig.json': '{ "compilerOptions": { "allowJs": true, "checkJs": true, "module": "node16", "strict": true, "noEmit": true }, "include": ["**/*.js", "app/index.d.ts", "plugin/index.d.ts"] }\n',
    'plugin/index.js': 'export default function plugin(text) {\n  return text;\n}\n',
    'plugin/index.d.ts': 'declare const plugin: (text: string) => string;\nexport default plugin;\n',
    'app/index.js': "import plugin from '../plugin/index.js';\nexport const out = plugin('a');\n",
    'app/index.d.ts': 'export const out: string;\n',
    'test/use.js': "import plugin from '../plugin/index.js';\nconsole.log(plugin('parse'));\n",
  });
  const run = await tug(repo.root, ['rename', 'app/index.js:1:8', 'parse', '--verify', 'syntax', '--json'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.regex(await repo.git('show', `${run.json.git.commit}:app/index.js`), /^import parse from '\.\.\/plugin\/index\.js';\nexport const out = parse\('a'\);/);
  await repo.cleanup();
});

test('renaming a directory module whose index.js has a hand-written index.d.ts moves the directory, not the index file', async (t) => {
  const repo = await makeRepo({
    'package.json': '{ "name": "dir", "version": "1.0.0" }\n',
    'tsconfig.json': '{ "compilerOptions": { "allowJs": true, "module": "commonjs", "moduleResolution": "node10", "noEmit": true, "strict": true }, "include": ["src"] }\n',
    'src/plugin/index.js': 'exports.greet = function greet(name) {\n  return name;\n};\n',
    'src/plugin/index.d.ts': 'export function greet(name: string): string;\n',
    'src/main.ts': "import { greet } from './plugin';\nexport const m: string = greet('a');\n",
  });
  const run = await tug(repo.root, ['rename', 'src/main.ts:1:24', 'extension', '--verify', 'typecheck', '--test-command', '["true"]', '--json'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  const moves = [...run.json.patch.file_moves].sort((a: { from: string }, b: { from: string }) => (a.from < b.from ? -1 : 1));
  t.deepEqual(moves, [{ from: 'src/plugin/index.d.ts', to: 'src/extension/index.d.ts' }, { from: 'src/plugin/index.js', to: 'src/extension/index.js' }]);
  t.regex(await repo.git('show', `${run.json.git.commit}:src/main.ts`), /^import \{ greet \} from '\.\/extension';/);
  await repo.cleanup();
});
