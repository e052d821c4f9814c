// The next step a rename prints works in the state the user is in: `git merge` on a clean tree, and on a dirty tree
// `tug apply BRANCH`, which brings just the refactor in beside the user's uncommitted and untracked files.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { TUG_BIN, tug } from './helpers/cli.js';
import { FIXED_ENV, makeRepo, type TestRepo } from './helpers/repo.js';
import { tugOnTerminal } from './helpers/pty.js';

const APP = 'def process_data(x):\n    return x\n';
const MAIN = 'from app import process_data\n\nprint(process_data(2))\n';

/** Runs the printed command as a person would: `tug …` is this checkout's tug, `git …` is git. */
async function runPrinted(repo: TestRepo, line: string) {
  const [program, ...args] = line.trim().split(/\s+/);
  const argv = program === 'tug' ? ['node', TUG_BIN, ...args] : [program!, ...args];
  return execa(argv[0]!, argv.slice(1), { cwd: repo.root, reject: false, env: FIXED_ENV, stdin: 'ignore' });
}

function printedNext(screen: string): string {
  const line = /^ {2}(?:merge|next) +(.+?)(?: {3}\(.*\))?$/m.exec(screen)?.[1];
  if (!line) throw new Error(`no next step in:\n${screen}`);
  return line;
}

test('clean tree: the printed `git merge BRANCH` merges the refactor', async (t) => {
  const repo = await makeRepo({ 'app.py': APP, 'main.py': MAIN });
  const run = await tugOnTerminal(repo.root, ['rename', 'app.py:1:5', 'transform_data']);
  t.is(run.exitCode, 0, run.screen);
  const next = printedNext(run.screen);
  t.is(next, 'git merge tug/rename/process_data-to-transform_data');
  const merged = await runPrinted(repo, next);
  t.is(merged.exitCode, 0, merged.stderr);
  t.regex(await repo.readText('main.py'), /transform_data\(2\)/);
  t.is(await repo.git('status', '--porcelain'), '');
  await repo.cleanup();
});

test('dirty tree: git merge would refuse; the printed `tug apply BRANCH` brings just the refactor and keeps the user state', async (t) => {
  const repo = await makeRepo({ 'app.py': APP, 'main.py': MAIN });
  await repo.write('main.py', `${MAIN}# my uncommitted note\n`);
  await repo.write('notes.txt', 'untracked, mine\n');
  await repo.git('add', 'main.py');
  await repo.write('app.py', `${APP}\n\nEXTRA = 1  # not staged\n`);
  const head = await repo.git('rev-parse', 'HEAD');
  const index = await repo.git('diff', '--cached');
  const run = await tugOnTerminal(repo.root, ['rename', 'app.py:1:5', 'transform_data']);
  t.is(run.exitCode, 0, run.screen);
  const next = printedNext(run.screen);
  t.is(next, 'tug apply tug/rename/process_data-to-transform_data');
  t.regex(run.screen, /your uncommitted changes stay/);

  // What the screen used to say fails here: the branch starts from a snapshot of these very files.
  const merge = await execa('git', ['merge', 'tug/rename/process_data-to-transform_data'], { cwd: repo.root, reject: false, env: FIXED_ENV });
  t.not(merge.exitCode, 0);
  t.is(await repo.git('rev-parse', 'HEAD'), head, 'the refused merge moved nothing');

  // The refactor commit itself holds only the rename; the user's state is in its parent, the snapshot commit.
  const own = await repo.git('diff', '--name-only', 'tug/rename/process_data-to-transform_data~1', 'tug/rename/process_data-to-transform_data');
  t.deepEqual(own.split('\n'), ['app.py', 'main.py']);
  t.regex(await repo.git('diff', 'tug/rename/process_data-to-transform_data~1', 'tug/rename/process_data-to-transform_data'), /^-def process_data\(x\):\n\+def transform_data\(x\):$/m);

  const applied = await runPrinted(repo, next);
  t.is(applied.exitCode, 0, applied.stderr);
  t.is(await repo.readText('app.py'), 'def transform_data(x):\n    return x\n\n\nEXTRA = 1  # not staged\n');
  t.is(await repo.readText('main.py'), 'from app import transform_data\n\nprint(transform_data(2))\n# my uncommitted note\n');
  t.is(await repo.readText('notes.txt'), 'untracked, mine\n');
  t.is(await repo.git('rev-parse', 'HEAD'), head, 'HEAD stays');
  t.is(await repo.git('diff', '--cached'), index, 'the index stays');

  // JSON for programs, and the undo the apply hands back restores the user's files exactly.
  const again = await tug(repo.root, ['apply', 'tug/rename/process_data-to-transform_data']);
  t.is(again.exitCode, 4, 'a second apply finds the files changed since the snapshot and writes nothing');
  t.is(again.json.error.code, 'SnapshotMismatch');
  const token = (JSON.parse(applied.stdout) as { undo_token: string }).undo_token;
  t.regex(token, /^undo_[0-9a-f]+$/);
  const undo = await tug(repo.root, ['undo', token]);
  t.is(undo.exitCode, 0, undo.stdout);
  t.is(await repo.readText('main.py'), `${MAIN}# my uncommitted note\n`);
  t.is(await repo.readText('app.py'), `${APP}\n\nEXTRA = 1  # not staged\n`);
  await repo.cleanup();
});

test('tug apply --json reports the branch, the files written and the undo token; an unknown branch is an error', async (t) => {
  const repo = await makeRepo({ 'app.py': APP, 'main.py': MAIN });
  await repo.write('app.py', `${APP}# dirty\n`);
  const run = await tug(repo.root, ['rename', 'app.py:1:5', 'transform_data']);
  t.true(run.json.git.dirty);
  const screen = await tugOnTerminal(repo.root, ['apply', run.json.git.branch]);
  t.is(screen.exitCode, 0, screen.screen);
  t.regex(screen.screen, /^applied tug\/rename\/process_data-to-transform_data \([0-9a-f]{12}\) to the working tree: app\.py, main\.py\n {2}undo {4}tug undo undo_/m);
  const token = /tug undo (undo_[0-9a-f]+)/.exec(screen.screen)![1]!;
  t.is((await tug(repo.root, ['undo', token])).exitCode, 0);
  const applied = await tug(repo.root, ['apply', run.json.git.branch, '--json']);
  t.is(applied.exitCode, 0, applied.stdout);
  t.deepEqual(applied.json.files_written, ['app.py', 'main.py']);
  t.is(applied.json.commit, run.json.git.commit);
  t.regex(applied.json.undo_token, /^undo_/);
  const missing = await tug(repo.root, ['apply', 'tug/rename/nope']);
  t.is(missing.exitCode, 2);
  t.is(missing.json.error.code, 'InvalidArgument');
  await repo.cleanup();
});

test('after --apply the screen says to commit the files (and how to undo), and never suggests merging the branch', async (t) => {
  const repo = await makeRepo({ 'app.py': APP, 'main.py': MAIN });
  const run = await tugOnTerminal(repo.root, ['rename', 'app.py:1:5', 'transform_data', '--apply', '--verify', 'none']);
  t.is(run.exitCode, 0, run.screen);
  const next = /^ {2}next +(.+?) {3}\(.*\)$/m.exec(run.screen)?.[1];
  t.is(next, 'git add -- app.py main.py && git commit');
  t.regex(run.screen, /^ {2}undo +tug undo undo_[0-9a-f]+$/m);
  t.notRegex(run.screen, /git merge/);
  // The printed command works as printed (a message added, as the editor would ask for one).
  const committed = await execa('sh', ['-c', `${next} -q -m 'rename'`], { cwd: repo.root, reject: false, env: FIXED_ENV });
  t.is(committed.exitCode, 0, committed.stderr);
  t.is(await repo.git('status', '--porcelain'), '');
  t.regex(await repo.readText('main.py'), /transform_data\(2\)/);
  await repo.cleanup();
});
