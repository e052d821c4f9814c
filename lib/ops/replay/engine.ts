// Runs several changes as one: each step planned on the tree the previous one produced and committed on it, then the
// last one taken down the whole road (verification of everything, branch, undo point covering every step, apply).
import { TugError } from '../../core/errors.js';
import type { RunResponseJSON } from '../../core/schemas.js';
import { writeNote } from '../../git/notes.js';
import { treeChanges } from '../../git/results.js';
import { buildRecord, recordText } from '../change/record.js';
import { runChange } from '../change/pipeline.js';
import { runAsStep, type RoadStep, type StepBase, type StepOutcome } from '../change/road-step.js';
import type { ChangeOptions } from '../change/types.js';
import type { OperationContext } from '../operation.js';
import type { Workspace } from '../workspace/workspace.js';

/** One step: runs its change (an operation's execute, or runChange) on `base`; the road records the outcome. */
export type StepRunner = (base: StepBase, index: number) => Promise<unknown>;

export interface ChainResult {
  response: RunResponseJSON;
  /** Each step's outcome, in order. */
  outcomes: StepOutcome[];
}

/**
 * The steps one after the other, each on the previous one's commit; a failing step's error gets `details.step` (its
 * index) and nothing is left but unreferenced commits. `planned` records each commit as step i of n.
 */
export async function runChain(ws: Workspace, first: StepBase, runners: readonly StepRunner[], options: ChangeOptions, context: OperationContext, planned: boolean): Promise<ChainResult> {
  const outcomes: StepOutcome[] = [];
  const bases: StepBase[] = [];
  let base = first;
  for (const [index, runner] of runners.entries()) {
    const step: RoadStep = { base, mode: 'step' };
    context.progress?.(`step ${index + 1} of ${runners.length}`);
    await atStep(index, () => runAsStep(step, () => runner(base, index)));
    if (!step.outcome) throw new TugError('InternalError', `step ${index} made no change through the change road`, { details: { step: index } });
    outcomes.push(step.outcome);
    bases.push(base);
    if (step.outcome.changed) base = { commit: step.outcome.commit, tree: step.outcome.tree, time: first.time };
  }
  const last = outcomes.map((o) => o.changed).lastIndexOf(true);
  if (last < 0) throw new TugError('InvalidArgument', 'no step changes anything on this base', { details: { argument: 'steps', reason: 'no-op' } });
  const plan = (index: number) => (planned ? { index, steps: runners.length } : undefined);
  const finalBase = bases[last]!;
  const earlierFiles = finalBase.commit === first.commit ? [] : (await treeChanges(ws.repo, first.tree, finalBase.tree)).map((c) => c.path);
  const finish: RoadStep = { base: finalBase, mode: 'last', first, earlierFiles, ...(plan(last) ? { plan: plan(last)! } : {}) };
  const chosen = outcomes[last]!;
  const response = await atStep(last, () =>
    runAsStep(finish, () => runChange({ ...options, onto: undefined }, { ...chosen.kind, arguments: chosen.input }, async () => chosen.proposal, context)),
  );
  outcomes[last] = finish.outcome ?? chosen;
  // The earlier steps' commits stay as they were made; their records say they were verified with the last one. Written
  // only now, so a last step that fails leaves refs/notes/tug as it was.
  for (const [index, outcome] of outcomes.entries()) {
    if (index >= last || !outcome.changed) continue;
    const record = buildRecord({
      operation: outcome.kind.operation,
      input: outcome.input,
      symbol: outcome.proposal.symbol,
      tools: outcome.proposal.tools,
      snapshot: bases[index]!.tree,
      base: bases[index]!.commit,
      verification: { status: 'skipped', mode: 'none', checks: [] },
      plan: plan(index),
    });
    await writeNote(ws.repo, outcome.commit, recordText(record));
  }
  return { response, outcomes };
}

async function atStep<T>(index: number, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (!(error instanceof TugError) || error.details?.['step'] !== undefined) throw error;
    const atIndex = new TugError(error.code, `step ${index}: ${error.message}`, { details: { ...error.details, step: index }, location: error.location, cause: error });
    atIndex.snapshotId = error.snapshotId;
    throw atIndex;
  }
}
