// A change with --verify none is committed without a sandbox checkout (its tree is built in a private index): the same
// tree as a verified run's, modes kept, authored by the user's configured identity, and no sandbox left behind.
import test from 'ava';
import { chmodSync, existsSync } from 'node:fs';
import path from 'node:path';
import { sandboxRoot } from '../lib/git/worktree.js';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

const FILES = {
  'shop/prices.py': 'def total(items):\n    return sum(items)\n',
  'shop/report.py': 'from shop.prices import total\n\n\ndef show(items):\n    return total(items) * 2\n',
  'run.py': '#!/usr/bin/env python3\nfrom shop.prices import total\nprint(total([1, 2]))\n',
  'shop/__init__.py': '',
};

test('verify none: the tree of a sandboxed run, the mode of an executable kept, no sandbox checked out', async (t) => {
  const repo = await makeRepo(FILES);
  chmodSync(path.join(repo.root, 'run.py'), 0o755);
  await repo.git('commit', '-q', '-am', 'executable');
  // Two values of user.name: the last one is the identity, as `git config --get` answers.
  await repo.git('config', '--add', 'user.name', 'Later Name');
  const env = { TUG_NO_DAEMON: '1' };
  const shared = path.join(sandboxRoot(path.join(repo.root, '.git', 'tug')), 'shared');
  const none = await tug(repo.root, ['rename', 'shop/prices.py:1:5', 'grand_total', '--verify', 'none'], { env });
  t.is(none.exitCode, 0, none.stdout);
  t.false(existsSync(shared), 'nothing was checked out to verify nothing');
  t.is(none.json.summary.files_changed, 3);
  t.is(await repo.git('log', '-1', '--format=%an <%ae>', none.json.git.commit), 'Later Name <author@example.com>');
  const syntax = await tug(repo.root, ['rename', 'shop/prices.py:1:5', 'grand_total', '--verify', 'syntax'], { env });
  t.is(syntax.exitCode, 0, syntax.stdout);
  t.true(existsSync(shared), 'a verified run checks the sandbox out');
  t.is(await repo.git('rev-parse', `${none.json.git.commit}^{tree}`), await repo.git('rev-parse', `${syntax.json.git.commit}^{tree}`));
  t.regex(await repo.git('ls-tree', none.json.git.commit, 'run.py'), /^100755 /);
  t.regex(await repo.git('show', `${none.json.git.commit}:run.py`), /from shop\.prices import grand_total\nprint\(grand_total\(\[1, 2\]\)\)/);
  await repo.cleanup();
});
