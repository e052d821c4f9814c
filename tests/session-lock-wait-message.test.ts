// "waiting for the session lock" is said only when another call really holds it: every terminal command showed it,
// because the check raced the free lock's turn against an already settled promise and always lost.
import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { acquireLock } from '../lib/session/lock.js';

test('a free lock is taken without a wait message; a held one says it waits, once', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-lock-msg-'));
  const said: string[] = [];
  const first = await acquireLock(dir, { waitMs: 5000, onWait: (m) => said.push(`first: ${m}`) });
  t.deepEqual(said, []);
  const second = acquireLock(dir, { waitMs: 5000, onWait: (m) => said.push(`second: ${m}`) });
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.deepEqual(said, ['second: waiting for the session lock (another call in this process holds it; up to 5s)']);
  await first.release();
  await (await second).release();
  const third = await acquireLock(dir, { waitMs: 5000, onWait: (m) => said.push(`third: ${m}`) });
  await third.release();
  t.is(said.length, 1);
  await rm(dir, { recursive: true, force: true });
});
