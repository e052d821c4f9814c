// `tug apply-patchset` end to end on real repositories: branches, commits, verification, --apply and --commit.
import test from 'ava';
import { chmod, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { makeRepo, repoState } from './helpers/repo.js';
import { patchset, tug } from './helpers/cli.js';

const SOURCE = { 'app.py': 'def f():\n    return 1\n\nprint(f())\n', 'lib/util.py': 'from app import f\nvalue = f()\n' };
const RENAME_F = patchset([
  { file: 'app.py', line: 1, col: 5, old_text: 'f', new_text: 'g' },
  { file: 'app.py', line: 4, col: 7, old_text: 'f', new_text: 'g' },
  { file: 'lib/util.py', line: 1, col: 17, old_text: 'f', new_text: 'g' },
  { file: 'lib/util.py', line: 2, col: 9, old_text: 'f', new_text: 'g' },
]);

test('a verified result is a commit on a tug/patch branch whose parent is HEAD, and the user files stay as they were', async (t) => {
  const repo = await makeRepo(SOURCE);
  const before = await repoState(repo);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'syntax'], { input: RENAME_F });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  const out = run.json;
  t.is(out.status, 'ok');
  t.is(out.verification.status, 'passed');
  t.is(out.summary.files_changed, 2);
  t.is(out.summary.edits_count, 4);
  const head = await repo.git('rev-parse', 'HEAD');
  t.is(out.git.head, head);
  t.is(out.git.snapshot_commit, head, 'clean tree: the sandbox starts from HEAD itself');
  t.is(await repo.git('rev-parse', `${out.git.commit}^`), head);
  t.is(await repo.git('rev-parse', `refs/heads/${out.git.branch}`), out.git.commit);
  t.regex(out.git.branch, /^tug\/patch\//);
  t.is(await repo.git('rev-parse', `refs/tug/undo/${out.undo_token}`), out.git.commit);
  const message = await repo.git('log', '-1', '--format=%B', out.git.commit);
  t.regex(message, /^refactor\(patch\): /);
  t.regex(message, /Tug-Operation: apply-patchset/);
  t.regex(message, new RegExp(`Tug-Snapshot: ${out.snapshot_id}`));
  t.regex(message, /Tug-Verification: passed \(syntax\)/);
  t.is(await repo.git('show', `${out.git.commit}:app.py`), 'def g():\n    return 1\n\nprint(g())');
  t.is(await repoState(repo).then((s) => JSON.parse(s).status), JSON.parse(before).status);
  t.is(await repo.readText('app.py'), SOURCE['app.py']);
  t.is(out.patch.unified_diff.split('diff --git').length - 1, 2);
  await repo.cleanup();
});

test('the unified diff applies with git apply', async (t) => {
  const repo = await makeRepo(SOURCE);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'none'], { input: RENAME_F });
  const { execa } = await import('execa');
  const check = await execa('git', ['apply', '--check', '-'], { cwd: repo.root, input: run.json.patch.unified_diff, reject: false });
  t.is(check.exitCode, 0, check.stderr);
  await repo.cleanup();
});

test('the same input gives byte-identical JSON', async (t) => {
  const repo = await makeRepo(SOURCE);
  const first = await tug(repo.root, ['apply-patchset', '-f', '-'], { input: RENAME_F });
  const second = await tug(repo.root, ['apply-patchset', '-f', '-'], { input: RENAME_F });
  t.is(first.exitCode, 0);
  t.is(second.stdout, first.stdout);
  const other = await makeRepo(SOURCE);
  const third = await tug(other.root, ['apply-patchset', '-f', '-'], { input: RENAME_F });
  t.is(third.stdout.replaceAll(other.root, '<root>'), first.stdout.replaceAll(repo.root, '<root>'));
  await repo.cleanup();
  await other.cleanup();
});

test('a different change with the same name gets a numbered branch', async (t) => {
  const repo = await makeRepo(SOURCE);
  const one = await tug(repo.root, ['apply-patchset', '-f', '-'], { input: patchset([{ file: 'app.py', line: 1, col: 5, old_text: 'f', new_text: 'g' }], { message: 'rename' }) });
  const two = await tug(repo.root, ['apply-patchset', '-f', '-'], { input: patchset([{ file: 'app.py', line: 1, col: 5, old_text: 'f', new_text: 'h' }], { message: 'rename' }) });
  t.is(one.json.git.branch, 'tug/patch/rename');
  t.is(two.json.git.branch, 'tug/patch/rename-2');
  await repo.cleanup();
});

test('--apply writes the files, leaves index and HEAD alone, and reports files_written', async (t) => {
  const repo = await makeRepo(SOURCE);
  const index = await repo.read('.git/index');
  const head = await repo.git('rev-parse', 'HEAD');
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--apply'], { input: RENAME_F });
  t.is(run.exitCode, 0, run.stdout);
  t.true(run.json.applied);
  t.deepEqual(run.json.files_written, ['app.py', 'lib/util.py']);
  t.is(await repo.readText('app.py'), 'def g():\n    return 1\n\nprint(g())\n');
  t.deepEqual(await repo.read('.git/index'), index);
  t.is(await repo.git('rev-parse', 'HEAD'), head);
  t.is(await repo.git('status', '--porcelain'), ' M app.py\n M lib/util.py');
  await repo.cleanup();
});

test('--apply on a dirty tree builds on the snapshot commit and keeps unrelated changes', async (t) => {
  const repo = await makeRepo(SOURCE);
  await repo.write('notes.txt', 'mine\n');
  await repo.write('lib/util.py', 'from app import f\nvalue = f()\nextra = 1\n');
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--apply'], { input: RENAME_F });
  t.is(run.exitCode, 0, run.stdout);
  t.true(run.json.git.dirty);
  t.not(run.json.git.snapshot_commit, run.json.git.head);
  t.is(await repo.git('rev-parse', `${run.json.git.snapshot_commit}^`), run.json.git.head);
  t.is(await repo.readText('lib/util.py'), 'from app import g\nvalue = g()\nextra = 1\n');
  t.is(await repo.readText('notes.txt'), 'mine\n');
  await repo.cleanup();
});

test('file modes, CRLF and BOM are preserved through --apply', async (t) => {
  const bom = '\ufeff';
  const repo = await makeRepo({ 'run.py': `${bom}#!/usr/bin/env python3\r\ndef f():\r\n    return 1\r\n` });
  await chmod(path.join(repo.root, 'run.py'), 0o755);
  await repo.git('add', 'run.py');
  await repo.git('commit', '-q', '-m', 'exec');
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--apply'], { input: patchset([{ file: 'run.py', line: 2, col: 5, old_text: 'f', new_text: 'g' }]) });
  t.is(run.exitCode, 0, run.stdout);
  t.is(await repo.readText('run.py'), `${bom}#!/usr/bin/env python3\r\ndef g():\r\n    return 1\r\n`);
  t.is((await stat(path.join(repo.root, 'run.py'))).mode & 0o777, 0o755);
  t.is(await repo.git('ls-tree', run.json.git.commit, 'run.py').then((l) => l.split(' ')[0]), '100755');
  await repo.cleanup();
});

test('--commit fast-forwards the current branch with a compare-and-swap, and undo moves it back', async (t) => {
  const repo = await makeRepo(SOURCE);
  const head = await repo.git('rev-parse', 'HEAD');
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--commit'], { input: RENAME_F });
  t.is(run.exitCode, 0, run.stdout);
  t.true(run.json.committed);
  t.is(await repo.git('rev-parse', 'main'), run.json.git.commit);
  t.is(await repo.git('status', '--porcelain'), '', 'index and working tree follow the branch');
  t.is(await repo.readText('app.py'), 'def g():\n    return 1\n\nprint(g())\n');
  const undo = await tug(repo.root, ['undo', run.json.undo_token]);
  t.is(undo.exitCode, 0, undo.stdout);
  t.deepEqual(undo.json.branch_reset, { ref: 'refs/heads/main', from: run.json.git.commit, to: head });
  t.is(await repo.git('rev-parse', 'main'), head);
  t.is(await repo.git('status', '--porcelain'), '');
  t.is(await repo.readText('app.py'), SOURCE['app.py']);
  await repo.cleanup();
});

test('--commit refuses a dirty tree (DirtyWorkingTree, exit 4) and writes nothing', async (t) => {
  const repo = await makeRepo(SOURCE);
  await repo.write('notes.txt', 'x\n');
  const before = await repoState(repo);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--commit'], { input: RENAME_F });
  t.is(run.exitCode, 4);
  t.is(run.json.error.code, 'DirtyWorkingTree');
  t.is(await repoState(repo), before);
  await repo.cleanup();
});

test('failing verification is exit 5 with the output, no branch, and untouched files', async (t) => {
  const repo = await makeRepo(SOURCE);
  const before = await repoState(repo);
  const broken = patchset([{ file: 'app.py', line: 1, col: 1, old_text: 'def', new_text: 'deff' }]);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--apply'], { input: broken });
  t.is(run.exitCode, 5, run.stdout);
  t.is(run.json.error.code, 'VerificationFailed');
  const check = run.json.error.details.verification.checks[0];
  t.is(check.name, 'python-syntax');
  t.is(check.status, 'failed');
  t.is(check.errors[0].file, 'app.py');
  t.is(check.errors[0].line, 1);
  t.is(run.json.snapshot_id, await repo.git('rev-parse', 'HEAD^{tree}'));
  t.is(await repoState(repo), before);
  t.is(await repo.git('for-each-ref', 'refs/heads/tug'), '');
  await repo.cleanup();
});

test('--verify tests runs the given test command in the sandbox; failures and timeouts are exit 5', async (t) => {
  const repo = await makeRepo(SOURCE);
  const edit = patchset([{ file: 'app.py', line: 2, col: 12, old_text: '1', new_text: '2' }]);
  const pass = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'tests', '--test-command', '["{python}","-c","import app; assert app.f() == 2"]'], { input: edit });
  t.is(pass.exitCode, 0, pass.stdout);
  t.deepEqual(pass.json.verification.checks.map((c: any) => [c.name, c.status]), [['python-syntax', 'passed'], ['tests', 'passed']]);
  const fail = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'tests', '--test-command', '["{python}","-c","import app; assert app.f() == 3, \'wrong\'"]'], { input: edit });
  t.is(fail.exitCode, 5);
  t.regex(fail.json.error.details.verification.checks[1].output, /AssertionError: wrong/);
  const slow = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'tests', '--timeout', '1', '--test-command', '["sh","-c","sleep 30 & sleep 30"]'], { input: edit });
  t.is(slow.exitCode, 5);
  t.true(slow.json.error.details.verification.checks[1].timed_out);
  await repo.cleanup();
});

test('--keep-sandbox keeps a failing sandbox and reports its path', async (t) => {
  const repo = await makeRepo(SOURCE);
  const broken = patchset([{ file: 'app.py', line: 1, col: 1, old_text: 'def', new_text: 'deff' }]);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--keep-sandbox'], { input: broken });
  t.is(run.exitCode, 5);
  const kept = run.json.error.details.sandbox_path;
  t.truthy(kept);
  t.is((await stat(path.join(kept, 'app.py'))).isFile(), true);
  const clean = await tug(repo.root, ['clean', '--sandboxes']);
  t.true(clean.json.removed.sandboxes.includes(kept));
  t.is(await stat(kept).then(() => 'exists', () => 'gone'), 'gone');
  await repo.cleanup();
});

const BAD_INPUTS: Array<[string, unknown, string, number]> = [
  ['absolute path', { file: '/etc/passwd', line: 1, col: 1, old_text: 'r', new_text: 'x' }, 'InvalidArgument', 2],
  ['.. traversal', { file: '../outside.py', line: 1, col: 1, old_text: 'x', new_text: 'y' }, 'InvalidArgument', 2],
  ['symlink escaping the workspace', { file: 'escape/passwd', line: 1, col: 1, old_text: 'r', new_text: 'x' }, 'InvalidArgument', 2],
  ['missing file', { file: 'nope.py', line: 1, col: 1, old_text: 'x', new_text: 'y' }, 'FileNotFound', 3],
  ['binary file', { file: 'blob.bin', span: { start: 0, end: 1 }, old_text: 'a', new_text: 'b' }, 'UnsupportedFile', 2],
  ['non-UTF-8 file', { file: 'latin.py', span: { start: 0, end: 1 }, old_text: 'x', new_text: 'y' }, 'UnsupportedFile', 2],
  ['stale anchor', { file: 'app.py', line: 1, col: 5, old_text: 'h', new_text: 'g' }, 'AnchorMismatch', 4],
  ['position past the end', { file: 'app.py', line: 99, col: 1, old_text: 'x', new_text: 'y' }, 'InvalidPosition', 3],
  ['edit without a position', { file: 'app.py', old_text: 'x', new_text: 'y' }, 'InvalidArgument', 2],
];

for (const [name, edit, code, exit] of BAD_INPUTS) {
  test(`bad input: ${name} → ${code} (exit ${exit}), nothing written`, async (t) => {
    const repo = await makeRepo({ ...SOURCE, 'blob.bin': Buffer.from([0x61, 0x00, 0x62]), 'latin.py': Buffer.from([0x78, 0x3d, 0xe9, 0x0a]) });
    await symlink('/etc', path.join(repo.root, 'escape'));
    const before = await repoState(repo);
    const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--apply'], { input: patchset([edit]) });
    t.is(run.exitCode, exit, run.stdout);
    t.is(run.json?.error?.code, code);
    t.is(await repoState(repo), before);
    t.notRegex(run.stdout + run.stderr, /    at .*\.js:\d+/, 'no stack trace');
    await repo.cleanup();
  });
}

test('bad input: overlapping edits → ConflictingEdits (exit 4), nothing written', async (t) => {
  const repo = await makeRepo(SOURCE);
  const before = await repoState(repo);
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--apply'], {
    input: patchset([
      { file: 'app.py', line: 1, col: 1, old_text: 'def f', new_text: 'def g' },
      { file: 'app.py', line: 1, col: 5, old_text: 'f()', new_text: 'h()' },
    ]),
  });
  t.is(run.exitCode, 4);
  t.is(run.json.error.code, 'ConflictingEdits');
  t.is(run.json.error.details.conflicts.length, 2);
  t.is(await repoState(repo), before);
  await repo.cleanup();
});

test('bad input: malformed patchsets, unknown flags and missing files get structured errors', async (t) => {
  const repo = await makeRepo(SOURCE);
  const notJson = await tug(repo.root, ['apply-patchset', '-f', '-'], { input: '{"edits": [' });
  t.is(notJson.exitCode, 2);
  t.is(notJson.json.error.code, 'InvalidArgument');
  const wrongShape = await tug(repo.root, ['apply-patchset', '-f', '-'], { input: JSON.stringify({ edits: [{ file: 3, new_text: 1 }] }) });
  t.is(wrongShape.exitCode, 2);
  t.true(wrongShape.json.error.details.issues.some((i: any) => i.path === 'patchset.edits.0.file'));
  const empty = await tug(repo.root, ['apply-patchset', '-f', '-'], { input: JSON.stringify({ edits: [] }) });
  t.is(empty.json.error.code, 'InvalidArgument');
  const unknown = await tug(repo.root, ['apply-patchset', '-f', '-', '--frobnicate'], { input: RENAME_F });
  t.is(unknown.exitCode, 2);
  t.is(unknown.json.error.code, 'InvalidArgument');
  t.regex(unknown.json.error.message, /frobnicate/);
  const missing = await tug(repo.root, ['apply-patchset', '-f', 'does-not-exist.json']);
  t.is(missing.exitCode, 3);
  t.is(missing.json.error.code, 'FileNotFound');
  const badVerify = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'everything'], { input: RENAME_F });
  t.is(badVerify.exitCode, 2);
  const noop = await tug(repo.root, ['apply-patchset', '-f', '-'], { input: patchset([{ file: 'app.py', line: 1, col: 5, old_text: 'f', new_text: 'f' }]) });
  t.is(noop.json.error.code, 'InvalidArgument');
  await repo.cleanup();
});

test('a human summary on a terminal names the branch and the merge and undo commands', async (t) => {
  const repo = await makeRepo(SOURCE);
  const { summarize } = await import('../lib/cli/summary.js');
  const run = await tug(repo.root, ['apply-patchset', '-f', '-'], { input: RENAME_F });
  const text = summarize('apply-patchset', run.json);
  t.regex(text, new RegExp(`git merge ${run.json.git.branch}`));
  t.regex(text, new RegExp(`tug undo ${run.json.undo_token}`));
  t.regex(text, /verification passed \(syntax\)/);
  t.regex(text, /^ {2}app\.py {6}\| +\d+ [+-]+\n {2}lib\/util\.py \| +\d+ [+-]+$/m, 'a diff stat of the files');
  await repo.cleanup();
});

test('a file changed between verification and apply aborts the apply (SnapshotMismatch), writing nothing', async (t) => {
  const repo = await makeRepo(SOURCE);
  // The "test command" edits the user's copy while tug verifies in the sandbox: a real race.
  const sneaky = JSON.stringify(['sh', '-c', `printf '# edited meanwhile\\n' >> '${path.join(repo.root, 'lib/util.py')}'`]);
  // Unconfined, as a person's own edit would be: under bubblewrap the test command cannot write the user's copy.
  const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--verify', 'tests', '--test-command', sneaky, '--apply'], { input: RENAME_F, env: { TUG_ISOLATION: 'none' } });
  t.is(run.exitCode, 4, run.stdout);
  t.is(run.json.error.code, 'SnapshotMismatch');
  t.deepEqual(run.json.error.details.changed_files, ['lib/util.py']);
  t.is(await repo.readText('app.py'), SOURCE['app.py'], 'the other file was not written either');
  t.is(await repo.readText('lib/util.py'), `${SOURCE['lib/util.py']}# edited meanwhile\n`);
  await repo.cleanup();
});
