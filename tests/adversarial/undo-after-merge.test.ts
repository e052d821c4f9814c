// Undo after the user merged the refactor and another change touched the same file: only the refactor's own lines
// go back (a 3-way revert, as git revert does) and the other change stays; where both changed the same lines, the
// answer is UndoConflict pointing at `git revert COMMIT`, never at a flag that would drop the other change.
import test from 'ava';
import { tug } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';

const A = 'def f():\n    return 1\n\n\n\n\ndef other():\n    return "old"\n';
const B = 'from a import f\n\nprint(f())\n';

async function mergedRename() {
  const repo = await makeRepo({ 'a.py': A, 'b.py': B });
  const run = await tug(repo.root, ['rename', 'a.py:1:5', 'g', '--verify', 'none']);
  if (run.exitCode !== 0) throw new Error(run.stdout);
  await repo.git('merge', '-q', '--no-edit', run.json.git.branch);
  return { repo, token: run.json.undo_token as string, commit: run.json.git.commit as string };
}

test('undo after a merge keeps another change to the same file and reverts only the rename', async (t) => {
  const { repo, token } = await mergedRename();
  await repo.write('a.py', (await repo.readText('a.py')).replace('"old"', '"new, from a teammate"'));
  await repo.git('commit', '-qam', 'teammate change');
  const undo = await tug(repo.root, ['undo', token]);
  t.is(undo.exitCode, 0, undo.stdout);
  t.is(await repo.readText('a.py'), A.replace('"old"', '"new, from a teammate"'));
  t.is(await repo.readText('b.py'), B);
  await repo.cleanup();
});

test('undo after a merge where another change rewrote the same line is UndoConflict naming git revert, not --force', async (t) => {
  const { repo, token, commit } = await mergedRename();
  await repo.write('a.py', (await repo.readText('a.py')).replace('def g():', 'def g():  # documented'));
  await repo.git('commit', '-qam', 'teammate change on the same line');
  const before = await repo.readText('a.py');
  const undo = await tug(repo.root, ['undo', token]);
  t.is(undo.exitCode, 4, undo.stdout);
  t.is(undo.json.error.code, 'UndoConflict');
  t.deepEqual(undo.json.error.details.conflicting_files, ['a.py']);
  t.is(undo.json.error.details.suggestion, `git revert ${commit}`);
  t.regex(undo.json.error.message, /git revert/);
  t.notRegex(`${undo.json.error.message} ${undo.json.error.hint}`, /--force/);
  t.is(await repo.readText('a.py'), before, 'a refusal writes nothing');
  const revert = await tug(repo.root, ['undo', token, '--revert']);
  t.is(revert.json.error.code, 'UndoConflict');
  t.notRegex(`${revert.json.error.message} ${revert.json.error.hint}`, /--force/);
  t.regex(revert.json.error.message, /git revert/);
  await repo.cleanup();
});
