// apply_patch: several files, creations, deletions and renames in one verified commit; fuzz-free context; all or nothing.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { hunkEdits, parseUnifiedPatch } from '../lib/core/unified-patch.js';
import { makeRepo, repoState } from './helpers/repo.js';
import { call, isToolSuccess } from './helpers/tools.js';

const FILES = {
  'a.py': 'def a():\n    return 1\n\n\ndef b():\n    return 2\n',
  'b.txt': 'alpha\nbeta\ngamma\n',
  'old.txt': 'bye\n',
  'move_me.py': 'value = 1\n',
  'crlf.txt': 'one\r\ntwo\r\n',
};

/** A patch written the way git writes it, taken from a scratch copy of the repository. */
async function gitPatch(files: Record<string, string>, change: (root: string, git: (...a: string[]) => Promise<string>) => Promise<void>): Promise<string> {
  const scratch = await makeRepo(files);
  await change(scratch.root, scratch.git);
  await scratch.git('add', '-A');
  const patch = await scratch.git('diff', '--cached', '-M');
  await scratch.cleanup();
  return `${patch}\n`;
}

test('apply_patch: a git diff over several files, with a creation, a deletion and a rename, lands as one commit', async (t) => {
  const patch = await gitPatch(FILES, async (root, git) => {
    const { writeFile, rm } = await import('node:fs/promises');
    await writeFile(path.join(root, 'a.py'), 'def a():\n    return 10\n\n\ndef b():\n    return 20\n');
    await writeFile(path.join(root, 'new_c.py'), 'c = 3\n');
    await rm(path.join(root, 'old.txt'));
    await git('mv', 'move_me.py', 'moved.py');
  });
  const repo = await makeRepo(FILES);
  const out = await call(repo, 'apply_patch', { patch, message: 'several files' });
  t.true(isToolSuccess(out), JSON.stringify(out));
  t.is(out.summary.files_changed, 4);
  t.deepEqual(out.patch.files_created, ['new_c.py']);
  t.deepEqual(out.patch.files_deleted, ['old.txt']);
  t.deepEqual(out.patch.file_moves, [{ from: 'move_me.py', to: 'moved.py' }]);
  t.is(await repo.readText('a.py'), 'def a():\n    return 10\n\n\ndef b():\n    return 20\n');
  t.is(await repo.readText('new_c.py'), 'c = 3\n');
  t.false(await stat(path.join(repo.root, 'old.txt')).then(() => true, () => false));
  t.is(await repo.readText('moved.py'), 'value = 1\n');
  t.is(await repo.git('log', '-1', '--format=%s', out.git.commit), 'refactor(edit): several files');
  const check = await execa('git', ['apply', '--check', '-R', '-'], { cwd: repo.root, input: out.patch.unified_diff, reject: false });
  t.is(check.exitCode, 0, `tug's own diff reverses cleanly: ${check.stderr}`);
  await repo.cleanup();
});

test('apply_patch: hunks apply at an offset, never with fuzz; a mismatch names the file and hunk and writes nothing', async (t) => {
  const repo = await makeRepo(FILES);
  await repo.write('b.txt', 'header\nalpha\nbeta\ngamma\n');
  await repo.git('commit', '-qam', 'header');
  const shifted = '--- a/b.txt\n+++ b/b.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n';
  const ok = await call(repo, 'apply_patch', { patch: shifted, apply: false });
  t.true(isToolSuccess(ok), JSON.stringify(ok));
  t.is(await repo.git('show', `${ok.git.commit}:b.txt`), 'header\nalpha\nBETA\ngamma');
  const before = await repoState(repo);
  const fuzzy = '--- a/b.txt\n+++ b/b.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n delta\n';
  const bad = await call(repo, 'apply_patch', { patch: fuzzy });
  t.is(bad.code, 'AnchorMismatch');
  t.regex(bad.error, /hunk 1 of b\.txt/);
  const twoFiles = `--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def a():\n-    return 1\n+    return 5\n${fuzzy}`;
  t.is((await call(repo, 'apply_patch', { patch: twoFiles })).code, 'AnchorMismatch');
  t.is(await repoState(repo), before, 'one bad file: nothing written');
  await repo.cleanup();
});

test('apply_patch: LF patches apply to CRLF files and keep CRLF; missing files, bad paths and garbage are refused', async (t) => {
  const repo = await makeRepo(FILES);
  const out = await call(repo, 'apply_patch', { patch: '--- a/crlf.txt\n+++ b/crlf.txt\n@@ -1,2 +1,3 @@\n one\n+one and a half\n two\n' });
  t.true(isToolSuccess(out), JSON.stringify(out));
  t.is(await repo.readText('crlf.txt'), 'one\r\none and a half\r\ntwo\r\n');
  t.is((await call(repo, 'apply_patch', { patch: '--- a/none.txt\n+++ b/none.txt\n@@ -1 +1 @@\n-a\n+b\n' })).code, 'FileNotFound');
  t.is((await call(repo, 'apply_patch', { patch: '--- a/../x\n+++ b/../x\n@@ -1 +1 @@\n-a\n+b\n' })).code, 'InvalidArgument');
  t.is((await call(repo, 'apply_patch', { patch: 'this is not a diff' })).code, 'InvalidArgument');
  t.is((await call(repo, 'apply_patch', { patch: '--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1 @@\n+x\n' })).code, 'FileExists');
  await repo.cleanup();
});

test('hunks: insertions at the top, "No newline at end of file", and a patch for a file without a final newline', (t) => {
  const [top] = parseUnifiedPatch('--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+first\n');
  t.deepEqual(hunkEdits('f', 'x\n', top!.hunks).map((e) => [e.span, e.new_text]), [[{ start: 0, end: 0 }, 'first\n']]);
  const [eof] = parseUnifiedPatch('--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n');
  t.deepEqual(hunkEdits('f', 'a\nb', eof!.hunks).map((e) => [e.old_text, e.new_text]), [['a\nb', 'a\nc']]);
  const [sloppy] = parseUnifiedPatch('--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n');
  t.deepEqual(hunkEdits('f', 'a\nb', sloppy!.hunks).map((e) => e.new_text), ['a\nc'], 'no marker: the missing final newline stays missing');
});
