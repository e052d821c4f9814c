// tug run --plan: ten refactors on a real-layout package as one change (one branch, a commit per step, tests run once),
// a failing step named by its index with nothing written, --squash, undo of the whole, replay on a moved base, and the
// analyze-impact preview. Real git, the real Python worker, the package's own pytest suite.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { tug } from './helpers/cli.js';
import { OLD_NAMES, PLAN_PROJECT, PLAN_STEPS } from './helpers/plan-project.js';
import { makeRepo, repoState, type TestRepo } from './helpers/repo.js';

const ENV = { TUG_NO_DAEMON: '1' };
const plan = (steps: unknown[]) => JSON.stringify({ steps });

async function everyRef(repo: TestRepo): Promise<string> {
  return repo.git('for-each-ref', '--format=%(refname) %(objectname)');
}

/** The old names still written as words in src/ and tests/ of `rev`. */
async function oldNamesLeft(repo: TestRepo, rev: string): Promise<string[]> {
  const left: string[] = [];
  for (const name of OLD_NAMES) {
    const found = await execa('git', ['grep', '-w', '-l', name, rev, '--', 'src', 'tests'], { cwd: repo.root, reject: false });
    if (found.stdout.trim()) left.push(`${name}: ${found.stdout.trim()}`);
  }
  return left;
}

async function pytest(repo: TestRepo): Promise<{ code: number; output: string }> {
  const run = await execa('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], { cwd: repo.root, reject: false });
  return { code: run.exitCode ?? -1, output: run.stdout + run.stderr };
}

test('ten steps make one branch with a commit each, verified once, whose tests pass with no old name left', async (t) => {
  t.timeout(900_000);
  const repo = await makeRepo(PLAN_PROJECT);
  t.teardown(() => repo.cleanup());
  const base = await repo.git('rev-parse', 'HEAD');
  const run = await tug(repo.root, ['run', '--plan=-', '--verify', 'tests', '--json'], { input: plan(PLAN_STEPS), env: ENV });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  const result = run.json;
  t.is(result.operation, 'run-plan');
  t.is(result.git.branch, 'tug/plan/rename-symbol-cents_of-and-9-more');
  t.deepEqual(result.plan.steps.map((s: any) => [s.index, s.operation, s.changed]), PLAN_STEPS.map((s, i) => [i, String(s['operation']).replace('_', '-'), true]));
  t.like(result.plan, { squashed: false, verified: 'once' });
  // The tests ran once, on the last tree: one tests check in the answer, and the records say so per commit.
  t.is(result.verification.status, 'passed');
  t.is(result.verification.checks.filter((c: any) => c.name === 'tests').length, 1);
  const commits = (await repo.git('rev-list', '--reverse', `${base}..${result.git.branch}`)).split('\n');
  t.deepEqual(commits, result.plan.steps.map((s: any) => s.commit));
  t.is(await repo.git('rev-parse', `${commits[0]}^`), base);
  const shown = await tug(repo.root, ['show', result.git.branch, '--json'], { env: ENV });
  const records = shown.json.branch.steps.map((s: any) => s.record);
  t.deepEqual(records.map((r: any) => r.plan), commits.map((_, index) => ({ index, steps: 10 })));
  t.deepEqual(records.map((r: any) => r.verification.status), [...Array(9).fill('skipped'), 'passed']);
  t.deepEqual(records.map((r: any) => r.operation), result.plan.steps.map((s: any) => s.operation));
  // The whole plan's patch, and the branch merged for real passes the package's own tests.
  t.true(result.patch.files_created.includes('src/ledger/formatting.py'));
  t.regex(result.patch.unified_diff, /def total_due\(lines, tax_rate=0\.2, discount=0\)/);
  t.is(await repo.git('status', '--porcelain'), '', 'the working tree was not touched');
  await repo.git('merge', '--ff-only', '-q', result.git.branch);
  const tests = await pytest(repo);
  t.is(tests.code, 0, tests.output);
  t.deepEqual(await oldNamesLeft(repo, 'HEAD'), []);
});

test('a failing step stops the plan with its own code and index; no branch, ref, note or file is written', async (t) => {
  t.timeout(600_000);
  const repo = await makeRepo(PLAN_PROJECT);
  t.teardown(() => repo.cleanup());
  const before = { state: await repoState(repo), refs: await everyRef(repo) };
  // Step 2 renames ROUNDING to the name step 1 gave from_cents: only the tree step 1 made has that collision.
  const steps = [PLAN_STEPS[0], PLAN_STEPS[1], { ...PLAN_STEPS[2], new_name: 'amount_of' }, PLAN_STEPS[3]];
  const run = await tug(repo.root, ['run', '--plan=-', '--verify', 'none', '--json'], { input: plan(steps), env: ENV });
  t.is(run.exitCode, 4, run.stdout + run.stderr);
  t.is(run.json.error.code, 'NameConflict');
  t.is(run.json.error.details.step, 2);
  t.regex(run.json.error.message, /^step 2: /);
  t.deepEqual({ state: await repoState(repo), refs: await everyRef(repo) }, before);

  // A step that carries a field of the whole plan, and plan files that are not plans, are refused before any work.
  const misplaced = await tug(repo.root, ['run', '--plan=-', '--json'], { input: plan([PLAN_STEPS[0], { ...PLAN_STEPS[1], verify: 'tests' }]), env: ENV });
  t.is(misplaced.exitCode, 2);
  t.like(misplaced.json.error, { code: 'InvalidArgument', details: { argument: 'steps.1.verify', step: 1 } });
  for (const text of ['{"steps": ', '[1, 2]', '{"steps": [], "name": "x"}']) {
    const bad = await tug(repo.root, ['run', '--plan=-', '--json'], { input: text, env: ENV });
    t.is(bad.exitCode, 2, text);
    t.like(bad.json.error, { code: 'InvalidArgument', details: { argument: 'plan' } }, text);
  }
  const empty = await tug(repo.root, ['run', '--plan=-', '--json'], { input: '{"steps": []}', env: ENV });
  t.is(empty.json.error.code, 'InvalidArgument');
  const unknown = await tug(repo.root, ['run', '--plan=-', '--json'], { input: plan([{ operation: 'rename-simbol' }]), env: ENV });
  t.like(unknown.json.error, { code: 'UnsupportedOperation', details: { step: 0, did_you_mean: 'rename-symbol' } });
  t.deepEqual({ state: await repoState(repo), refs: await everyRef(repo) }, before);
});

test('--verify-each checks every step: a step that breaks the tests is named even when a later one mends them', async (t) => {
  t.timeout(600_000);
  const repo = await makeRepo(PLAN_PROJECT);
  t.teardown(() => repo.cleanup());
  const edit = (from: string, to: string) => ({ operation: 'apply-patchset', patchset: { edits: [{ file: 'src/ledger/money.py', line: 3, col: 1, old_text: from, new_text: to }] } });
  const steps = [PLAN_STEPS[0], edit('ROUNDING = 2', 'ROUNDING = 0'), edit('ROUNDING = 0', 'ROUNDING = 2')];
  const once = await tug(repo.root, ['run', '--plan=-', '--verify', 'tests', '--json'], { input: plan(steps), env: ENV });
  t.is(once.exitCode, 0, once.stdout + once.stderr);
  const each = await tug(repo.root, ['run', '--plan=-', '--verify', 'tests', '--verify-each', '--json'], { input: plan(steps), env: ENV });
  t.is(each.exitCode, 5, each.stdout);
  t.like(each.json.error, { code: 'VerificationFailed', details: { step: 1 } });
});

test('--squash makes one commit; --apply writes the whole plan and one undo token takes all of it back', async (t) => {
  t.timeout(600_000);
  const repo = await makeRepo(PLAN_PROJECT);
  t.teardown(() => repo.cleanup());
  const base = await repo.git('rev-parse', 'HEAD');
  const run = await tug(repo.root, ['run', '--plan=-', '--squash', '--apply', '--verify', 'tests', '--json'], { input: plan(PLAN_STEPS.slice(0, 4)), env: ENV });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  t.like(run.json.plan, { squashed: true });
  t.true(run.json.plan.steps.every((s: any) => s.commit === null && s.changed));
  t.is(await repo.git('rev-parse', `${run.json.git.branch}^`), base, 'one commit on the base');
  t.regex(await repo.git('log', '-1', '--format=%s', run.json.git.branch), /^refactor\(plan\): plan of 4 steps/);
  t.deepEqual(run.json.files_written, ['src/ledger/__init__.py', 'src/ledger/accounts.py', 'src/ledger/invoices.py', 'src/ledger/money.py', 'tests/test_accounts.py', 'tests/test_money.py']);
  t.regex(await repo.readText('src/ledger/accounts.py'), /class LedgerAccount:/);
  const undone = await tug(repo.root, ['undo', run.json.undo_token, '--json'], { env: ENV });
  t.is(undone.exitCode, 0, undone.stdout);
  t.is(await repo.git('status', '--porcelain'), '');
});

test('a plan replays as a unit on a moved base: the new callers of old names are changed too, and it merges clean', async (t) => {
  t.timeout(900_000);
  const repo = await makeRepo(PLAN_PROJECT);
  t.teardown(() => repo.cleanup());
  const steps = [PLAN_STEPS[0], PLAN_STEPS[5], PLAN_STEPS[8]];
  const made = await tug(repo.root, ['run', '--plan=-', '--verify', 'none', '--json'], { input: plan(steps), env: ENV });
  t.is(made.exitCode, 0, made.stdout + made.stderr);
  const branch = made.json.git.branch;
  // The base moves: a new module calls two of the old names, and a line above a renamed definition is edited.
  await repo.write('src/ledger/budget.py', 'from ledger.invoices import invoice_total\nfrom ledger.money import to_cents\n\n\ndef over_budget(lines, limit):\n    return to_cents(invoice_total(lines)) > to_cents(limit)\n');
  await repo.write('tests/test_budget.py', 'from ledger.budget import over_budget\n\n\ndef test_over():\n    assert over_budget([("tea", 10)], 11)\n');
  await repo.write('src/ledger/money.py', (await repo.readText('src/ledger/money.py')).replace('"""Amounts as integer cents."""', '"""Amounts as integer cents (never floats)."""'));
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', 'budget checks');

  const replayed = await tug(repo.root, ['replay', branch, '--verify', 'tests', '--json'], { env: ENV });
  t.is(replayed.exitCode, 0, replayed.stdout + replayed.stderr);
  t.is(replayed.json.git.branch, `${branch}-2`);
  t.deepEqual(replayed.json.replay.steps.map((s: any) => [s.operation, s.replay, s.changed]), [['rename-symbol', 'operation', true], ['rename-symbol', 'operation', true], ['change-signature', 'operation', true]]);
  t.regex(await repo.git('show', `${branch}-2:src/ledger/budget.py`), /cents_of\(total_due\(lines\)\) > cents_of\(limit\)/);
  const shown = await tug(repo.root, ['show', `${branch}-2`, '--json'], { env: ENV });
  t.deepEqual(shown.json.branch.steps.map((s: any) => s.record.plan), [0, 1, 2].map((index) => ({ index, steps: 3 })));
  await repo.git('merge', '--ff-only', '-q', `${branch}-2`);
  const tests = await pytest(repo);
  t.is(tests.code, 0, tests.output);
  for (const name of ['to_cents', 'invoice_total']) t.is((await execa('git', ['grep', '-w', name, '--', 'src', 'tests'], { cwd: repo.root, reject: false })).stdout, '', name);
});

test('analyze-impact --plan previews every step and the whole patch, writing nothing', async (t) => {
  t.timeout(600_000);
  const repo = await makeRepo(PLAN_PROJECT);
  t.teardown(() => repo.cleanup());
  const before = { state: await repoState(repo), refs: await everyRef(repo) };
  const preview = await tug(repo.root, ['analyze-impact', '--plan=-', '--json'], { input: plan(PLAN_STEPS), env: ENV });
  t.is(preview.exitCode, 0, preview.stdout + preview.stderr);
  t.is(preview.json.plan.steps.length, 10);
  t.deepEqual(preview.json.plan.steps[7].files, ['src/ledger/formatting.py', 'src/ledger/reports.py', 'tests/test_reports.py']);
  t.regex(preview.json.plan.steps[9].patch.unified_diff, / import json\n\+import os\n\+import sys/);
  t.true(preview.json.patch.files_created.includes('src/ledger/formatting.py'));
  t.is(preview.json.summary.files_changed, 11);
  t.deepEqual({ state: await repoState(repo), refs: await everyRef(repo) }, before);
  // The same steps run give the same whole patch the preview showed.
  const run = await tug(repo.root, ['run', '--plan=-', '--verify', 'none', '--json'], { input: plan(PLAN_STEPS), env: ENV });
  t.is(run.json.patch.unified_diff, preview.json.patch.unified_diff);
});

test('--commit moves the current branch over every step of a plan, and a replay --commit does the same on the moved base', async (t) => {
  t.timeout(600_000);
  const repo = await makeRepo(PLAN_PROJECT);
  t.teardown(() => repo.cleanup());
  const base = await repo.git('rev-parse', 'HEAD');
  const run = await tug(repo.root, ['run', '--plan=-', '--commit', '--verify', 'syntax', '--json'], { input: plan([PLAN_STEPS[0], PLAN_STEPS[3]]), env: ENV });
  t.is(run.exitCode, 0, run.stdout + run.stderr);
  t.true(run.json.committed);
  t.is(await repo.git('rev-parse', 'main'), run.json.git.commit);
  t.is(await repo.git('rev-parse', 'main~2'), base);
  t.is(await repo.git('status', '--porcelain'), '');
  t.regex(await repo.readText('src/ledger/accounts.py'), /class LedgerAccount:\n/);
  const undone = await tug(repo.root, ['undo', run.json.undo_token, '--json'], { env: ENV });
  t.is(undone.exitCode, 0, undone.stdout);
  t.is(await repo.git('rev-parse', 'main'), base, 'undo moves the branch back over both steps');

  await repo.write('src/ledger/extra.py', 'from ledger.money import to_cents\n\nONE = to_cents(1)\n');
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', 'extra');
  const moved = await repo.git('rev-parse', 'HEAD');
  const replayed = await tug(repo.root, ['replay', run.json.git.branch, '--commit', '--verify', 'syntax', '--json'], { env: ENV });
  t.is(replayed.exitCode, 0, replayed.stdout + replayed.stderr);
  t.true(replayed.json.committed);
  t.is(await repo.git('rev-parse', 'main~2'), moved);
  t.is(await repo.readText('src/ledger/extra.py'), 'from ledger.money import cents_of\n\nONE = cents_of(1)\n');
  const refused = await tug(repo.root, ['replay', run.json.git.branch, '--commit', '--onto', 'HEAD~1', '--json'], { env: ENV });
  t.like(refused.json.error, { code: 'InvalidArgument', details: { argument: 'commit' } });
});
