// Writes never reach .git, a submodule's checkout, or outside the workspace through a symlink; patches never turn
// symlinks or submodules into files.
import test from 'ava';
import { mkdtemp, readFile, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeRepo, repoState, type TestRepo } from '../helpers/repo.js';
import { tug } from '../helpers/cli.js';

async function tool(repo: TestRepo, name: string, args: Record<string, unknown>) {
  return tug(repo.root, ['tool', name, '--args', JSON.stringify(args)]);
}

test('write_file refuses .git in any case or alias, and a symlink into .git, before anything is written', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n', 'sub/b.txt': 'b\n' });
  t.teardown(() => repo.cleanup());
  await symlink('.git', path.join(repo.root, 'gd'));
  await repo.git('add', 'gd');
  await repo.git('commit', '-q', '-m', 'link');
  const config = await repo.readText('.git/config');
  const before = await repoState(repo);
  for (const target of ['.GIT/config', '.git/config', 'sub/.Git/hooks/pre-commit', 'GIT~1/config', '.git./config', 'gd/config', 'lib/.git::$INDEX_ALLOCATION/config', '.GIT:$DATA/config', 'git~1:/config']) {
    const run = await tool(repo, 'write_file', { path: target, content: '[core]\n\thooksPath = /tmp\n' });
    t.is(run.json?.code, 'InvalidArgument', `${target}: ${run.stdout}${run.stderr}`);
  }
  // NTFS reads an alternate data stream of `.git` as the directory itself; git refuses such names, so tug does too.
  const created = await tool(repo, 'create_file', { path: 'lib/.git::$INDEX_ALLOCATION/config', content: 'x\n' });
  t.is(created.json?.code, 'InvalidArgument', created.stdout);
  t.is(await repo.readText('.git/config'), config);
  t.is(await repoState(repo), before);
  t.is(await repo.git('for-each-ref', 'refs/heads/tug'), '');
});

test('no write, create or move lands inside a submodule checkout or on the gitlink itself', async (t) => {
  const sub = await makeRepo({ 'lib.py': 'x = 1\n' });
  const repo = await makeRepo({ 'app.py': 'y = 2\n' });
  t.teardown(async () => {
    await repo.cleanup();
    await sub.cleanup();
  });
  await repo.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub.root, 'vendor');
  await repo.git('commit', '-q', '-m', 'submodule');
  const before = await repoState(repo);
  const attempts: Array<[string, Record<string, unknown>]> = [
    ['write_file', { path: 'vendor/lib.py', content: 'x = 2\n' }],
    ['create_file', { path: 'vendor/evil.py', content: 'x = 2\n' }],
    ['move_file', { source_path: 'app.py', destination_path: 'vendor/app.py' }],
    ['write_file', { path: 'vendor', content: 'not a submodule any more\n' }],
    ['delete_file', { path: 'vendor' }],
  ];
  for (const [name, args] of attempts) {
    const run = await tool(repo, name, args);
    t.truthy(run.json?.code, `${name} ${JSON.stringify(args)}: ${run.stdout}${run.stderr}`);
    t.regex(run.json?.code ?? '', /^(InvalidArgument|UnsupportedFile)$/);
  }
  t.is(await repoState(repo), before);
  t.is(await readFile(path.join(repo.root, 'vendor', 'lib.py'), 'utf8'), 'x = 1\n');
});

test('apply_patch refuses symlink and submodule modes and mode changes instead of writing regular files', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  t.teardown(() => repo.cleanup());
  const before = await repoState(repo);
  const patches = [
    'diff --git a/evil b/evil\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n+++ b/evil\n@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n',
    'diff --git a/mod b/mod\nnew file mode 160000\nindex 0000000..1111111\n--- /dev/null\n+++ b/mod\n@@ -0,0 +1 @@\n+Subproject commit 1111111111111111111111111111111111111111\n',
    'diff --git a/a.py b/a.py\nold mode 100644\nnew mode 100755\n',
  ];
  for (const patch of patches) {
    const run = await tool(repo, 'apply_patch', { patch });
    t.is(run.json?.code, 'InvalidArgument', run.stdout + run.stderr);
  }
  t.is(await repoState(repo), before);
});

test('undo does not follow a directory that was swapped for a symlink out of the workspace', async (t) => {
  const repo = await makeRepo({ 'pkg/a.py': 'x = 1\n' });
  const outside = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tug-outside-')));
  t.teardown(async () => {
    await rm(outside, { recursive: true, force: true });
    await repo.cleanup();
  });
  const run = await tool(repo, 'write_file', { path: 'pkg/a.py', content: 'x = 2\n' });
  t.is(run.json?.status, 'ok', run.stdout + run.stderr);
  // The directory now points elsewhere, holding a file with tug's result: undo would restore "through" it.
  await writeFile(path.join(outside, 'a.py'), 'x = 2\n');
  await rename(path.join(repo.root, 'pkg'), path.join(repo.root, 'pkg.moved'));
  await symlink(outside, path.join(repo.root, 'pkg'));
  const undo = await tug(repo.root, ['undo', run.json.undo_token]);
  t.is(undo.json?.error?.code, 'UnsafePath', undo.stdout + undo.stderr);
  t.is(await readFile(path.join(outside, 'a.py'), 'utf8'), 'x = 2\n');
});
