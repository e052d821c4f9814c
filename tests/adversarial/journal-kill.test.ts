// SIGKILL at every step of the journal (apply, commit, undo), then the user edits, then any command: recovery finishes or
// rolls back only files that still hold the journal's before- or after-image, reports the rest, and is idempotent.
import test from 'ava';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { patchset, tug } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/repo.js';

const SOURCE = { 'a.py': 'def f():\n    return 1\n', 'b.py': 'from a import f\nf()\n' };
const RENAMED = { 'a.py': 'def g():\n    return 1\n', 'b.py': 'from a import g\ng()\n' };
const RENAME = patchset([
  { file: 'a.py', line: 1, col: 5, old_text: 'f', new_text: 'g' },
  { file: 'b.py', line: 1, col: 15, old_text: 'f', new_text: 'g' },
  { file: 'b.py', line: 2, col: 1, old_text: 'f', new_text: 'g' },
]);
const USER_EDIT = 'from a import f\nf()\nprint("the user typed this after the crash")\n';

type Mode = 'apply' | 'commit' | 'undo';
/** Journal steps each mode passes, in order; the first ones fall before the journal's flip to 'commit'. */
const STEPS: Record<Mode, { prepare: string[]; commit: string[] }> = {
  apply: { prepare: ['apply-after-temp'], commit: ['apply-after-commit-flip', 'apply-after-rename'] },
  commit: { prepare: ['apply-after-temp', 'apply-after-index-lock'], commit: ['apply-after-commit-flip', 'apply-after-ref', 'apply-after-rename', 'apply-after-index'] },
  undo: { prepare: ['apply-after-temp'], commit: ['apply-after-commit-flip', 'apply-after-rename'] },
};

/** Runs the mode with tug killed at `point`; returns what each file holds before and after the change. */
async function killAt(t: any, repo: TestRepo, mode: Mode, point: string): Promise<{ before: typeof SOURCE; after: typeof SOURCE }> {
  const env = { TUG_FAULT_INJECT: point };
  if (mode === 'undo') {
    const run = await tug(repo.root, ['apply-patchset', '-f', '-', '--apply', '--verify', 'none'], { input: RENAME });
    t.is(run.exitCode, 0, run.stdout);
    const killed = await tug(repo.root, ['undo', run.json.undo_token], { env });
    t.is(killed.exitCode, -1, `killed at ${point}: ${killed.stdout}`);
    return { before: RENAMED, after: SOURCE };
  }
  const killed = await tug(repo.root, ['apply-patchset', '-f', '-', `--${mode}`, '--verify', 'none'], { input: RENAME, env });
  t.is(killed.exitCode, -1, `killed at ${point}: ${killed.stdout}`);
  return { before: SOURCE, after: RENAMED };
}

async function leftovers(repo: TestRepo): Promise<string[]> {
  const temps = (await readdir(repo.root)).filter((n) => n.includes('.tug-'));
  const git = (await readdir(path.join(repo.root, '.git'))).filter((n) => n.startsWith('index.tug-') || n === 'index.lock');
  return [...temps, ...git];
}

for (const mode of ['apply', 'commit', 'undo'] as const) {
  for (const point of [...STEPS[mode].prepare, ...STEPS[mode].commit]) {
    const prepare = STEPS[mode].prepare.includes(point);

    test(`${mode}: killed at ${point}, the user edits b.py, the next call ${prepare ? 'rolls back around the edit' : 'reports RecoveryConflict and keeps the edit'}`, async (t) => {
      const repo = await makeRepo(SOURCE);
      const { after } = await killAt(t, repo, mode, point);
      await repo.write('b.py', USER_EDIT);
      const next = await tug(repo.root, ['verify', '--verify', 'none']);
      t.is(await repo.readText('b.py'), USER_EDIT, 'the edit is never overwritten');
      if (prepare) {
        t.is(next.exitCode, 0, next.stdout);
        t.is(next.json.warnings.find((w: any) => w.code === 'InterruptedApplyRecovered')?.details.action, 'rolled_back');
        t.deepEqual(await leftovers(repo), []);
        return repo.cleanup();
      }
      t.is(next.exitCode, 4, next.stdout);
      t.is(next.json.error.code, 'RecoveryConflict');
      t.deepEqual(next.json.error.details.conflicting_files, ['b.py']);
      const saved = next.json.error.details.saved['b.py'];
      t.is(await readFile(saved, 'utf8'), after['b.py'], "tug's intended content is saved for the user");
      t.true(existsSync(next.json.error.details.journal), 'the journal is kept');
      const again = await tug(repo.root, ['verify', '--verify', 'none']);
      t.deepEqual(again.json, next.json, 'recovery is idempotent: the same report, nothing written');
      t.is(await repo.readText('b.py'), USER_EDIT);
      const clean = await tug(repo.root, ['clean']);
      t.is(clean.exitCode, 0, clean.stdout);
      t.truthy(clean.json.removed.interrupted_apply, 'clean drops the interrupted change and says where it kept it');
      t.true(existsSync(path.join(clean.json.removed.interrupted_apply, 'journal.json')));
      t.is(await repo.readText('b.py'), USER_EDIT);
      t.deepEqual(await leftovers(repo), []);
      const later = await tug(repo.root, ['verify', '--verify', 'none']);
      t.is(later.exitCode, 0, later.stdout);
      await repo.cleanup();
    });

    test(`${mode}: killed at ${point}, no edits: the next call leaves every file ${prepare ? 'as before' : 'as after'}, git consistent`, async (t) => {
      const repo = await makeRepo(SOURCE);
      const { before, after } = await killAt(t, repo, mode, point);
      for (const file of ['a.py', 'b.py'] as const) t.true([before[file], after[file]].includes(await repo.readText(file)), `${file} is whole`);
      const next = await tug(repo.root, ['verify', '--verify', 'none']);
      t.is(next.exitCode, 0, next.stdout);
      const expected = prepare ? before : after;
      t.is(await repo.readText('a.py'), expected['a.py']);
      t.is(await repo.readText('b.py'), expected['b.py']);
      t.deepEqual(await leftovers(repo), []);
      if (mode === 'commit') {
        t.is(await repo.git('status', '--porcelain'), '', 'branch, index and files agree');
        t.is(await repo.git('rev-list', '--count', 'HEAD'), prepare ? '1' : '2');
      }
      await repo.cleanup();
    });
  }
}

test('a recovery killed halfway is run again to the same end', async (t) => {
  const repo = await makeRepo(SOURCE);
  await killAt(t, repo, 'commit', 'apply-after-commit-flip');
  const killed = await tug(repo.root, ['verify', '--verify', 'none'], { env: { TUG_FAULT_INJECT: 'recover-after-file' } });
  t.is(killed.exitCode, -1);
  const next = await tug(repo.root, ['verify', '--verify', 'none']);
  t.is(next.exitCode, 0, next.stdout);
  t.is(await repo.readText('a.py'), RENAMED['a.py']);
  t.is(await repo.readText('b.py'), RENAMED['b.py']);
  t.is(await repo.git('status', '--porcelain'), '');
  t.deepEqual(await leftovers(repo), []);
  await repo.cleanup();
});

test('commit: killed after the flip, the user checks out another branch: nothing is finished, RecoveryConflict names the ref', async (t) => {
  const repo = await makeRepo(SOURCE);
  const head = await repo.git('rev-parse', 'HEAD');
  await killAt(t, repo, 'commit', 'apply-after-commit-flip');
  // git refuses to check out while the killed tug's index.lock is there; the user removes it, as git's message suggests.
  await rm(path.join(repo.root, '.git', 'index.lock'));
  await repo.git('checkout', '-q', '-b', 'other');
  const next = await tug(repo.root, ['verify', '--verify', 'none']);
  t.is(next.exitCode, 4, next.stdout);
  t.is(next.json.error.code, 'RecoveryConflict');
  t.is(next.json.error.details.ref, 'refs/heads/main');
  t.is(await repo.git('rev-parse', 'main'), head, 'the branch stays where it was');
  t.is(await repo.readText('a.py'), SOURCE['a.py'], 'no file is written');
  t.is((await tug(repo.root, ['clean'])).exitCode, 0);
  t.deepEqual(await leftovers(repo), []);
  await repo.cleanup();
});
