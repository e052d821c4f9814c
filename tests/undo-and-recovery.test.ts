// Undo tokens, crash recovery of an interrupted apply (real SIGKILL), the session lock and `tug clean`.
import test from 'ava';
import { readdir, writeFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { makeRepo, repoState } from './helpers/repo.js';
import { patchset, tug } from './helpers/cli.js';

const SOURCE = { 'a.py': 'def f():\n    return 1\n', 'b.py': 'from a import f\nf()\n', 'c.py': 'import a\na.f()\n' };
const RENAMED = { 'a.py': 'def g():\n    return 1\n', 'b.py': 'from a import g\ng()\n', 'c.py': 'import a\na.g()\n' };
const RENAME = patchset([
  { file: 'a.py', line: 1, col: 5, old_text: 'f', new_text: 'g' },
  { file: 'b.py', line: 1, col: 15, old_text: 'f', new_text: 'g' },
  { file: 'b.py', line: 2, col: 1, old_text: 'f', new_text: 'g' },
  { file: 'c.py', line: 2, col: 3, old_text: 'f', new_text: 'g' },
]);

test('undo after --apply restores every file; a second undo is a no-op', async (t) => {
  const repo = await makeRepo(SOURCE);
  const before = await repoState(repo);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--apply'], { input: RENAME });
  t.is(run.exitCode, 0, run.stdout);
  const undo = await tug(repo.root, ['undo', run.json.undo_token]);
  t.is(undo.exitCode, 0, undo.stdout);
  t.deepEqual(undo.json.files_restored, ['a.py', 'b.py', 'c.py']);
  t.is(undo.json.restored_to, run.json.git.snapshot_commit);
  t.is(await repoState(repo).then((s) => JSON.parse(s).status), JSON.parse(before).status);
  t.is(await repo.readText('b.py'), SOURCE['b.py']);
  const again = await tug(repo.root, ['undo', run.json.undo_token]);
  t.is(again.exitCode, 0);
  t.deepEqual(again.json.files_restored, []);
  t.deepEqual(again.json.already_undone, ['a.py', 'b.py', 'c.py']);
  await repo.cleanup();
});

test('undo refuses when a file changed since, listing it; --force overrides', async (t) => {
  const repo = await makeRepo(SOURCE);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--apply'], { input: RENAME });
  await repo.write('b.py', 'from a import g\ng()\ng()\n');
  const refused = await tug(repo.root, ['undo', run.json.undo_token]);
  t.is(refused.exitCode, 4);
  t.is(refused.json.error.code, 'UndoConflict');
  t.deepEqual(refused.json.error.details.conflicting_files, ['b.py']);
  t.is(await repo.readText('a.py'), 'def g():\n    return 1\n', 'refusal writes nothing');
  const forced = await tug(repo.root, ['undo', run.json.undo_token, '--force']);
  t.is(forced.exitCode, 0, forced.stdout);
  t.deepEqual(forced.json.forced, ['b.py']);
  t.is(await repo.readText('b.py'), SOURCE['b.py']);
  t.is(await repo.readText('a.py'), SOURCE['a.py']);
  await repo.cleanup();
});

test('undo after merging the branch restores the files in the working tree', async (t) => {
  const repo = await makeRepo(SOURCE);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-'], { input: RENAME });
  await repo.git('merge', '-q', '--ff-only', run.json.git.branch);
  t.is(await repo.readText('a.py'), 'def g():\n    return 1\n');
  const undo = await tug(repo.root, ['undo', run.json.undo_token]);
  t.is(undo.exitCode, 0, undo.stdout);
  t.is(await repo.readText('a.py'), SOURCE['a.py']);
  await repo.cleanup();
});

test('unknown and malformed undo tokens are structured errors', async (t) => {
  const repo = await makeRepo(SOURCE);
  const unknown = await tug(repo.root, ['undo', 'undo_0123456789abcdef']);
  t.is(unknown.exitCode, 3);
  t.is(unknown.json.error.code, 'UndoTokenNotFound');
  const malformed = await tug(repo.root, ['undo', '../../HEAD']);
  t.is(malformed.exitCode, 2);
  t.is(malformed.json.error.code, 'InvalidArgument');
  await repo.cleanup();
});

for (const [point, action] of [['apply-after-temp', 'rolled_back'], ['apply-after-rename', 'finished']] as const) {
  test(`SIGKILL during --apply (${point}) leaves each file old or new, and the next call ${action === 'finished' ? 'finishes' : 'rolls back'} it`, async (t) => {
    const repo = await makeRepo(SOURCE);
    const killed = await tug(repo.root, ['apply-patchset', '-f', '-', '--apply'], { input: RENAME, env: { TUG_FAULT_INJECT: point } });
    t.is(killed.exitCode, -1, 'killed by a signal');
    for (const file of ['a.py', 'b.py', 'c.py']) {
      const text = await repo.readText(file);
      const name = file as keyof typeof SOURCE;
      t.true([SOURCE[name], RENAMED[name]].includes(text), `${file} is whole`);
    }
    const next = await tug(repo.root, ['snapshot']);
    t.is(next.exitCode, 0);
    const status = await tug(repo.root, ['session', 'status']);
    t.true(status.json.interrupted_apply, 'a read-only call does not touch the working tree');
    const recovering = await tug(repo.root, ['verify', '--verify', 'syntax']);
    t.is(recovering.exitCode, 0, recovering.stdout);
    const warning = recovering.json.warnings.find((w: any) => w.code === 'InterruptedApplyRecovered');
    t.is(warning?.details.action, action);
    const expected = action === 'finished' ? 'def g():\n    return 1\n' : SOURCE['a.py'];
    t.is(await repo.readText('a.py'), expected);
    t.is(await repo.readText('c.py'), action === 'finished' ? 'import a\na.g()\n' : SOURCE['c.py']);
    t.deepEqual((await readdir(repo.root)).filter((n) => n.includes('.tug-')), [], 'no temp files left');
    await repo.cleanup();
  });
}

test('a held session lock is SessionLocked with --no-wait; a stale lock is taken over', async (t) => {
  const repo = await makeRepo(SOURCE);
  const sessionDir = path.join(repo.root, '.git', 'tug');
  await mkdir(sessionDir, { recursive: true });
  await writeFile(path.join(sessionDir, 'lock'), JSON.stringify({ pid: process.pid, started_at: 'now' }));
  const locked = await tug(repo.root, ['apply-patchset', '-f', '-', '--no-wait'], { input: RENAME });
  t.is(locked.exitCode, 4);
  t.is(locked.json.error.code, 'SessionLocked');
  t.is(locked.json.error.details.lock_holder_pid, process.pid);
  const waited = await tug(repo.root, ['apply-patchset', '-f', '-'], { input: RENAME, env: { TUG_LOCK_TIMEOUT_MS: '600' } });
  t.is(waited.json.error.code, 'SessionLocked');
  await writeFile(path.join(sessionDir, 'lock'), JSON.stringify({ pid: 999999, started_at: 'long ago' }));
  const stale = await tug(repo.root, ['apply-patchset', '-f', '-', '--no-wait'], { input: RENAME });
  t.is(stale.exitCode, 0, stale.stdout);
  await repo.cleanup();
});

test('session status reports the session; clean removes sandboxes and, with --undo, undo points', async (t) => {
  const repo = await makeRepo(SOURCE);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-'], { input: RENAME });
  const status = await tug(repo.root, ['session', 'status']);
  t.is(status.exitCode, 0, status.stdout);
  t.is(status.json.session.path, path.join(repo.root, '.git', 'tug'));
  t.is(status.json.undo_tokens, 1);
  t.is(status.json.sandboxes.length, 1);
  t.is(await repo.git('status', '--porcelain'), '', 'the session dir never shows in git status');
  const clean = await tug(repo.root, ['clean']);
  t.is(clean.json.removed.sandboxes.length, 1);
  t.false((await repo.git('worktree', 'list')).includes('tug-sandboxes'));
  t.is(await repo.git('rev-parse', `refs/tug/undo/${run.json.undo_token}`), run.json.git.commit, 'undo points survive a plain clean');
  const all = await tug(repo.root, ['clean', '--undo']);
  t.is(all.json.removed.undo_points, 1);
  t.is(await repo.git('for-each-ref', 'refs/tug'), '');
  await repo.cleanup();
});

test('clean --undo removes every undo point and snapshot ref at once, however many', async (t) => {
  const repo = await makeRepo(SOURCE);
  const head = (await repo.git('rev-parse', 'HEAD')).trim();
  for (let i = 0; i < 40; i++) await repo.git('update-ref', `refs/tug/undo/undo_${String(i).padStart(2, '0')}`, head);
  await repo.git('update-ref', 'refs/tug/snapshots/s1', head);
  const all = await tug(repo.root, ['clean', '--undo']);
  t.is(all.exitCode, 0, all.stdout);
  t.like(all.json.removed, { undo_points: 40, snapshot_refs: 1 });
  t.is(await repo.git('for-each-ref', 'refs/tug'), '');
  await repo.cleanup();
});

test('--session-dir moves the session; the lock and journal follow it', async (t) => {
  const repo = await makeRepo(SOURCE);
  const custom = path.join(repo.root, '..', `${path.basename(repo.root)}-session`);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--apply', '--session-dir', custom], { input: RENAME });
  t.is(run.exitCode, 0, run.stdout);
  const status = await tug(repo.root, ['session', 'status', '--session-dir', custom]);
  t.is(status.json.session.path, custom);
  await rm(custom, { recursive: true, force: true });
  await repo.cleanup();
});

test('a linked worktree of the user works as a workspace and shares the session', async (t) => {
  const repo = await makeRepo(SOURCE);
  const linked = `${repo.root}-linked`;
  await repo.git('worktree', 'add', '-q', '-b', 'side', linked);
  const run = await tug(linked, ['apply-patchset', '-f', '-', '--apply'], { input: RENAME });
  t.is(run.exitCode, 0, run.stdout);
  t.is(await repo.git('-C', linked, 'status', '--porcelain'), ' M a.py\n M b.py\n M c.py');
  t.is(await repo.git('status', '--porcelain'), '', 'the main worktree is untouched');
  await repo.git('worktree', 'remove', '--force', linked);
  await repo.cleanup();
});
