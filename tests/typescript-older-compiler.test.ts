// A project whose own `typescript` is older than the API tug calls (supermacro/neverthrow pins 4.7, which has no
// getModifiers nor isSatisfiesExpression: move-symbol and change-signature crashed there). The project's compiler is
// tug's own with those functions taken out, standing in for an old one (the registry is not needed).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import test from 'ava';
import { tug } from './helpers/cli.js';
import { PROJECT_ROOT } from './helpers/golden.js';
import { standInCompiler, TS_ENV as ENV, tsFixture } from './helpers/typescript.js';

const NEWER = ['getModifiers', 'getDecorators', 'canHaveDecorators', 'isSatisfiesExpression', 'isClassStaticBlockDeclaration', 'isJSDocLink'];

async function withOldCompiler(name: string) {
  const repo = await tsFixture(name);
  const dir = path.join(repo.root, 'node_modules', 'typescript');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'typescript', version: '4.7.2', main: 'index.js' }));
  const real = path.join(PROJECT_ROOT, 'node_modules', 'typescript');
  await writeFile(path.join(dir, 'index.js'), `const ts = { ...require(${JSON.stringify(real)}) };\nfor (const name of ${JSON.stringify(NEWER)}) delete ts[name];\nmodule.exports = ts;\n`);
  return repo;
}

test('move-symbol and change-signature run on a project whose own compiler predates getModifiers and satisfies', async (t) => {
  const repo = await withOldCompiler('shapes');
  const moved = await tug(repo.root, ['run', 'move-symbol', '--at', 'src/labels.ts:3:17', '--destination', 'src/describe.ts', '--verify', 'none'], { env: ENV });
  t.is(moved.exitCode, 0, moved.stdout);
  t.regex(await repo.git('show', `${moved.json.git.commit}:src/describe.ts`), /export function describe\(point: Point\)/);
  const doctor = await tug(repo.root, ['doctor'], { env: ENV });
  t.regex(JSON.stringify(doctor.json), /typescript 4\.7\.2 of the project/);
  const params = JSON.stringify([{ name: 'b' }, { name: 'a' }]);
  const swapped = await tug(repo.root, ['run', 'change-signature', '--at', 'src/geometry.ts:8:17', '--params', params, '--verify', 'none'], { env: ENV });
  t.is(swapped.exitCode, 0, swapped.stdout);
  t.regex(await repo.git('show', `${swapped.json.git.commit}:src/geometry.ts`), /export function distance\(b: Point, a: Point\)[^]*distance\(point, this\.center\)/);
  await repo.cleanup();
});

test('move-symbol with a compiler that has no "Move to file" (before 5.2) is refused with the version, not a vague reason', async (t) => {
  const repo = await tsFixture('shapes');
  // TypeScript 4.7 answers "Move to file" with nothing (it has only "Move to a new file"): the stand-in's service does so.
  await standInCompiler(repo.root, {
    getEditsForRefactor: "(file, format, range, refactor, action, ...rest) => (refactor === 'Move to file' ? undefined : service.getEditsForRefactor(file, format, range, refactor, action, ...rest))",
  });
  const moved = await tug(repo.root, ['run', 'move-symbol', '--at', 'src/labels.ts:3:17', '--destination', 'src/describe.ts', '--verify', 'none'], { env: ENV });
  t.is(moved.json.status, 'error', moved.stdout);
  t.is(moved.json.error.code, 'UnsupportedByAdapter');
  t.regex(moved.json.error.message, /TypeScript 4\.7\.2 that analyses src\/labels\.ts has no "Move to file" refactor \(TypeScript 5\.2 and later have it\)/);
  t.like(moved.json.error.details, { typescript: '4.7.2', reason: 'not offered by the language service' });
  await repo.cleanup();
});

test('a compiler assertion inside a refactor ("Debug Failure", TypeScript 4.7 on a generator\'s return) is a refusal naming it, not a bug in tug', async (t) => {
  const repo = await tsFixture('shapes');
  await standInCompiler(repo.root, { getEditsForRefactor: "() => { throw new Error('Debug Failure. False expression.'); }" });
  const run = await tug(repo.root, ['run', 'extract-function', '--range', 'src/labels.ts:4:3-5:44', '--name', 'measure', '--verify', 'none'], { env: ENV });
  t.is(run.json.error?.code, 'UnsupportedByAdapter', run.stdout);
  t.not(run.exitCode, 10);
  t.regex(run.json.error.message, /the TypeScript 4\.7\.2 language service failed on src\/labels\.ts:4:3-5:44: Debug Failure\. False expression\./);
  t.is(run.json.error.details.reason, 'language service failure');
  await repo.cleanup();
});
