// Every commit tug makes records its operation under refs/notes/tug, and `tug show BRANCH` reads it back with the branch's staleness.
import test from 'ava';
import { makeRepo } from './helpers/repo.js';
import { tug, patchset } from './helpers/cli.js';
import { summarizeBranchShow } from '../lib/cli/summary-replay.js';

const ENV = { TUG_NO_DAEMON: '1' };
const FILES = {
  'pkg/__init__.py': '',
  'pkg/core.py': 'def process_data(items):\n    return [i * 2 for i in items]\n',
  'app.py': 'from pkg.core import process_data\n\nprint(process_data([1, 2]))\n',
};

test('a rename commit carries a record naming the symbol by identity, and show prints it', async (t) => {
  const repo = await makeRepo(FILES);
  t.teardown(() => repo.cleanup());
  const run = await tug(repo.root, ['rename', 'app.py:3:7', 'transform_data', '--verify', 'syntax', '--json'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  const { commit, branch, snapshot_commit } = run.json.git;
  const note = JSON.parse(await repo.git('notes', '--ref=tug', 'show', commit));
  t.is(note.format, 'tug-record/1');
  t.is(note.operation, 'rename-symbol');
  t.is(note.replay, 'operation');
  t.deepEqual(note.input, { column: 7, file: 'app.py', line: 3, new_name: 'transform_data' });
  // The symbol is the definition, found from a call site: its id, name and place, not only the position asked for.
  t.like(note.symbol, { name: 'process_data', kind: 'function', file: 'pkg/core.py', line: 1, col: 5 });
  t.regex(note.symbol.id, /^sym_[0-9a-f]{12}$/);
  t.is(note.snapshot, run.json.snapshot_id);
  t.is(note.base, snapshot_commit);
  t.is(note.verification.mode, 'syntax');
  t.is(note.verification.status, 'passed');
  t.true(note.verification.checks.length > 0);
  t.truthy(note.tools.tug);
  // The message keeps its trailers; the record does not go into it.
  t.notRegex(await repo.git('log', '-1', '--format=%B', commit), /tug-record/);

  const shown = await tug(repo.root, ['show', branch, '--json'], { env: ENV });
  t.is(shown.exitCode, 0, shown.stdout + shown.stderr);
  t.is(shown.json.branch.name, branch);
  t.is(shown.json.branch.steps.length, 1);
  t.deepEqual(shown.json.branch.steps[0].record, note);
  t.like(shown.json.branch.status, { stale: false, base_moved: false, behind: 0 });
  t.deepEqual((await tug(repo.root, ['session', 'status', '--json'], { env: ENV })).json.stale_branches, []);
  const human = summarizeBranchShow(shown.json.branch);
  t.regex(human, /rename-symbol on process_data \(pkg\/core\.py:1:5\)/);
  t.regex(human, /up to date with HEAD/);

  // The base moves: show says the branch is stale and by how much.
  await repo.write('README.md', 'docs\n');
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', 'docs');
  const later = await tug(repo.root, ['show', branch, '--json'], { env: ENV });
  t.like(later.json.branch.status, { stale: true, base_moved: true, behind: 1 });
  const status = await tug(repo.root, ['session', 'status', '--json'], { env: ENV });
  t.deepEqual(status.json.stale_branches, [branch]);
});

test('a patchset commit records that it replays as text', async (t) => {
  const repo = await makeRepo(FILES);
  t.teardown(() => repo.cleanup());
  const edits = [{ file: 'app.py', line: 3, col: 1, old_text: 'print(process_data([1, 2]))', new_text: 'print(process_data([3]))' }];
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'syntax', '--json'], { env: ENV, input: patchset(edits) });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  const note = JSON.parse(await repo.git('notes', '--ref=tug', 'show', run.json.git.commit));
  t.is(note.operation, 'apply-patchset');
  t.is(note.replay, 'text');
  t.is(note.symbol, null);
  const shown = await tug(repo.root, ['show', run.json.git.branch, '--json'], { env: ENV });
  t.is(shown.json.branch.steps[0].operation, 'apply-patchset');
});

test('show of a branch tug did not make is InvalidArgument', async (t) => {
  const repo = await makeRepo(FILES);
  t.teardown(() => repo.cleanup());
  await repo.git('branch', 'feature/x');
  const shown = await tug(repo.root, ['show', 'feature/x', '--json'], { env: ENV });
  t.is(shown.exitCode, 2);
  t.is(shown.json.error.code, 'InvalidArgument');
});

test('session status calls stale exactly the tug/ branches HEAD has moved away from: not those ahead of HEAD, at it, or merged into it', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  t.teardown(() => repo.cleanup());
  const commit = async (file: string, text: string) => {
    await repo.write(file, text);
    await repo.git('add', file);
    await repo.git('commit', '-q', '-m', file);
    return (await repo.git('rev-parse', 'HEAD')).trim();
  };
  const first = (await repo.git('rev-parse', 'HEAD')).trim();
  await repo.git('branch', 'tug/merged', first);
  const second = await commit('b.py', 'y = 2\n');
  await repo.git('checkout', '-q', '-b', 'side', first);
  await commit('c.py', 'z = 3\n');
  await repo.git('branch', 'tug/diverged', 'HEAD');
  await repo.git('checkout', '-q', 'main');
  await repo.git('branch', 'tug/at-head', second);
  await commit('d.py', 'w = 4\n');
  await repo.git('branch', 'tug/ahead', 'HEAD');
  await repo.git('reset', '-q', '--hard', second);
  await repo.git('branch', 'tug/also/diverged', first);
  await repo.git('checkout', '-q', '-b', 'other', first);
  await commit('e.py', 'v = 5\n');
  await repo.git('branch', '-f', 'tug/also/diverged', 'HEAD');
  await repo.git('checkout', '-q', 'main');
  const status = await tug(repo.root, ['session', 'status', '--json'], { env: ENV });
  t.is(status.exitCode, 0, status.stdout + status.stderr);
  t.deepEqual(status.json.stale_branches, ['tug/also/diverged', 'tug/diverged']);
});
