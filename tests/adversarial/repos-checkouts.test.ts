// Repositories as users have them: autocrlf, eol attributes, sparse checkouts, linked worktrees and submodules.
import test from 'ava';
import { execa } from '../helpers/execa.js';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FIXED_ENV, makeRepo, type TestRepo } from '../helpers/repo.js';
import { patchset, tug } from '../helpers/cli.js';

const CRLF_SOURCE = 'def foo():\r\n    return 1\r\n\r\nprint(foo())\r\n';

async function commitAll(repo: TestRepo): Promise<void> {
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', 'initial');
}

test('core.autocrlf=true: rename --apply writes CRLF files like git checkout would, and undo restores them byte for byte', async (t) => {
  const repo = await makeRepo({}, { commit: false });
  t.teardown(() => repo.cleanup());
  await repo.git('config', 'core.autocrlf', 'true');
  await repo.write('app.py', CRLF_SOURCE);
  await commitAll(repo);
  const run = await tug(repo.root, ['rename', 'app.py:1:5', 'bar', '--apply']);
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  t.true(run.json.applied);
  t.is(await repo.readText('app.py'), 'def bar():\r\n    return 1\r\n\r\nprint(bar())\r\n');
  t.is(await repo.git('show', `${run.json.git.commit}:app.py`), 'def bar():\n    return 1\n\nprint(bar())', 'the commit holds normalized text');
  const undo = await tug(repo.root, ['undo', run.json.undo_token]);
  t.is(undo.exitCode, 0, undo.stdout + undo.stderr);
  t.is(await repo.readText('app.py'), CRLF_SOURCE);
  t.is(await repo.git('status', '--porcelain'), '');
});

test('.gitattributes eol=crlf: apply-patchset --apply keeps CRLF on disk and the file clean in git status afterwards', async (t) => {
  const repo = await makeRepo({}, { commit: false });
  t.teardown(() => repo.cleanup());
  await repo.write('.gitattributes', '*.py text eol=crlf\n');
  await repo.write('app.py', CRLF_SOURCE);
  await commitAll(repo);
  const edits = patchset([{ file: 'app.py', line: 2, col: 12, old_text: '1', new_text: '2' }]);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--apply', '--verify', 'none'], { input: edits });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  t.is(await repo.readText('app.py'), 'def foo():\r\n    return 2\r\n\r\nprint(foo())\r\n');
  t.is(await repo.git('diff', '--stat', run.json.git.commit), '', 'the working tree equals the result commit');
});

test('sparse checkout: a rename edits files outside the cone on its branch; --apply refuses them by name and writes nothing', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': '',
    'pkg/a.py': 'def foo():\n    return 1\n',
    'other/b.py': 'from pkg.a import foo\nfoo()\n',
  });
  t.teardown(() => repo.cleanup());
  await repo.git('sparse-checkout', 'set', 'pkg');
  const run = await tug(repo.root, ['rename', 'pkg/a.py:1:5', 'bar']);
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  t.is(await repo.git('show', `${run.json.git.commit}:other/b.py`), 'from pkg.a import bar\nbar()');
  const applied = await tug(repo.root, ['rename', 'pkg/a.py:1:5', 'baz', '--apply']);
  t.is(applied.exitCode, 4, applied.stdout + applied.stderr);
  t.is(applied.json.error.code, 'OutsideSparseCheckout');
  t.deepEqual(applied.json.error.details.paths, ['other/b.py']);
  t.is(await repo.readText('pkg/a.py'), 'def foo():\n    return 1\n');
  t.is(await repo.git('branch', '--list', 'tug/rename/foo-to-baz'), '');
  const inside = await tug(repo.root, ['apply-patchset', '-f', '-', '--apply', '--verify', 'none'], {
    input: patchset([{ file: 'pkg/a.py', line: 2, col: 12, old_text: '1', new_text: '3' }]),
  });
  t.is(inside.exitCode, 0, inside.stdout + inside.stderr);
  t.is(await repo.readText('pkg/a.py'), 'def foo():\n    return 3\n');
});

test('a linked worktree: --apply writes that worktree and --commit moves its branch, the main checkout stays as it was', async (t) => {
  const repo = await makeRepo({ 'app.py': 'def foo():\n    return 1\n\nprint(foo())\n' });
  const linked = path.join(await realpath(await mkdtemp(path.join(os.tmpdir(), 'tug-linked-'))), 'wt');
  t.teardown(async () => {
    await rm(path.dirname(linked), { recursive: true, force: true });
    await repo.cleanup();
  });
  await repo.git('worktree', 'add', '-q', '-b', 'feature', linked);
  const applied = await tug(linked, ['rename', 'app.py:1:5', 'bar', '--apply']);
  t.is(applied.exitCode, 0, applied.stdout + applied.stderr);
  t.is((await execa('cat', ['app.py'], { cwd: linked })).stdout, 'def bar():\n    return 1\n\nprint(bar())');
  await execa('git', ['checkout', '-q', '.'], { cwd: linked });
  const committed = await tug(linked, ['rename', 'app.py:1:5', 'baz', '--commit']);
  t.is(committed.exitCode, 0, committed.stdout + committed.stderr);
  t.is(await repo.git('rev-parse', 'feature'), committed.json.git.commit);
  t.is(await repo.git('status', '--porcelain'), '');
  t.is(await repo.readText('app.py'), 'def foo():\n    return 1\n\nprint(foo())\n');
});

test('a submodule with its own commits checked out: a rename in the superproject applies and leaves the gitlink alone', async (t) => {
  const sub = await makeRepo({ 'lib.py': 'x = 1\n' });
  const repo = await makeRepo({ 'app.py': 'def foo():\n    return 1\n\nprint(foo())\n' });
  t.teardown(async () => {
    await repo.cleanup();
    await sub.cleanup();
  });
  await repo.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub.root, 'vendor');
  await repo.git('commit', '-q', '-m', 'submodule');
  const inSub = (...args: string[]) => execa('git', args, { cwd: path.join(repo.root, 'vendor'), env: FIXED_ENV });
  await repo.write('vendor/more.py', 'y = 2\n');
  await inSub('add', '.');
  await inSub('commit', '-q', '-m', 'more');
  const run = await tug(repo.root, ['rename', 'app.py:1:5', 'bar', '--apply']);
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  t.is(await repo.readText('app.py'), 'def bar():\n    return 1\n\nprint(bar())\n');
  t.is((await repo.git('status', '--porcelain')).split('\n').sort().join('\n'), ' M app.py\n M vendor');
});
