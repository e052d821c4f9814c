// HEAD's tree and time read from its loose commit object are `git log`'s answer, with no git process; a packed commit,
// replace refs or an object that does not parse go to git, which answers the same.
import path from 'node:path';
import test from 'ava';
import { discoverRepo, readHead } from '../lib/git/repo.js';
import { execa } from './helpers/execa.js';
import { gitCalls } from './helpers/git-calls.js';
import { FIXED_ENV, makeRepo, type TestRepo } from './helpers/repo.js';

async function gitLog(repo: TestRepo): Promise<{ oid: string; tree: string; time: number }> {
  const [oid, tree, time] = (await repo.git('log', '-1', '--format=%H %T %ct', 'HEAD')).split(' ');
  return { oid: oid!, tree: tree!, time: Number(time) };
}

async function commitAs(repo: TestRepo, committer: string, date: string, message: string, ...extra: string[]): Promise<void> {
  await execa('git', ['commit', '-q', '--allow-empty', '-m', message, ...extra], {
    cwd: repo.root,
    env: { ...FIXED_ENV, GIT_COMMITTER_NAME: committer, GIT_COMMITTER_DATE: date },
  });
}

test.serial('a loose HEAD commit answers without git, as git log does, for odd committers, merges and messages', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  try {
    const r = await discoverRepo(repo.root);
    const cases: Array<[string, string, string]> = [
      ['Odd <Name> >x', '@1800000000 -0130', 'one\n\ncommitter fake <f> 1 +0000\n'],
      ['Plain', '@1800000001 +0545', 'two'],
    ];
    for (const [committer, date, message] of cases) {
      await repo.write('a.txt', `${message}\n`);
      await repo.git('add', 'a.txt');
      await commitAs(repo, committer, date, message);
      const { value, calls } = await gitCalls(() => readHead(r));
      t.deepEqual(value, { ref: 'refs/heads/main', ...(await gitLog(repo)) });
      t.deepEqual(calls, []);
    }
    // A merge: two parent lines before the author.
    await repo.git('checkout', '-q', '-b', 'side', 'HEAD~1');
    await commitAs(repo, 'Side', '@1800000002 +0000', 'side');
    await repo.git('checkout', '-q', 'main');
    await execa('git', ['merge', '-q', '--no-ff', '-m', 'merge', 'side'], { cwd: repo.root, env: { ...FIXED_ENV, GIT_COMMITTER_DATE: '@1800000003 +0000' } });
    t.deepEqual(await readHead(r), { ref: 'refs/heads/main', ...(await gitLog(repo)) });
  } finally {
    await repo.cleanup();
  }
});

test.serial('a packed HEAD, or replace refs, go to git', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  try {
    const r = await discoverRepo(repo.root);
    await commitAs(repo, 'Packed', '@1800000010 +0000', 'packed');
    await repo.git('gc', '-q');
    const packed = await gitCalls(() => readHead(r));
    t.deepEqual(packed.value, { ref: 'refs/heads/main', ...(await gitLog(repo)) });
    t.true(packed.calls.some((c) => c.includes(' log ')));
    // git log shows a replaced commit's replacement.
    await commitAs(repo, 'Original', '@1800000020 +0000', 'original');
    const original = await repo.git('rev-parse', 'HEAD');
    await repo.write('b.txt', 'b\n');
    await repo.git('add', 'b.txt');
    const tree = await repo.git('write-tree');
    const replacement = await repo.git('commit-tree', tree, '-p', `${original}~1`, '-m', 'replacement');
    await repo.git('replace', original, replacement);
    const replaced = await gitCalls(() => readHead(r));
    t.deepEqual(replaced.value, { ref: 'refs/heads/main', ...(await gitLog(repo)) });
    t.is(replaced.value.tree, tree);
    t.true(replaced.calls.some((c) => c.includes(' log ')));
    t.is(path.basename(r.commonDir), '.git');
  } finally {
    await repo.cleanup();
  }
});
