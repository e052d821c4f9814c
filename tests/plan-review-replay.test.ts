// tug review and a branch whose base moved: the list and the opened result say so, the header asks for r, and r runs
// replay — a new verified branch opened in the old one's place, the old one left as it was.
import test from 'ava';
import { createReviewKernel } from '../lib/review/kernel.js';
import { initialState, step, type ReviewState } from '../ui/review-state.js';
import { resultRows } from '../ui/view-model.js';
import { tug } from './helpers/cli.js';
import { makeProject, moveBase } from './helpers/replay-project.js';
import { sampleResult } from './helpers/review.js';

const ENV = { TUG_NO_DAEMON: '1' };

function opened(result = sampleResult()): ReviewState {
  return step(initialState(result.branch).state, { type: 'opened', result }).state;
}

test('r replays a stale result and does nothing on a current one', (t) => {
  const fresh = step(opened(), { type: 'key', input: 'r', key: {} });
  t.is(fresh.effect, undefined);
  t.regex(fresh.state.message!.text, /base has not moved/);
  const stale = { ...sampleResult(), stale: { behind: 2 } };
  const pressed = step(opened(stale), { type: 'key', input: 'r', key: {} });
  t.deepEqual(pressed.effect, { type: 'replay', result: stale });
  t.regex(pressed.state.busy!, /replaying/);
  const replayed = { ...sampleResult(), branch: `${stale.branch}-2` };
  const after = step(pressed.state, { type: 'outcome', effect: 'replay', outcome: { ok: true, message: 'replayed', result: replayed } });
  t.is(after.state.result!.branch, `${stale.branch}-2`);
  t.deepEqual(after.state.log, ['replayed']);
});

test('the kernel reports a moved base in the list and the result, and replay opens the new branch', async (t) => {
  t.timeout(600_000);
  const repo = await makeProject();
  t.teardown(() => repo.cleanup());
  const made = await tug(repo.root, ['rename', 'src/shop/pricing.py:6:5', 'calculate_total', '--verify', 'none', '--json'], { env: ENV });
  t.is(made.exitCode, 0, made.stdout + made.stderr);
  const branch = made.json.git.branch;
  const kernel = createReviewKernel({ workspace: repo.root, verify: 'tests' });
  t.is((await kernel.open(branch)).stale, undefined, 'fresh while HEAD is its base');
  await moveBase(repo);
  const [summary] = await kernel.list();
  t.like(summary, { branch, stale: true });
  t.regex(resultRows([summary!], 0, Date.now())[0]!.text, /base moved: open it and press r to replay/);
  const result = await kernel.open(branch);
  t.deepEqual(result.stale, { behind: 1 });
  const tip = await repo.git('rev-parse', branch);
  const outcome = await kernel.replay(result);
  t.true(outcome.ok, outcome.message);
  t.regex(outcome.message, new RegExp(`as ${branch}-2 \\(verification passed\\)`));
  t.is(outcome.result!.branch, `${branch}-2`);
  t.is(outcome.result!.stale, undefined, 'the replayed branch is made on the current HEAD');
  t.true(outcome.result!.files.some((f) => f.path === 'src/shop/report.py'), 'the new caller is renamed too');
  t.is(await repo.git('rev-parse', branch), tip, 'the old branch is left as it was');
  // A second replay of the old branch with nothing left to find is refused as an outcome, not a crash.
  await repo.write('src/shop/pricing.py', (await repo.readText('src/shop/pricing.py')).replace('def compute_total(', 'def grand_total('));
  await repo.git('commit', '-qam', 'renamed by hand');
  const refused = await kernel.replay(await kernel.open(branch));
  t.false(refused.ok);
  t.regex(refused.message, /^replay refused \(SymbolNotFound\)/);
});
