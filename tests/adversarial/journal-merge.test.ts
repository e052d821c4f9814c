// The review's merge never aborts a merge the user had in progress, and never runs against a git lock it did not take.
import test from 'ava';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { discoverRepo } from '../../lib/git/repo.js';
import { mergeIntoHead } from '../../lib/git/merge.js';
import { makeRepo } from '../helpers/repo.js';

test("a merge the user has in progress (clean tree, MERGE_HEAD set) is refused, not aborted", async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  await repo.git('checkout', '-q', '-b', 'side');
  await repo.write('b.py', 'y = 2\n');
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', 'side');
  await repo.git('checkout', '-q', '-b', 'tug/patch/other', 'main');
  await repo.write('c.py', 'z = 3\n');
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', 'tug result');
  await repo.git('checkout', '-q', 'main');
  await repo.git('merge', '--no-commit', '-s', 'ours', 'side');
  const mergeHead = path.join(repo.root, '.git', 'MERGE_HEAD');
  t.true(existsSync(mergeHead));
  const error = await t.throwsAsync(mergeIntoHead(await discoverRepo(repo.root), 'tug/patch/other', 'merge'));
  t.is((error as any).code, 'DirtyWorkingTree');
  t.is((error as any).details.operation_in_progress, 'merge');
  t.true(existsSync(mergeHead), "the user's merge is still in progress");
  await repo.cleanup();
});

test('an index.lock tug did not take stops the merge and stays', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  await repo.git('branch', 'tug/patch/other');
  const lock = path.join(repo.root, '.git', 'index.lock');
  await writeFile(lock, '');
  const error = await t.throwsAsync(mergeIntoHead(await discoverRepo(repo.root), 'tug/patch/other', 'merge'));
  t.is((error as any).code, 'GitLocked');
  t.is((error as any).details.lock_file, lock);
  t.true(existsSync(lock));
  await repo.cleanup();
});
