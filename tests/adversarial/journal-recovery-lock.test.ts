// A RecoveryConflict leaves the user's files and tug's journal, never tug's index.lock: with the lock kept, the user's
// own `git commit` (the way out the error suggests) failed without saying why.
import test from 'ava';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tug } from '../helpers/cli.js';
import { RENAME, SOURCE } from '../helpers/fault.js';
import { makeRepo } from '../helpers/repo.js';


test('--commit killed after the flip, the user edits: RecoveryConflict releases index.lock and git commit works', async (t) => {
  const repo = await makeRepo(SOURCE);
  const killed = await tug(repo.root, ['apply-patchset', '-f', '-', '--commit', '--verify', 'none'], { input: RENAME, env: { TUG_FAULT_INJECT: 'apply-after-commit-flip' } });
  t.is(killed.exitCode, -1, killed.stdout);
  const lock = path.join(repo.root, '.git', 'index.lock');
  t.true(existsSync(lock), 'the killed tug held the index lock');
  await repo.write('b.py', 'from a import f\nf()\nprint("mine")\n');
  const next = await tug(repo.root, ['verify', '--verify', 'none']);
  t.is(next.exitCode, 4, next.stdout);
  t.is(next.json.error.code, 'RecoveryConflict');
  t.false(existsSync(lock), "tug's own index.lock is gone");
  t.true(existsSync(next.json.error.details.journal), 'the journal is kept for a later finish');
  await repo.git('add', 'b.py');
  await repo.git('commit', '-q', '-m', 'mine');
  t.is(await repo.git('show', 'HEAD:b.py'), 'from a import f\nf()\nprint("mine")');
  // The journal stays: the next call still reports the conflict (a.py holds tug's content, b.py the user's).
  const again = await tug(repo.root, ['verify', '--verify', 'none']);
  t.is(again.json?.error?.code, 'RecoveryConflict', again.stdout);
  t.false(existsSync(lock));
  await repo.cleanup();
});

test('a lock that is not tug\'s (the user\'s git holds it) is left alone by a RecoveryConflict', async (t) => {
  const repo = await makeRepo(SOURCE);
  const killed = await tug(repo.root, ['apply-patchset', '-f', '-', '--commit', '--verify', 'none'], { input: RENAME, env: { TUG_FAULT_INJECT: 'apply-after-commit-flip' } });
  t.is(killed.exitCode, -1, killed.stdout);
  const lock = path.join(repo.root, '.git', 'index.lock');
  // The user removed tug's lock and their own git took one meanwhile.
  await rm(lock);
  await writeFile(lock, 'someone else\n');
  await repo.write('b.py', 'print("mine")\n');
  const next = await tug(repo.root, ['verify', '--verify', 'none']);
  t.is(next.json?.error?.code, 'RecoveryConflict', next.stdout);
  t.true(existsSync(lock), 'a lock tug did not create stays');
  await rm(lock);
  await repo.cleanup();
});
