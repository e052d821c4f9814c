// `--verify typecheck` on a workspace whose package configs cannot build on their own (rehype's: `references` to
// packages that are not composite, TS6306, on the unchanged tree too) refused every change under those packages. A tsc
// that fails without the change is not the project's check: a wider config the base passes gives the verdict, and
// where there is none, only errors the base lacks count. Changes that break the types are refused as before.
import test from 'ava';
import { patchset, tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { TS_ENV as ENV } from './helpers/typescript.js';

type Check = { name: string; status: string; command?: string[]; reason?: string; errors?: Array<{ file: string; line: number; message: string }> };
const checksOf = (json: { verification?: { checks: Check[] }; error?: { details?: { verification?: { checks: Check[] } } } }) => json.verification?.checks ?? json.error?.details?.verification?.checks ?? [];
const typecheckOf = (json: Parameters<typeof checksOf>[0]) => checksOf(json).filter((c) => c.name === 'typecheck');
const VERIFY = ['--verify', 'typecheck', '--test-command', '["true"]'];

/** rehype's layout: one root config over every package's JavaScript, package configs extending it with references. */
const WORKSPACE = {
  'package.json': '{ "name": "mono", "private": true, "type": "module", "workspaces": ["packages/core", "packages/app"] }\n',
  'tsconfig.json': JSON.stringify({ compilerOptions: { allowJs: true, checkJs: true, strict: true, module: 'node16', target: 'es2022', lib: ['es2022'], declaration: true, emitDeclarationOnly: true }, include: ['**/*.js'], exclude: ['**/node_modules/'] }, null, 2) + '\n',
  'packages/core/package.json': '{ "name": "core", "type": "module", "exports": "./index.js" }\n',
  'packages/core/tsconfig.json': '{ "extends": "../../tsconfig.json" }\n',
  'packages/core/index.js': '/**\n * @param {string} text\n * @returns {number}\n */\nexport function measure(text) {\n  return text.length;\n}\n',
  'packages/app/package.json': '{ "name": "app", "type": "module" }\n',
  'packages/app/tsconfig.json': '{ "extends": "../../tsconfig.json", "references": [{ "path": "../core/" }] }\n',
  'packages/app/app.js': "import { measure } from '../core/index.js';\n\n/** @type {number} */\nexport const size = measure('abc');\n",
};

test('a package config that fails on the unchanged base is not the check: the root config the base passes gives the verdict, and a safe rename is ok', async (t) => {
  const repo = await makeRepo(WORKSPACE);
  const run = await tug(repo.root, ['rename', 'packages/core/index.js:5:17', 'lengthOf', ...VERIFY], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  const [check] = typecheckOf(run.json);
  t.is(check?.status, 'passed');
  t.deepEqual(check?.command?.slice(1, 4), ['--noEmit', '-p', 'tsconfig.json']);
  t.regex(check?.reason ?? '', /packages\/core\/tsconfig\.json|packages\/app\/tsconfig\.json/);
  t.regex(check?.reason ?? '', /fails on the unchanged base too \(TS\d+/);
  t.regex(await repo.git('show', `${run.json.git.commit}:packages/app/app.js`), /import \{ lengthOf \} from/);
  await repo.cleanup();
});

test('a change that breaks the types under such a package is still refused, with the root config\'s errors', async (t) => {
  const repo = await makeRepo(WORKSPACE);
  const broken = patchset([{ file: 'packages/app/app.js', line: 4, col: 29, old_text: "'abc'", new_text: '42' }]);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', ...VERIFY], { input: broken, env: ENV });
  t.is(run.exitCode, 5, run.stdout);
  t.is(run.json.error.code, 'VerificationFailed');
  const [check] = typecheckOf(run.json);
  t.is(check?.status, 'failed');
  t.like(check?.errors?.find((e) => e.file === 'packages/app/app.js'), { line: 4 });
  t.is(await repo.git('branch', '--list', 'tug/*'), '', 'nothing committed');
  await repo.cleanup();
});

test('with no config the base passes, errors the base already has are not the change\'s; an error it adds is', async (t) => {
  const files = {
    'package.json': '{ "name": "solo", "type": "module" }\n',
    'tsconfig.json': '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "node16", "target": "es2022", "lib": ["es2022"] }, "include": ["src"] }\n',
    'src/old.ts': 'export const broken: number = "not a number";\n',
    'src/lib.ts': 'export function measure(text: string): number {\n  return text.length;\n}\n',
    'src/use.ts': "import { measure } from './lib.js';\nexport const size: number = measure('abc');\n",
  };
  const repo = await makeRepo(files);
  const run = await tug(repo.root, ['rename', 'src/lib.ts:1:17', 'lengthOf', ...VERIFY], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  const [check] = typecheckOf(run.json);
  t.is(check?.status, 'passed');
  t.regex(check?.reason ?? '', /the same 1 error\(s\); the change adds none/);
  const broken = patchset([{ file: 'src/use.ts', line: 2, col: 37, old_text: "'abc'", new_text: '42' }]);
  const bad = await tug(repo.root, ['apply-patchset', '-f', '-', ...VERIFY], { input: broken, env: ENV });
  t.is(bad.exitCode, 5, bad.stdout);
  t.regex(typecheckOf(bad.json)[0]?.reason ?? '', /the change adds 1 error\(s\) to it, first TS2345/);
  await repo.cleanup();
});
