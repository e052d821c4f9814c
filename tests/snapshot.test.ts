// `tug snapshot` against real repositories: tree ids, what is included, and that nothing of the user's changes.
import test from 'ava';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { makeRepo, racilyCleanEdit, repoState, tempDir } from './helpers/repo.js';
import { patchset, tug } from './helpers/cli.js';
import { discoverRepo } from '../lib/git/repo.js';
import { listTreePaths } from '../lib/git/snapshot.js';

test('a clean tree snapshots to HEAD^{tree} and is not dirty', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n', 'pkg/b.py': 'y = 2\n' });
  const run = await tug(repo.root, ['snapshot']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.snapshot_id, await repo.git('rev-parse', 'HEAD^{tree}'));
  t.is(await repo.git('cat-file', '-t', run.json.snapshot_id), 'tree');
  t.is(run.json.dirty, false);
  t.is(run.json.head, await repo.git('rev-parse', 'HEAD'));
  t.is(run.json.file_count, 2);
  t.is(run.json.total_bytes, 12);
  t.deepEqual(Object.keys(run.json), ['status', 'schema_version', 'snapshot_id', 'file_count', 'total_bytes', 'head', 'dirty', 'warnings']);
  await repo.cleanup();
});

test('modified and untracked files are in the snapshot, ignored files are not, and nothing of the user changes', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n', '.gitignore': 'build/\n*.log\n' });
  await repo.write('a.py', 'x = 2\n');
  await repo.write('new.py', 'z = 3\n');
  await repo.write('build/out.py', 'ignored\n');
  await repo.write('debug.log', 'ignored\n');
  await repo.git('add', 'new.py');
  await repo.write('other.py', 'untracked\n');
  const before = await repoState(repo);
  const run = await tug(repo.root, ['snapshot']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(await repoState(repo), before);
  t.true(run.json.dirty);
  const listing = await repo.git('ls-tree', '-r', '--name-only', run.json.snapshot_id);
  t.deepEqual(listing.split('\n'), ['.gitignore', 'a.py', 'new.py', 'other.py']);
  t.is(await repo.git('cat-file', '-p', `${run.json.snapshot_id}:a.py`), 'x = 2');
  const again = await tug(repo.root, ['snapshot']);
  t.is(again.stdout, run.stdout, 'same content, same JSON');
  await repo.cleanup();
});

test('a repository without commits can be snapshotted', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' }, { commit: false });
  const run = await tug(repo.root, ['snapshot']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.head, null);
  t.true(run.json.dirty);
  await repo.cleanup();
});

test('a directory outside any git repository is NotAGitRepository (exit 2)', async (t) => {
  const dir = await tempDir('tug-nogit-');
  const run = await tug(dir, ['snapshot'], { env: { GIT_CEILING_DIRECTORIES: path.dirname(dir) } });
  t.is(run.exitCode, 2);
  t.is(run.json.status, 'error');
  t.is(run.json.error.code, 'NotAGitRepository');
  t.is(run.stderr, '');
});

test('--snapshot with a stale id is SnapshotMismatch (exit 4) listing the changed files', async (t) => {
  const repo = await makeRepo({ 'a.py': 'def f():\n    pass\n', 'b.py': 'x = 1\n' });
  const first = await tug(repo.root, ['snapshot']);
  await repo.write('b.py', 'x = 2\n');
  await repo.write('c.py', 'new\n');
  const before = await repoState(repo);
  const edits = patchset([{ file: 'a.py', line: 1, col: 5, old_text: 'f', new_text: 'g' }]);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--snapshot', first.json.snapshot_id, '--apply'], { input: edits });
  t.is(run.exitCode, 4, run.stdout);
  t.is(run.json.error.code, 'SnapshotMismatch');
  t.deepEqual(run.json.error.details.changed_files, ['b.py', 'c.py']);
  t.is(await repoState(repo), before);
  t.is(await repo.readText('a.py'), 'def f():\n    pass\n');
  await repo.cleanup();
});

test('a same-size edit made in the second the index was written is in the snapshot (racily clean entry)', async (t) => {
  const repo = await makeRepo({ 'b.py': 'x = 1\n' });
  t.true(await racilyCleanEdit(repo), 'could not make the edit within one second');
  t.is(await repo.git('--no-optional-locks', 'status', '--porcelain'), ' M b.py', 'git itself sees the edit');
  const before = await repoState(repo);
  const run = await tug(repo.root, ['snapshot']);
  t.is(run.exitCode, 0, run.stdout);
  t.true(run.json.dirty);
  t.is(await repo.git('rev-parse', `${run.json.snapshot_id}:b.py`), await repo.git('hash-object', 'b.py'));
  t.is(await repoState(repo), before);
  await repo.cleanup();
});

test('after a whole listing of a tree, listing some of its paths answers what git answers, without git where it can', async (t) => {
  const repo = await makeRepo({
    'src/pkg/__init__.py': '',
    'src/pkg/mod.py': 'x = 1\n',
    'src/pkg2/a.py': 'y = 2\n',
    'src/pk.py': '',
    'top.py': '',
    'odd name [1].py': '',
    '.hidden/x.py': '',
  });
  const root = await discoverRepo(repo.root);
  const tree = (await repo.git('rev-parse', 'HEAD^{tree}')).trim();
  const gitAnswer = async (paths: string[]) => parseEntries(await repo.git('ls-tree', '-r', '-z', '--full-tree', tree, '--', ...paths));
  await listTreePaths(root, tree);
  const cases = [['src/pkg'], ['src/pkg/'], ['src/pk.py'], ['src/pk'], ['top.py', 'src/pkg2'], ['missing.py'], ['.hidden'], ['odd name [1].py'], ['src/*.py'], ['./top.py'], ['src/../top.py'], ['.']];
  for (const paths of cases) {
    t.deepEqual((await listTreePaths(root, tree, paths)).map((e) => e.path), await gitAnswer(paths), paths.join(' '));
  }
  // Literal paths need no git at all: they answer with the repository out of git's reach.
  await rename(path.join(repo.root, '.git'), path.join(repo.root, '.git-away'));
  t.deepEqual((await listTreePaths(root, tree, ['src/pkg2'])).map((e) => e.path), ['src/pkg2/a.py']);
  await rename(path.join(repo.root, '.git-away'), path.join(repo.root, '.git'));
  await repo.cleanup();
});

function parseEntries(stdout: string): string[] {
  return stdout
    .split('\0')
    .filter(Boolean)
    .map((record) => record.slice(record.indexOf('\t') + 1));
}
