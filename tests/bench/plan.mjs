// A ten-step plan (renames, a move, a change-signature, an organize-imports) on a src-layout package with its own pytest
// suite, against the same ten operations run one by one, each with --verify tests and --commit so the next one starts
// from it: the plan runs the tests once, the one-by-one road ten times. Every process is a fresh one (no daemon).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fmt, git, median, NO_DAEMON, row, timed, TUG } from './lib.mjs';

const { PLAN_PROJECT, PLAN_STEPS } = await import(new URL('../../dist/tests/helpers/plan-project.js', import.meta.url).href);

function freshProject() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tug-bench-plan-'));
  for (const [file, text] of Object.entries(PLAN_PROJECT)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Bench');
  git(dir, 'config', 'user.email', 'bench@example.com');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'ledger');
  return dir;
}

function asJson(run) {
  const json = JSON.parse(run.stdout);
  if (json.status !== 'ok') throw new Error(`tug answered ${run.stdout.slice(0, 2000)}`);
  return json;
}

/** The plan: one process, ten steps, tests once. */
function planOnce() {
  const dir = freshProject();
  try {
    const file = path.join(dir, '.git', 'tug-plan.json');
    writeFileSync(file, JSON.stringify({ steps: PLAN_STEPS }));
    const run = timed(TUG, ['run', '--plan', file, '--verify', 'tests', '--json'], { cwd: dir, env: NO_DAEMON });
    const json = asJson(run);
    return { ms: run.ms, tests: json.verification.checks.filter((c) => c.name === 'tests').length, tree: git(dir, 'rev-parse', `${json.git.commit}^{tree}`) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same steps through `tug tool tug_<op>` (the MCP fields as they are), each verified with the tests and committed. */
function oneByOne() {
  const dir = freshProject();
  try {
    let ms = 0;
    let tests = 0;
    for (const { operation, ...fields } of PLAN_STEPS) {
      const tool = `tug_${operation.replaceAll('-', '_')}`;
      const run = timed(TUG, ['tool', tool, '--args', JSON.stringify({ ...fields, verify: 'tests', commit: true }), '--json'], { cwd: dir, env: NO_DAEMON });
      ms += run.ms;
      tests += asJson(run).verification.checks.filter((c) => c.name === 'tests').length;
    }
    return { ms, tests, tree: git(dir, 'rev-parse', 'HEAD^{tree}') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function planBench(runs) {
  const plans = [];
  const singles = [];
  for (let i = 0; i < runs; i++) {
    plans.push(planOnce());
    singles.push(oneByOne());
  }
  // Both roads must end at the same tree, or the comparison compares different work.
  const trees = new Set([...plans, ...singles].map((r) => r.tree));
  return { runs, plan: plans, single: singles, sameTree: trees.size === 1, load: os.loadavg()[0] };
}

export function planReport(result) {
  const plan = median(result.plan.map((r) => r.ms));
  const single = median(result.single.map((r) => r.ms));
  return [
    '### Plans: ten refactors as one change',
    '',
    `A ten-step plan (7 renames, a move-symbol, a change-signature, an organize-imports) on a src-layout package with a 65-test pytest suite, against the same operations one by one, each \`--verify tests --commit\`; fresh processes, no daemon; median of ${result.runs}; load average ${result.load.toFixed(1)} at the end. Both end at the same tree: ${result.sameTree ? 'yes' : 'NO'}.`,
    '',
    row(['road', 'time', 'test runs']),
    row(['---', '---:', '---:']),
    row(['`tug run --plan` (verified once)', fmt(plan), String(result.plan[0].tests)]),
    row(['10 × `tug tool … verify:tests commit:true`', fmt(single), String(result.single[0].tests)]),
    row(['ratio plan / one by one', (plan / single).toFixed(2), '']),
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? 1);
  const result = planBench(runs);
  process.stdout.write(`${planReport(result)}\n`);
  process.stderr.write(`${JSON.stringify({ plan: result.plan.map((r) => r.ms), single: result.single.map((r) => r.ms) })}\n`);
}
