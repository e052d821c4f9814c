// Appending to the operation log reads only its end: the chain of ids stays right (big entries, a torn last line), and
// an append does not depend on, or re-validate, everything a long-lived session logged before.
import test from 'ava';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sha256 } from '../lib/core/hash.js';
import { appendLog, LOG_FILE, readLog, type NewLogEntry } from '../lib/ops/change/op-log.js';
import type { Session } from '../lib/session/session.js';

const entry = (files: string[]): NewLogEntry => ({
  operation: 'rename_symbol', tool: 'tug', arguments: { new_name: 'g' }, snapshot_id: null, branch: null, commit: null, parent: null,
  verification: null, applied: false, files, undo_token: null,
});

async function sessionDir(): Promise<Session> {
  return { dir: await mkdtemp(path.join(os.tmpdir(), 'tug-oplog-')) } as Session;
}

/** Each id is the hash of the previous id and the entry without id and time, as appendLog makes it. */
function chainHolds(entries: Awaited<ReturnType<typeof readLog>>): boolean {
  return entries.every((e, i) => {
    const { id, time, ...rest } = e;
    void time;
    return id === sha256(`${entries[i - 1]?.id ?? ''}\n${JSON.stringify(rest)}`).slice(0, 12);
  });
}

test('the chain of ids holds across small entries, entries larger than one read from the end, and a torn last line', async (t) => {
  const session = await sessionDir();
  try {
    await appendLog(session, entry(['a.ts']));
    await appendLog(session, entry(Array.from({ length: 3000 }, (_, i) => `src/very/long/directory/name/module-${i}.ts`)));
    await appendLog(session, entry(['b.ts']));
    await appendLog(session, entry(Array.from({ length: 6000 }, (_, i) => `src/m${i}.ts`)));
    await appendLog(session, entry(Array.from({ length: 9000 }, (_, i) => `src/n${i}.ts`)));
    // A crash mid-append leaves a line without its newline; the next id chains to the last whole entry.
    await appendFile(path.join(session.dir, LOG_FILE), '{"id": "torn');
    const before = await readLog(session);
    await appendLog(session, entry(['c.ts']));
    const entries = await readLog(session);
    t.is(before.length, 5);
    t.is(entries.length, 6, 'the torn line is dropped, not glued to the new entry');
    t.true(chainHolds(entries));
    t.deepEqual(entries.at(-1)!.files, ['c.ts']);
    // A whole entry whose newline was lost: the next one goes on a line of its own.
    const file = path.join(session.dir, LOG_FILE);
    await writeFile(file, (await readFile(file, 'utf8')).replace(/\n$/, ''));
    await appendLog(session, entry(['d.ts']));
    const after = await readLog(session);
    t.deepEqual(after.map((e) => e.files.at(-1)), [...entries.map((e) => e.files.at(-1)), 'd.ts']);
    t.true(chainHolds(after));
  } finally {
    await rm(session.dir, { recursive: true, force: true });
  }
});

test('an append reads only the end of the log: a damaged line far back does not stop it (reading the log still reports it)', async (t) => {
  const session = await sessionDir();
  try {
    const file = path.join(session.dir, LOG_FILE);
    for (let i = 0; i < 60; i++) await appendLog(session, entry(Array.from({ length: 100 }, (_, j) => `src/m${i}-${j}.ts`)));
    t.true((await readFile(file)).length > 64 * 1024, 'a log much longer than what an append reads');
    await writeFile(file, `not a log entry\n${await readFile(file, 'utf8')}`);
    const last = await appendLog(session, entry(['z.ts']));
    t.regex(last.id, /^[0-9a-f]{12}$/);
    const error = await readLog(session).catch((e: { code: string }) => e);
    t.is((error as { code: string }).code, 'SessionCorrupt');
    await writeFile(file, (await readFile(file, 'utf8')).split('\n').slice(1).join('\n'));
    t.true(chainHolds(await readLog(session)));
  } finally {
    await rm(session.dir, { recursive: true, force: true });
  }
});

test('a whole line at the end that is not an entry is SessionCorrupt for an append, as for reading', async (t) => {
  const session = await sessionDir();
  try {
    await appendLog(session, entry(['a.ts']));
    await appendFile(path.join(session.dir, LOG_FILE), 'garbage\n');
    const error = await appendLog(session, entry(['b.ts'])).catch((e: { code: string }) => e);
    t.is((error as { code: string }).code, 'SessionCorrupt');
  } finally {
    await rm(session.dir, { recursive: true, force: true });
  }
});
