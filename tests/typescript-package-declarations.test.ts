// A package whose published types are a hand-written declaration file that package.json names (sade's index.d.ts,
// apart from src/): a rename of an export or a member in the code cannot reach it through the language service, and the
// package's tests cannot see it go stale. Its mentions of the name are listed as unsure (`declaration_file`), renamed
// with --include-unsure, so the rename is never silently partial; a local name is not looked for there.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { TS_ENV as ENV } from './helpers/typescript.js';

const FILES = {
  'package.json': '{ "name": "mini", "type": "module", "main": "lib/index.js", "types": "index.d.ts", "exports": { ".": { "types": "./index.d.ts", "import": "./lib/index.js" } } }\n',
  'src/index.js': 'class Mini {\n  example(s) {\n    return s;\n  }\n}\n\nexport default function mini() {\n  return new Mini();\n}\n\nexport function helper(s) {\n  return s;\n}\n',
  'index.d.ts': 'declare class Mini {\n  example(s: string): string;\n}\ndeclare function mini(): Mini;\nexport default mini;\nexport function helper(s: number): number;\n',
  'test/use.js': "import mini, { helper } from '../src/index.js';\nconsole.log(mini().example('a'), helper(1));\n",
};
const VERIFY = ['--verify', 'tests', '--test-command', '["node","test/use.js"]'];
type Unsure = { file: string; line: number; reason: string; renamed: boolean };
const fromDeclarations = (json: { unsure?: Unsure[] }) => (json.unsure ?? []).filter((u) => u.reason === 'declaration_file').map((u) => `${u.file}:${u.line}:${u.renamed}`);

test('a member the package.json-named index.d.ts declares: listed as unsure there, the .d.ts left; --include-unsure renames it', async (t) => {
  const repo = await makeRepo(FILES);
  const run = await tug(repo.root, ['rename', 'src/index.js:2:3', 'addExample', ...VERIFY, '--json'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(fromDeclarations(run.json), ['index.d.ts:2:false']);
  t.is(await repo.git('show', `${run.json.git.commit}:index.d.ts`), FILES['index.d.ts'].trimEnd());
  t.regex(await repo.git('show', `${run.json.git.commit}:test/use.js`), /mini\(\)\.addExample\('a'\)/);
  const all = await tug(repo.root, ['rename', 'src/index.js:2:3', 'addExample', ...VERIFY, '--include-unsure', '--json'], { env: ENV });
  t.is(all.exitCode, 0, all.stdout);
  t.deepEqual(fromDeclarations(all.json), ['index.d.ts:2:true']);
  t.regex(await repo.git('show', `${all.json.git.commit}:index.d.ts`), /^declare class Mini \{\n {2}addExample\(s: string\): string;/);
  await repo.cleanup();
});

test('an exported function is listed there too; a parameter of the same name as one in the .d.ts is not', async (t) => {
  const repo = await makeRepo(FILES);
  const impact = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/index.js:11:17', '--to', 'assist'], { env: ENV });
  t.is(impact.exitCode, 0, impact.stdout);
  t.deepEqual(fromDeclarations(impact.json), ['index.d.ts:6:false']);
  const local = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'src/index.js:11:24', '--to', 'value'], { env: ENV });
  t.is(local.exitCode, 0, local.stdout);
  t.deepEqual(fromDeclarations(local.json), []);
  await repo.cleanup();
});

test('change-signature of an exported function lists the published declaration, which keeps the old parameters', async (t) => {
  const repo = await makeRepo(FILES);
  const run = await tug(repo.root, ['run', 'change-signature', '--at', 'src/index.js:11:17', '--params', JSON.stringify([{ name: 's' }, { name: 'loud', default: 'false' }]), ...VERIFY, '--json'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(fromDeclarations(run.json), ['index.d.ts:6:false']);
  t.is(await repo.git('show', `${run.json.git.commit}:index.d.ts`), FILES['index.d.ts'].trimEnd());
  await repo.cleanup();
});

test('moving an export out of its module lists the published declaration; with the old module re-exporting it, nothing is listed', async (t) => {
  const repo = await makeRepo(FILES);
  const moved = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'src/index.js:11:17', '--destination', 'src/helpers.js'], { env: ENV });
  t.is(moved.exitCode, 0, moved.stdout);
  t.deepEqual(fromDeclarations(moved.json), ['index.d.ts:6:false']);
  const kept = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'src/index.js:11:17', '--destination', 'src/helpers.js', '--keep-reexport'], { env: ENV });
  t.is(kept.exitCode, 0, kept.stdout);
  t.deepEqual(fromDeclarations(kept.json), []);
  await repo.cleanup();
});
