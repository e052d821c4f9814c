// edit_file, write_file, create_file, delete_file, move_file: verified commits on tug/edit/…, applied by default, every failure mode.
import test from 'ava';
import { chmod, stat, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeRepo, repoState } from './helpers/repo.js';
import { call, isToolSuccess } from './helpers/tools.js';
import { tug } from './helpers/cli.js';

const FILES = {
  'app.py': 'def total(items):\n    return sum(items)\n\n\nprint(total([1, 2]))\n',
  'twice.py': 'x = 1\nx = 1\n',
  'notes.txt': 'one\r\ntwo\r\nthree\r\n',
  'run.sh': '#!/bin/sh\necho hi\n',
  'logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
  '.gitignore': 'build/\n',
};

test('edit_file: one match is verified, committed on tug/edit/…, applied, and undoable', async (t) => {
  const repo = await makeRepo(FILES);
  const out = await call(repo, 'edit_file', { path: 'app.py', old_text: 'return sum(items)', new_text: 'return sum(items) + 0', display_description: 'add zero' });
  t.true(isToolSuccess(out), JSON.stringify(out));
  t.regex(out.git.branch, /^tug\/edit\/edit-app\.py/);
  t.is(out.verification.checks[0].name, 'python-syntax');
  t.true(out.applied);
  t.deepEqual(out.files_written, ['app.py']);
  t.regex(await repo.readText('app.py'), /return sum\(items\) \+ 0/);
  t.is(await repo.git('log', '-1', '--format=%s', out.git.commit), 'refactor(edit): add zero');
  t.is(await repo.git('show', `${out.git.commit}:app.py`), (await repo.readText('app.py')).trimEnd());
  const undo = await call(repo, 'tug_undo', { token: out.undo_token });
  t.true(isToolSuccess(undo));
  t.is(await repo.readText('app.py'), FILES['app.py']);
  await repo.cleanup();
});

test('edit_file: apply:false leaves the working tree alone and the change on the branch', async (t) => {
  const repo = await makeRepo(FILES);
  const before = await repoState(repo);
  const out = await call(repo, 'edit_file', { path: 'app.py', old_text: 'print', new_text: 'repr', apply: false, verify: 'none' });
  t.true(isToolSuccess(out));
  t.is(out.applied, false);
  t.is(JSON.parse(await repoState(repo)).status, JSON.parse(before).status);
  t.regex(await repo.git('show', `${out.git.branch}:app.py`), /repr\(total/);
  await repo.cleanup();
});

test('edit_file: zero matches and several matches are errors that say where', async (t) => {
  const repo = await makeRepo(FILES);
  const none = await call(repo, 'edit_file', { path: 'app.py', old_text: 'return  sum(items)', new_text: 'x' });
  t.is(none.code, 'TextNotFound');
  t.is(none.exit_code, 3);
  t.deepEqual(none.details.similar, [{ line: 2, text: '    return sum(items)' }]);
  const many = await call(repo, 'edit_file', { path: 'twice.py', old_text: 'x = 1', new_text: 'x = 2' });
  t.is(many.code, 'AmbiguousMatch');
  t.deepEqual(many.details.matches, [
    { line: 1, col: 1 },
    { line: 2, col: 1 },
  ]);
  t.regex(many.error, /at 1:1, 2:1/);
  const unique = await call(repo, 'edit_file', { path: 'twice.py', old_text: 'x = 1\nx = 1', new_text: 'x = 1\nx = 2' });
  t.true(isToolSuccess(unique));
  t.is(await repo.readText('twice.py'), 'x = 1\nx = 2\n');
  await repo.cleanup();
});

test('edit_file: failing verification writes nothing and commits nothing (exit 5)', async (t) => {
  const repo = await makeRepo(FILES);
  const before = await repoState(repo);
  const out = await call(repo, 'edit_file', { path: 'app.py', old_text: 'def total(items):', new_text: 'def total(items)' });
  t.is(out.code, 'VerificationFailed');
  t.is(out.exit_code, 5);
  t.is(await repoState(repo), before);
  const unverified = await call(repo, 'edit_file', { path: 'app.py', old_text: 'def total(items):', new_text: 'def total(items)', verify: 'none' });
  t.true(isToolSuccess(unverified), 'verify:none lets a broken intermediate state through');
  await repo.cleanup();
});

test('edit_file: CRLF files keep CRLF when old_text and new_text use LF; executable bits survive', async (t) => {
  const repo = await makeRepo(FILES);
  await chmod(path.join(repo.root, 'run.sh'), 0o755);
  await repo.git('add', 'run.sh');
  await repo.git('commit', '-qm', 'exec');
  const crlf = await call(repo, 'edit_file', { path: 'notes.txt', old_text: 'one\ntwo', new_text: 'one\n1.5\ntwo' });
  t.true(isToolSuccess(crlf), JSON.stringify(crlf));
  t.is(await repo.readText('notes.txt'), 'one\r\n1.5\r\ntwo\r\nthree\r\n');
  const exec = await call(repo, 'edit_file', { path: 'run.sh', old_text: 'echo hi', new_text: 'echo bye' });
  t.true(isToolSuccess(exec));
  t.is((await stat(path.join(repo.root, 'run.sh'))).mode & 0o777, 0o755);
  t.regex(await repo.git('ls-tree', exec.git.commit, 'run.sh'), /^100755 /);
  await repo.cleanup();
});

test('edit_file refuses binaries, directories, missing files and paths outside the workspace', async (t) => {
  const repo = await makeRepo(FILES);
  await symlink(os.tmpdir(), path.join(repo.root, 'out'));
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ path: 'logo.png', old_text: 'PNG', new_text: 'JPG' }, 'UnsupportedFile'],
    [{ path: 'missing.py', old_text: 'a', new_text: 'b' }, 'FileNotFound'],
    [{ path: '/etc/hosts', old_text: 'a', new_text: 'b' }, 'InvalidArgument'],
    [{ path: '../x.py', old_text: 'a', new_text: 'b' }, 'InvalidArgument'],
    [{ path: 'out/x.py', old_text: 'a', new_text: 'b' }, 'InvalidArgument'],
    [{ path: 'app.py', old_text: '', new_text: 'b' }, 'InvalidArgument'],
    [{ path: 'app.py', old_text: 'print', new_text: 'print' }, 'InvalidArgument'],
    [{ path: 'app.py', old_txt: 'print', new_text: 'x' }, 'InvalidArgument'],
  ];
  const before = await repoState(repo);
  for (const [args, code] of cases) {
    const out = await call(repo, 'edit_file', args);
    t.is(out.code, code, `${JSON.stringify(args)}: ${out.error}`);
  }
  t.is(await repoState(repo), before);
  const typo = await call(repo, 'edit_file', { path: 'app.py', old_txt: 'print', new_text: 'x' });
  t.regex(typo.error, /old_text: required, expected string/);
  t.regex(typo.error, /unknown parameter "old_txt"/);
  await repo.cleanup();
});

test('write_file: overwrites as a minimal diff, creates parent directories, keeps CRLF and the BOM', async (t) => {
  const repo = await makeRepo({ ...FILES, 'bom.txt': '\uFEFFa\nb\n' });
  const over = await call(repo, 'write_file', { path: 'app.py', content: 'def total(items):\n    return sum(items)\n\n\nprint(total([3]))\n' });
  t.true(isToolSuccess(over), JSON.stringify(over));
  t.deepEqual(over.patch.edits.map((e: { line: number }) => e.line), [5]);
  t.is(await repo.readText('app.py'), 'def total(items):\n    return sum(items)\n\n\nprint(total([3]))\n');
  const created = await call(repo, 'write_file', { path: 'deep/new/dir/file.py', content: 'x = 1\n' });
  t.true(isToolSuccess(created));
  t.deepEqual(created.patch.files_created, ['deep/new/dir/file.py']);
  t.is(await repo.readText('deep/new/dir/file.py'), 'x = 1\n');
  const crlf = await call(repo, 'write_file', { path: 'notes.txt', content: 'uno\ndos\n' });
  t.true(isToolSuccess(crlf));
  t.is(await repo.readText('notes.txt'), 'uno\r\ndos\r\n');
  const bom = await call(repo, 'write_file', { path: 'bom.txt', content: 'c\n' });
  t.true(isToolSuccess(bom));
  t.is(await repo.readText('bom.txt'), '\uFEFFc\n');
  const same = await call(repo, 'write_file', { path: 'bom.txt', content: 'c\n' });
  t.is(same.code, 'InvalidArgument', 'writing what is there is a no-op');
  const kept = await call(repo, 'write_file', { path: 'app.py', content: 'x = 1\n', overwrite: false });
  t.is(kept.code, 'FileExists', 'overwrite: false refuses an existing file');
  t.is(await repo.readText('app.py'), 'def total(items):\n    return sum(items)\n\n\nprint(total([3]))\n');
  const fresh = await call(repo, 'write_file', { path: 'fresh.py', content: 'y = 2\n', overwrite: false });
  t.true(isToolSuccess(fresh), 'overwrite: false still creates a new file');
  t.is((await call(repo, 'write_file', { path: 'logo.png', content: 'x' })).code, 'UnsupportedFile');
  t.is((await call(repo, 'write_file', { path: 'deep', content: 'x' })).code, 'InvalidArgument');
  t.is((await call(repo, 'write_file', { path: 'app.py/child', content: 'x' })).code, 'InvalidArgument');
  await repo.cleanup();
});

test('create_file: new files only, never over an existing, ignored or on-disk file', async (t) => {
  const repo = await makeRepo(FILES);
  const out = await call(repo, 'create_file', { path: 'pkg/__init__.py', content: '' });
  t.true(isToolSuccess(out), JSON.stringify(out));
  t.regex(out.patch.unified_diff, /new file mode 100644/);
  t.is(await repo.readText('pkg/__init__.py'), '');
  const exists = await call(repo, 'create_file', { path: 'app.py', content: 'x' });
  t.is(exists.code, 'FileExists');
  t.is(exists.exit_code, 4);
  t.is((await call(repo, 'create_file', { path: 'build/out.py', content: 'x' })).code, 'InvalidArgument');
  t.is((await call(repo, 'create_file', { path: '../sibling.py', content: 'x' })).code, 'InvalidArgument');
  const broken = await call(repo, 'create_file', { path: 'bad.py', content: 'def (:\n' });
  t.is(broken.code, 'VerificationFailed');
  t.false(await stat(path.join(repo.root, 'bad.py')).then(() => true, () => false));
  const undo = await call(repo, 'tug_undo', { token: out.undo_token });
  t.deepEqual(undo.files_restored, ['pkg/__init__.py']);
  t.false(await stat(path.join(repo.root, 'pkg')).then(() => true, () => false), 'undoing a creation removes the file and its now-empty directory');
  await repo.cleanup();
});

test('delete_file: removes a file (binaries too), undo brings it back with its mode', async (t) => {
  const repo = await makeRepo(FILES);
  await chmod(path.join(repo.root, 'run.sh'), 0o755);
  await repo.git('add', 'run.sh');
  await repo.git('commit', '-qm', 'exec');
  const refused = await call(repo, 'delete_file', { path: 'run.sh', confirm: false });
  t.is(refused.code, 'InvalidArgument', 'confirm: false deletes nothing');
  t.is(await repo.readText('run.sh'), FILES['run.sh']);
  const out = await call(repo, 'delete_file', { path: 'run.sh', confirm: true });
  t.true(isToolSuccess(out), JSON.stringify(out));
  t.deepEqual(out.patch.files_deleted, ['run.sh']);
  t.false(await stat(path.join(repo.root, 'run.sh')).then(() => true, () => false));
  const png = await call(repo, 'delete_file', { path: 'logo.png' });
  t.true(isToolSuccess(png), JSON.stringify(png));
  t.regex(png.patch.unified_diff, /Binary files a\/logo.png and \/dev\/null differ/);
  await call(repo, 'tug_undo', { token: out.undo_token });
  t.is(await repo.readText('run.sh'), FILES['run.sh']);
  t.is((await stat(path.join(repo.root, 'run.sh'))).mode & 0o777, 0o755);
  t.is((await call(repo, 'delete_file', { path: 'missing' })).code, 'FileNotFound');
  await repo.write('dir/a.txt', 'a\n');
  t.is((await call(repo, 'delete_file', { path: 'dir' })).code, 'InvalidArgument');
  await repo.cleanup();
});

test('move_file: a git rename into a new directory; an existing destination is refused', async (t) => {
  const repo = await makeRepo(FILES);
  const out = await call(repo, 'move_file', { source_path: 'app.py', destination_path: 'src/app.py' });
  t.true(isToolSuccess(out), JSON.stringify(out));
  t.deepEqual(out.patch.file_moves, [{ from: 'app.py', to: 'src/app.py' }]);
  t.regex(out.patch.unified_diff, /rename from app.py\nrename to src\/app.py/);
  t.is(await repo.readText('src/app.py'), FILES['app.py']);
  t.is((await call(repo, 'move_file', { source_path: 'twice.py', destination_path: 'notes.txt' })).code, 'FileExists');
  t.is((await call(repo, 'move_file', { source_path: 'gone.py', destination_path: 'x.py' })).code, 'FileNotFound');
  t.is((await call(repo, 'move_file', { source_path: 'twice.py', destination_path: 'twice.py' })).code, 'InvalidArgument');
  await call(repo, 'tug_undo', { token: out.undo_token });
  t.is(await repo.readText('app.py'), FILES['app.py']);
  await repo.cleanup();
});

test('writes are atomic: a crash between temp files and renames leaves the old file, and the next call recovers', async (t) => {
  const repo = await makeRepo(FILES);
  const crashed = await tug(repo.root, ['tool', 'write_file', '--args', JSON.stringify({ path: 'app.py', content: 'x = 2\n' })], { env: { TUG_FAULT_INJECT: 'apply-after-temp' } });
  t.not(crashed.exitCode, 0);
  t.is(await repo.readText('app.py'), FILES['app.py']);
  const next = await tug(repo.root, ['tool', 'read_file', '--args', '{"path":"app.py"}']);
  t.is(next.exitCode, 0);
  const edit = await call(repo, 'edit_file', { path: 'twice.py', old_text: 'x = 1\nx = 1', new_text: 'x = 3' });
  t.true(edit.warnings.some((w: { code: string }) => w.code === 'InterruptedApplyRecovered'));
  t.is(await repo.git('status', '--porcelain'), ' M twice.py');
  await repo.cleanup();
});
