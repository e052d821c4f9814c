// Runs several changes as one: each step planned on the tree the previous one produced and committed on it, then the
// last one taken down the whole road (verification of everything, branch, undo point covering every step, apply).
import { TugError } from '../../core/errors.js';
import type { RunResponseJSON } from '../../core/schemas.js';
import { writeNote } from '../../git/notes.js';
import { treeChanges } from '../../git/results.js';
import { buildRecord, recordText } from '../change/record.js';
import { runChange } from '../change/pipeline.js';
import { runAsStep, type RoadStep, type StepBase, type StepOutcome } from '../change/road-step.js';
import { patchBetween } from '../change/tree-patch.js';
import type { ChangeKind, ChangeOptions, Proposal } from '../change/types.js';
import type { OperationContext } from '../operation.js';
import type { Workspace } from '../workspace/workspace.js';

/** One step: runs its change (an operation's execute, or runChange) on `base`; the road records the outcome. */
export type StepRunner = (base: StepBase, index: number) => Promise<unknown>;

export interface ChainOptions {
  /** Record each commit as step i of n (a plan), so replay and show keep the steps together. */
  planned?: boolean;
  /** Runs after each step (inside its error scope, so a throw names the step): a plan's verify_each. */
  afterStep?: (index: number, base: StepBase, outcome: StepOutcome) => Promise<void>;
  /** The branch the last road makes (default: named after the last step). */
  branch?: string;
  /** The user's HEAD and whether the tree was dirty where the first step started: lets the last road --commit. */
  user?: RoadStep['user'];
  /** One commit for every step: this kind and subject on the change from the first base to the last tree. */
  squash?: { kind: ChangeKind; subject: string; slug: string };
}

export interface ChainResult {
  response: RunResponseJSON;
  /** Each step's outcome, in order. */
  outcomes: StepOutcome[];
}

/**
 * The steps one after the other, each on the previous one's commit; a failing step's error gets `details.step` (its
 * index) and nothing is left but unreferenced commits.
 */
export async function runChain(ws: Workspace, first: StepBase, runners: readonly StepRunner[], options: ChangeOptions, context: OperationContext, chain: ChainOptions = {}): Promise<ChainResult> {
  const planned = chain.planned === true;
  const outcomes: StepOutcome[] = [];
  const bases: StepBase[] = [];
  let base = first;
  for (const [index, runner] of runners.entries()) {
    const step: RoadStep = { base, mode: 'step' };
    context.progress?.(`step ${index + 1} of ${runners.length}`);
    await atStep(index, () => runAsStep(step, () => runner(base, index)));
    if (!step.outcome) throw new TugError('InternalError', `step ${index} made no change through the change road`, { details: { step: index } });
    const outcome = step.outcome;
    if (chain.afterStep) await atStep(index, () => chain.afterStep!(index, base, outcome));
    outcomes.push(step.outcome);
    bases.push(base);
    if (step.outcome.changed) base = { commit: step.outcome.commit, tree: step.outcome.tree, time: first.time };
  }
  const last = outcomes.map((o) => o.changed).lastIndexOf(true);
  if (last < 0) throw new TugError('InvalidArgument', 'no step changes anything on this base', { details: { argument: 'steps', reason: 'no-op' } });
  if (chain.squash) return { response: await squashed(ws, first, base, outcomes, options, context, chain), outcomes };
  const plan = (index: number) => (planned ? { index, steps: runners.length } : undefined);
  const finalBase = bases[last]!;
  const earlierFiles = finalBase.commit === first.commit ? [] : (await treeChanges(ws.repo, first.tree, finalBase.tree)).map((c) => c.path);
  const finish: RoadStep = { base: finalBase, mode: 'last', first, earlierFiles, ...(plan(last) ? { plan: plan(last)! } : {}), ...(chain.branch ? { branch: chain.branch } : {}), ...(chain.user ? { user: chain.user } : {}) };
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

/** The whole chain as one commit on `first`: verified, branched and recorded like a single operation. */
async function squashed(ws: Workspace, first: StepBase, tip: StepBase, outcomes: readonly StepOutcome[], options: ChangeOptions, context: OperationContext, chain: ChainOptions): Promise<RunResponseJSON> {
  const squash = chain.squash!;
  const proposal: Proposal = {
    patch: await patchBetween(ws.repo, first.tree, tip.tree),
    warnings: outcomes.flatMap((o) => o.proposal.warnings),
    unsure: outcomes.flatMap((o) => o.proposal.unsure ?? []),
    subject: squash.subject,
    slug: squash.slug,
  };
  const finish: RoadStep = { base: first, mode: 'last', first, ...(chain.branch ? { branch: chain.branch } : {}), ...(chain.user ? { user: chain.user } : {}) };
  return runAsStep(finish, () => runChange({ ...options, onto: undefined }, squash.kind, async () => proposal, context));
}

/** Runs `body` as step `index`: a TugError it throws gets `details.step` and a message that names the step. */
export async function atStep<T>(index: number, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (!(error instanceof TugError) || error.details?.['step'] !== undefined) throw error;
    const atIndex = new TugError(error.code, `step ${index}: ${error.message}`, { details: { ...error.details, step: index }, location: error.location, cause: error });
    atIndex.snapshotId = error.snapshotId;
    throw atIndex;
  }
}
