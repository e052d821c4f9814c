// Node verification tests the sandbox's code: in an npm workspace, node_modules links the packages back into the user's checkout, so a naive mirror would run the app's tests against the unpatched package. A patch that breaks the package must fail; a link tug cannot re-point is refused.
import test from 'ava';
import { rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { patchset, tug } from '../helpers/cli.js';
import { TS_ENV as ENV, tsFixture } from '../helpers/typescript.js';

const LINKED = { '': ['@mono/core=packages/core', '@mono/app=packages/app'] };
const BREAK_CORE = patchset([{ file: 'packages/core/src/index.js', line: 3, col: 3, old_text: 'return Math.round(cents * (1 + rate));', new_text: 'return 0;' }]);

test('a patch that breaks a workspace package fails the other package\'s tests, which import it through node_modules', async (t) => {
  const repo = await tsFixture('monorepo', LINKED);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'tests'], { input: BREAK_CORE, env: ENV });
  t.is(run.exitCode, 5, run.stdout);
  t.is(run.json.error.code, 'VerificationFailed');
  const tests = run.json.error.details.verification.checks.find((c: { name: string }) => c.name === 'tests');
  t.is(tests.status, 'failed');
  // core's own test imports ../src directly and fails either way; the app's test fails only if @mono/core is the sandbox's.
  t.regex(tests.output, /not ok \d+ - total/, tests.output);
  t.is(await repo.git('branch', '--list', 'tug/*'), '');
  t.is(await repo.readText('packages/core/src/index.js').then((s) => s.includes('Math.round')), true, "the user's package is untouched");
  await repo.cleanup();
});

test('a committed node_modules link naming the user\'s checkout by absolute path is refused before any test runs', async (t) => {
  const repo = await tsFixture('monorepo');
  await repo.write('.gitignore', '');
  const link = path.join(repo.root, 'node_modules', '@mono', 'core');
  await repo.write('node_modules/@mono/.keep', '');
  await rm(path.join(repo.root, 'node_modules', '@mono', '.keep'));
  await symlink(path.join(repo.root, 'packages', 'core'), link);
  await repo.git('add', '-A', '-f');
  await repo.git('commit', '-qm', 'vendored link');
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'tests'], { input: BREAK_CORE, env: ENV });
  t.is(run.exitCode, 5, run.stdout);
  t.is(run.json.error.code, 'VerificationNotIsolated');
  t.is(run.json.error.details.package, '@mono/core');
  await repo.cleanup();
});
