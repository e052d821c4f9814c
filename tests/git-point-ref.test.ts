// pointRef, which sets an undo point's or a snapshot's ref: the same end state as reading the ref and moving it with a compare-and-swap, with fewer git processes (none when the ref's loose file already names the commit, one for a new ref).
import path from 'node:path';
import test from 'ava';
import { pointRef, readRef } from '../lib/git/refs.js';
import { discoverRepo } from '../lib/git/repo.js';
import { gitCalls } from './helpers/git-calls.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';

/** Two commits to point at. */
async function twoCommits(repo: TestRepo): Promise<[string, string]> {
  const first = await repo.git('rev-parse', 'HEAD');
  await repo.write('b.txt', 'b\n');
  await repo.git('add', 'b.txt');
  await repo.git('commit', '-qm', 'second');
  return [first, await repo.git('rev-parse', 'HEAD')];
}


test.serial('a new ref is created by one git process, an unchanged loose ref costs none', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  try {
    const [first] = await twoCommits(repo);
    const r = await discoverRepo(repo.root);
    const { calls: created } = await gitCalls(() => pointRef(r, 'refs/tug/undo/u1', first, 'tug: undo point'));
    t.is(created.length, 1);
    t.true(created[0]!.includes('update-ref'));
    t.is(await readRef(r, 'refs/tug/undo/u1'), first);
    t.deepEqual((await gitCalls(() => pointRef(r, 'refs/tug/undo/u1', first, 'tug: undo point'))).calls, []);
    t.is(await readRef(r, 'refs/tug/undo/u1'), first);
  } finally {
    await repo.cleanup();
  }
});

test.serial('a ref pointing elsewhere is moved, loose or packed, and a packed ref is never taken for the commit', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  try {
    const [first, second] = await twoCommits(repo);
    const r = await discoverRepo(repo.root);
    await repo.git('update-ref', 'refs/tug/undo/loose', first);
    await pointRef(r, 'refs/tug/undo/loose', second, 'tug: undo point');
    t.is(await repo.git('rev-parse', 'refs/tug/undo/loose'), second);
    // Packed at the commit: no loose file to read, so git is asked and nothing moves.
    await repo.git('update-ref', 'refs/tug/undo/packed', first);
    await repo.git('update-ref', 'refs/tug/undo/packed-other', second);
    await repo.git('pack-refs', '--all');
    await pointRef(r, 'refs/tug/undo/packed', first, 'tug: undo point');
    t.is(await repo.git('rev-parse', 'refs/tug/undo/packed'), first);
    await pointRef(r, 'refs/tug/undo/packed-other', first, 'tug: undo point');
    t.is(await repo.git('rev-parse', 'refs/tug/undo/packed-other'), first);
  } finally {
    await repo.cleanup();
  }
});

test.serial('a ref changed by git behind the process is read again, not remembered', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  try {
    const [first, second] = await twoCommits(repo);
    const r = await discoverRepo(repo.root);
    await pointRef(r, 'refs/tug/undo/moved', first, 'tug: undo point');
    // Another process (or worktree) moves it; pointing it at `first` again must move it back.
    await repo.git('update-ref', 'refs/tug/undo/moved', second);
    await pointRef(r, 'refs/tug/undo/moved', first, 'tug: undo point');
    t.is(await repo.git('rev-parse', 'refs/tug/undo/moved'), first);
    // From a linked worktree the ref is the shared one (the common dir's file).
    const other = path.join(repo.root, '..', `${path.basename(repo.root)}-wt`);
    await repo.git('worktree', 'add', '-q', '--detach', other, first);
    try {
      const w = await discoverRepo(other);
      await pointRef(w, 'refs/tug/undo/moved', second, 'tug: undo point');
      t.is(await repo.git('rev-parse', 'refs/tug/undo/moved'), second);
      t.deepEqual((await gitCalls(() => pointRef(w, 'refs/tug/undo/moved', second, 'tug: undo point'))).calls, []);
    } finally {
      await repo.git('worktree', 'remove', '--force', other);
    }
  } finally {
    await repo.cleanup();
  }
});
