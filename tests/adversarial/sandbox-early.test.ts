// The sandbox's checkout of the base starts while a change is still being planned (lib/ops/change/steps.ts,
// openSandboxEarly). A plan that fails or has nothing to do must still leave the refs as they were (the snapshot's
// commit gets its ref only once the change goes on) and no sandbox behind; a change that goes on must verify the
// snapshot's files with the patch written over them, uncommitted edits included.
import test from 'ava';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sandboxRoot } from '../../lib/git/worktree.js';
import { tug } from '../helpers/cli.js';
import { makeRepo, PYTEST_INI, type TestRepo } from '../helpers/repo.js';

const FILES = {
  ...PYTEST_INI,
  'calc.py': 'import os\n\n\ndef area(w, h):\n    return w * h\n',
  'test_calc.py': 'from calc import area\n\n\ndef test_area():\n    assert area(2, 3) == 6\n',
};
// Every sandbox a call makes is a fresh one, so one left behind shows.
const FRESH = { TUG_SANDBOX_MODE: 'fresh', TUG_NO_DAEMON: '1' };

async function dirtyRepo(): Promise<TestRepo> {
  const repo = await makeRepo(FILES);
  await repo.write('calc.py', `${FILES['calc.py']}# dirty\n`);
  return repo;
}

const refs = (repo: TestRepo) => repo.git('for-each-ref', '--format=%(refname) %(objectname)');
const sandboxes = async (repo: TestRepo) =>
  (await readdir(sandboxRoot(path.join(repo.root, '.git', 'tug'))).catch(() => [] as string[])).filter((name) => name.startsWith('run-')).sort();

test('a plan that fails in a dirty tree leaves the refs as they were and no sandbox, --keep-sandbox too', async (t) => {
  const repo = await dirtyRepo();
  t.teardown(() => repo.cleanup());
  const before = await refs(repo);
  for (const extra of [[], ['--keep-sandbox']]) {
    // Line 2 is blank: there is no symbol to rename, which the analysis finds out.
    const run = await tug(repo.root, ['run', 'rename-symbol', '--at', 'calc.py:2:1', '--to', 'surface', '--verify', 'tests', ...extra, '--json'], { env: FRESH });
    t.is(run.json?.status, 'error', run.stdout);
    t.is(await refs(repo), before, `${extra.join(' ')}: refs unchanged`);
    t.deepEqual(await sandboxes(repo), [], `${extra.join(' ')}: no sandbox left`);
  }
});

test('nothing to do in a dirty tree: ok, unchanged, the refs as they were and no sandbox', async (t) => {
  const repo = await makeRepo({ ...FILES, 'calc.py': 'def area(w, h):\n    return w * h\n' });
  t.teardown(() => repo.cleanup());
  await repo.write('calc.py', 'def area(w, h):\n    return w * h\n# dirty\n');
  const before = await refs(repo);
  const run = await tug(repo.root, ['run', 'organize-imports', '--file', 'calc.py', '--verify', 'tests', '--json'], { env: FRESH });
  t.is(run.json?.status, 'ok', run.stdout);
  t.is(run.json.changed, false);
  t.is(await refs(repo), before);
  t.deepEqual(await sandboxes(repo), []);
});

test('a change that goes on verifies the uncommitted files with the patch over them, and keeps the snapshot under its ref', async (t) => {
  const repo = await dirtyRepo();
  t.teardown(() => repo.cleanup());
  // The suite sees the dirty line and the new name, or fails.
  const suite = JSON.stringify(['python3', '-c', "import calc; calc.surface; assert '# dirty' in open('calc.py').read()"]);
  const run = await tug(repo.root, ['run', 'rename-symbol', '--at', 'calc.py:4:5', '--to', 'surface', '--verify', 'tests', '--test-command', suite, '--json'], { env: FRESH });
  t.is(run.json?.status, 'ok', run.stdout);
  t.is(run.json.verification.status, 'passed');
  const snapshotRef = (await refs(repo)).split('\n').find((line) => line.startsWith('refs/tug/snapshots/'));
  t.is(snapshotRef?.split(' ')[1], run.json.git.snapshot_commit);
  t.is(await repo.git('show', `${run.json.git.commit}:calc.py`), 'import os\n\n\ndef surface(w, h):\n    return w * h\n# dirty');
  t.deepEqual(await sandboxes(repo), []);
});
