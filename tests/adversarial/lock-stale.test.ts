// Locks left by a killed tug are known by owner pid + process start time and cleared with a warning; a live owner keeps
// its lock; a git lock tug did not create is never deleted, and the error names it.
import test from 'ava';
import { execa } from '../helpers/execa.js';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tug } from '../helpers/cli.js';
import { COMMIT, RENAME, SOURCE } from '../helpers/fault.js';
import { makeRepo } from '../helpers/repo.js';
import { processStart } from '../../lib/session/owner.js';



const codes = (run: { json: any }) => (run.json.warnings ?? []).map((w: any) => w.code);

test('the session lock of a tug killed by SIGKILL is cleared with a warning', async (t) => {
  const repo = await makeRepo(SOURCE);
  const killed = await tug(repo.root, ['apply-patchset', '-f', '-', '--apply', '--verify', 'none'], { input: RENAME, env: { TUG_FAULT_INJECT: 'apply-after-temp' } });
  t.is(killed.exitCode, -1);
  const lockFile = path.join(repo.root, '.git', 'tug', 'lock');
  t.true(existsSync(lockFile), 'SIGKILL leaves the lock behind');
  const owner = JSON.parse(readFileSync(lockFile, 'utf8'));
  const next = await tug(repo.root, ['verify', '--verify', 'none', '--no-wait']);
  t.is(next.exitCode, 0, next.stdout);
  const warning = next.json.warnings.find((w: any) => w.code === 'StaleLockCleared' && w.details.lock_file === lockFile);
  t.is(warning?.details.pid, owner.pid);
  await repo.cleanup();
});

test('a lock naming a live pid with another start time (a reused pid) is stale; the real owner keeps it', async (t) => {
  const repo = await makeRepo(SOURCE);
  const sleeper = execa('sleep', ['600'], { reject: false });
  try {
    const sessionDir = path.join(repo.root, '.git', 'tug');
    await mkdir(sessionDir, { recursive: true });
    const lockFile = path.join(sessionDir, 'lock');
    await writeFile(lockFile, JSON.stringify({ pid: sleeper.pid, started_at: 'then', start: '1' }));
    const reused = await tug(repo.root, ['verify', '--verify', 'none', '--no-wait']);
    t.is(reused.exitCode, 0, reused.stdout);
    t.true(codes(reused).includes('StaleLockCleared'));
    await writeFile(lockFile, JSON.stringify({ pid: sleeper.pid, started_at: 'now', start: processStart(sleeper.pid!) }));
    const held = await tug(repo.root, ['verify', '--verify', 'none', '--no-wait']);
    t.is(held.exitCode, 4, held.stdout);
    t.is(held.json.error.code, 'SessionLocked');
    t.true(existsSync(lockFile), 'a live owner keeps its lock');
  } finally {
    sleeper.kill();
    await sleeper;
    await repo.cleanup();
  }
});

for (const point of ['apply-index-lock-unjournaled', 'apply-after-index-lock', 'apply-after-ref']) {
  test(`index.lock created by a tug killed at ${point} is cleared with a warning`, async (t) => {
    const repo = await makeRepo(SOURCE);
    const killed = await tug(repo.root, COMMIT, { input: RENAME, env: { TUG_FAULT_INJECT: point } });
    t.is(killed.exitCode, -1);
    const indexLock = path.join(repo.root, '.git', 'index.lock');
    t.true(existsSync(indexLock));
    const next = await tug(repo.root, ['verify', '--verify', 'none']);
    t.is(next.exitCode, 0, next.stdout);
    t.true(next.json.warnings.some((w: any) => w.code === 'StaleLockCleared' && w.details.lock_file === indexLock), JSON.stringify(next.json.warnings));
    t.false(existsSync(indexLock));
    t.is(await repo.git('status', '--porcelain'), '', 'branch, index and files agree');
    await repo.cleanup();
  });
}

test('an index.lock someone else created in place of tug\'s is never deleted; the error names it; removing it lets tug finish', async (t) => {
  const repo = await makeRepo(SOURCE);
  const killed = await tug(repo.root, COMMIT, { input: RENAME, env: { TUG_FAULT_INJECT: 'apply-after-ref' } });
  t.is(killed.exitCode, -1);
  const indexLock = path.join(repo.root, '.git', 'index.lock');
  await execa('rm', [indexLock]);
  await writeFile(indexLock, 'another git process\n');
  const blocked = await tug(repo.root, ['verify', '--verify', 'none']);
  t.is(blocked.exitCode, 4, blocked.stdout);
  t.is(blocked.json.error.code, 'GitLocked');
  t.is(blocked.json.error.details.lock_file, indexLock);
  t.regex(blocked.json.error.hint, /fuser/);
  t.is(readFileSync(indexLock, 'utf8'), 'another git process\n', 'the foreign lock is untouched');
  await execa('rm', [indexLock]);
  const next = await tug(repo.root, ['verify', '--verify', 'none']);
  t.is(next.exitCode, 0, next.stdout);
  t.is(await repo.git('status', '--porcelain'), '');
  t.is(await repo.readText('a.py'), 'def g():\n    return 1\n');
  await repo.cleanup();
});
