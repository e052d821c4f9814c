// apply-patchset takes each edit's path as written: `./x`, `a//b`, `a/./b` or `a\b` used to be normalised silently, so
// the result named another path than the caller's. Such a path is refused, naming it and the plain form.
import test from 'ava';
import { patchset, tug } from '../helpers/cli.js';
import { makeRepo, repoState } from '../helpers/repo.js';

const FILES = { 'x.py': 'x = 1\n', 'a/b.py': 'y = 2\n' };

for (const [given, plain] of [
  ['./x.py', 'x.py'],
  ['a//b.py', 'a/b.py'],
  ['a/./b.py', 'a/b.py'],
  ['a\\b.py', 'a/b.py'],
  ['a/b.py/.', 'a/b.py'],
] as const) {
  test(`an edit of ${JSON.stringify(given)} is refused as InvalidArgument naming the path; nothing changes`, async (t) => {
    const repo = await makeRepo(FILES);
    const before = await repoState(repo);
    const old = given.includes('x') ? 'x = 1' : 'y = 2';
    const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--apply', '--verify', 'none'], { input: patchset([{ file: given, line: 1, col: 1, old_text: old, new_text: 'z = 3' }]) });
    t.is(run.exitCode, 2, run.stdout);
    t.is(run.json.error.code, 'InvalidArgument');
    t.is(run.json.error.details.path, given);
    t.is(run.json.error.details.argument, 'edits[0].file');
    t.is(run.json.error.details.plain, plain);
    t.true(run.json.error.message.includes(JSON.stringify(given)));
    t.is(await repoState(repo), before);
    await repo.cleanup();
  });
}

test('plain paths are taken as before', async (t) => {
  const repo = await makeRepo(FILES);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--apply', '--verify', 'none'], { input: patchset([{ file: 'a/b.py', line: 1, col: 1, old_text: 'y = 2', new_text: 'z = 3' }]) });
  t.is(run.exitCode, 0, run.stdout);
  t.is(await repo.readText('a/b.py'), 'z = 3\n');
  await repo.cleanup();
});
