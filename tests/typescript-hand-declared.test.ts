// A JavaScript module with a declaration file written by hand beside it (lib.js and lib.d.ts, as rehype and sade ship):
// importers resolve to the declaration file, so a rename of an export in the .js reached neither it nor them and came
// back ok, edited in lib.js alone. It is refused now, naming the declaration file; what is not exported still renames.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo, repoState } from './helpers/repo.js';
import { TS_ENV as ENV } from './helpers/typescript.js';

const FILES = {
  'package.json': '{ "name": "hand", "type": "module", "version": "1.0.0" }\n',
  'tsconfig.json': '{ "compilerOptions": { "allowJs": true, "module": "NodeNext", "moduleResolution": "NodeNext", "noEmit": true, "strict": true }, "include": ["src"] }\n',
  'src/lib.js': 'function helper(x) {\n  return x;\n}\n\nexport function greet(name) {\n  return `hi ${helper(name)}`;\n}\n',
  'src/lib.d.ts': 'export function greet(name: string): string;\n',
  'src/main.ts': "import { greet } from './lib.js';\nconsole.log(greet('a'));\n",
};

test('renaming an export of a .js whose types a hand-written .d.ts declares is refused, naming the .d.ts', async (t) => {
  const repo = await makeRepo(FILES);
  const before = await repoState(repo);
  const run = await tug(repo.root, ['rename', 'src/lib.js:5:17', 'welcome', '--verify', 'syntax', '--json'], { env: ENV });
  t.is(run.exitCode, 4, run.stdout);
  t.is(run.json.error.code, 'UnsafeRefactor');
  t.is(run.json.error.details.reason, 'hand-written declaration file');
  t.is(run.json.error.details.declaration_file, 'src/lib.d.ts');
  t.is(await repoState(repo), before);
  await repo.cleanup();
});

test('a function of the same .js that is not exported still renames', async (t) => {
  const repo = await makeRepo(FILES);
  const run = await tug(repo.root, ['rename', 'src/lib.js:1:10', 'assist', '--verify', 'syntax', '--json'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.regex(await repo.git('show', `${run.json.git.commit}:src/lib.js`), /function assist\(x\)[^]*assist\(name\)/);
  await repo.cleanup();
});
