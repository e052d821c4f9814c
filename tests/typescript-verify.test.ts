// Verification of TypeScript/JavaScript changes on the fixture packages: every changed script parses, `tsc` per covering config (build mode for project references), the package's test script in the sandbox with the user's node_modules mirrored read-only, and the trust gate of the default.
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { patchset, tug } from './helpers/cli.js';
import { TS_ENV as ENV, tsFixture } from './helpers/typescript.js';

type Check = { name: string; status: string; command?: string[]; reason?: string; errors?: Array<{ file: string; line: number; message: string }> };
const checksOf = (json: { verification?: { checks: Check[] }; error?: { details?: { verification?: { checks: Check[] } } } }) => json.verification?.checks ?? json.error?.details?.verification?.checks ?? [];
const SHAPES_INSTALL = { '': ['typescript', '@types/node'] };

test('--verify tests runs the package test script (tsc + node --test) in the sandbox; the user tree gets no build output', async (t) => {
  const repo = await tsFixture('shapes', SHAPES_INSTALL);
  const run = await tug(repo.root, ['rename', 'src/geometry.ts:8:17', 'span', '--verify', 'tests'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(checksOf(run.json).map((c) => `${c.name}:${c.status}`), ['typescript-syntax:passed', 'tests:passed', 'typecheck:passed']);
  t.false(existsSync(path.join(repo.root, 'build')), 'tsc wrote its output in the sandbox only');
  await repo.cleanup();
});

test('--verify tests also runs tsc where a tsconfig covers the change: tests that run transpile-only do not pass code tsc rejects', async (t) => {
  // The durations package's tests run on sources transpiled file by file (as ts-jest, swc or esbuild do): blind to types.
  const repo = await tsFixture('durations', SHAPES_INSTALL);
  const wrong = patchset([{ file: 'src/index.ts', line: 24, col: 32, old_text: 'string', new_text: 'number' }]);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'tests'], { input: wrong, env: ENV });
  t.is(run.exitCode, 5, run.stdout);
  t.is(run.json.error.code, 'VerificationFailed');
  t.deepEqual(checksOf(run.json).map((c) => `${c.name}:${c.status}`), ['typescript-syntax:passed', 'tests:passed', 'typecheck:failed']);
  const typecheck = checksOf(run.json).find((c) => c.name === 'typecheck')!;
  t.like(typecheck.errors?.[0], { file: 'src/index.ts', line: 18 }); // format() returns fmtShort's number as a string
  t.regex(typecheck.errors![0]!.message, /^TS2322: /);
  t.is(await repo.git('branch', '--list', 'tug/*'), '', 'nothing committed');
  await repo.cleanup();
});

test('--verify tests on a JavaScript package without a tsconfig runs no type check', async (t) => {
  const repo = await tsFixture('plain-js');
  const run = await tug(repo.root, ['rename', 'lib/util.js:3:10', 'toSlug', '--verify', 'tests'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(checksOf(run.json).map((c) => `${c.name}:${c.status}`), ['typescript-syntax:passed', 'tests:passed']);
  await repo.cleanup();
});

test('--verify typecheck runs tsc on the covering config and reports its errors by file and line', async (t) => {
  const repo = await tsFixture('shapes', SHAPES_INSTALL);
  const broken = patchset([{ file: 'src/labels.ts', line: 4, col: 18, old_text: 'point.x', new_text: 'point.label' }]);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'typecheck', '--test-command', '["true"]'], { input: broken, env: ENV });
  t.is(run.exitCode, 5, run.stdout);
  const typecheck = checksOf(run.json).find((c) => c.name === 'typecheck')!;
  t.is(typecheck.status, 'failed');
  t.deepEqual(typecheck.command?.slice(0, 3), ['tsc', '--noEmit', '-p']);
  t.like(typecheck.errors?.[0], { file: 'src/labels.ts', line: 4 });
  t.regex(typecheck.errors![0]!.message, /^TS2339: Property 'label' does not exist/);
  await repo.cleanup();
});

test('a changed script that does not parse fails the default syntax check; project references type-check in build mode', async (t) => {
  const repo = await tsFixture('refs');
  const broken = patchset([{ file: 'packages/util/src/index.ts', line: 2, col: 3, old_text: 'return', new_text: 'return (' }]);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-'], { input: broken, env: ENV });
  t.is(run.exitCode, 5, run.stdout);
  const syntax = checksOf(run.json).find((c) => c.name === 'typescript-syntax')!;
  t.like(syntax, { status: 'failed' });
  t.like(syntax.errors?.[0], { file: 'packages/util/src/index.ts', line: 2 });
  const rename = await tug(repo.root, ['rename', 'packages/util/src/index.ts:1:17', 'limit', '--verify', 'typecheck', '--test-command', '["true"]'], { env: ENV });
  t.is(rename.exitCode, 0, rename.stdout);
  const typecheck = checksOf(rename.json).filter((c) => c.name === 'typecheck');
  t.deepEqual(typecheck.map((c) => c.command?.slice(0, 2)), [['tsc', '-b'], ['tsc', '-b']]);
  t.true(typecheck.every((c) => c.status === 'passed'), JSON.stringify(typecheck));
  await repo.cleanup();
});

test('an untrusted repository\'s default leaves the package tests out and says how to run them', async (t) => {
  const repo = await tsFixture('plain-js');
  const run = await tug(repo.root, ['rename', 'lib/util.js:3:10', 'toSlug'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout);
  const tests = checksOf(run.json).find((c) => c.name === 'tests')!;
  t.is(tests.status, 'skipped');
  t.regex(tests.reason!, /tug trust|--verify tests/);
  await repo.cleanup();
});
