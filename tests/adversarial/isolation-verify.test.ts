// Verification runs the project's tests in a checkout whose git dir is not the user's: a test suite that deletes
// branches, rewrites config, plants hooks or tags reaches only that throwaway repository. The refactor still commits
// its result on a tug/ branch of the user's repository, and the sandbox is reused on the next run.
import test from 'ava';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { tug } from '../helpers/cli.js';
import { makeRepo, repoState, type TestRepo } from '../helpers/repo.js';

const HOSTILE = [
  'git branch -D other',
  'git stash clear',
  'git config user.name attacker',
  'git tag planted',
  'git remote add evil /nowhere',
  'printf "#!/bin/sh\\ntouch $HOME/hooked\\n" > "$(git rev-parse --git-common-dir)/hooks/post-checkout"',
  'true',
].join('; ');

async function gitState(repo: TestRepo): Promise<string> {
  // tug's own result branch, undo refs and operation records (refs/notes/tug) are expected; everything else must be as it was.
  const state = JSON.parse(await repoState(repo)) as { refs: string };
  state.refs = state.refs.split('\n').filter((l) => !l.startsWith('refs/heads/tug/') && !l.startsWith('refs/notes/tug')).join('\n');
  return JSON.stringify({
    state,
    refs: (await repo.git('for-each-ref', '--format=%(refname) %(objectname)')).split('\n').filter((l) => !l.startsWith('refs/heads/tug/') && !l.startsWith('refs/tug/') && !l.startsWith('refs/notes/tug')),
    stash: await repo.git('stash', 'list'),
    config: await readFile(path.join(repo.root, '.git', 'config'), 'utf8'),
  });
}

test('a test command cannot reach the user git dir: branches, stash, config, tags, remotes and hooks survive', async (t) => {
  const repo = await makeRepo({ 'calc.py': 'def area(w, h):\n    return w * h\n\n\nprint(area(2, 3))\n' });
  await repo.git('branch', 'other');
  await repo.write('notes.txt', 'stashed\n');
  await repo.git('add', 'notes.txt');
  await repo.git('stash');
  const before = await gitState(repo);
  const run = await tug(repo.root, ['run', 'rename-symbol', '--at', 'calc.py:1:5', '--to', 'surface', '--verify', 'tests', '--test-command', JSON.stringify(['sh', '-c', HOSTILE]), '--json'], {
    env: { TUG_DAEMON_AUTOSTART: '0' },
  });
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification.checks.find((c: { name: string }) => c.name === 'tests').status, 'passed');
  t.is(await gitState(repo), before);
  t.false(existsSync(path.join(repo.root, '.git', 'hooks', 'post-checkout')));
  // The result is a commit of the user's repository all the same, with the renamed file in it.
  t.regex(await repo.git('show', `${run.json.git.branch}:calc.py`), /def surface\(w, h\):/);
  // The next run reuses the sandbox, and the hostile commands again reach only it.
  const again = await tug(repo.root, ['run', 'rename-symbol', '--at', 'calc.py:1:5', '--to', 'size', '--verify', 'tests', '--test-command', JSON.stringify(['sh', '-c', HOSTILE]), '--json'], {
    env: { TUG_DAEMON_AUTOSTART: '0' },
  });
  t.is(again.exitCode, 0, again.stdout);
  t.is(await gitState(repo), before);
});
