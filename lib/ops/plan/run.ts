// `tug run --plan FILE` (MCP tug_run_plan, library runPlan): several refactors as one verified change. Each step is
// planned on the tree the previous one made and committed on it; the last tree is verified once (verify_each: every
// tree); the result is one branch with a commit per step (or one, squash) and one undo token for the whole.
import type { z } from 'zod';
import { TugError } from '../../core/errors.js';
import { summarize } from '../../core/patchset.js';
import { slugify } from '../../core/slug.js';
import { treeOf } from '../../git/refs.js';
import { failedNames, touchedPaths } from '../change/parts.js';
import { orderWarnings, presentPatch, presentVerification } from '../change/present.js';
import type { StepBase, StepOutcome } from '../change/road-step.js';
import { verifyInSandbox } from '../change/steps.js';
import { patchBetween } from '../change/tree-patch.js';
import type { ChangeOptions } from '../change/types.js';
import { orderUnsure } from '../change/unsure.js';
import type { OperationContext } from '../operation.js';
import { runChain, type ChainOptions } from '../replay/engine.js';
import { configFor } from '../workspace/config.js';
import { assertSnapshot, snapshotCommit, takeSnapshot } from '../workspace/snapshot.js';
import { withWorkspace, type Workspace } from '../workspace/workspace.js';
import { PlanResponse, type PlanResponseJSON, type runPlanInput } from './schema.js';
import { carriedFields, prepareSteps, type PreparedStep } from './steps.js';

type Input = z.infer<typeof runPlanInput>;

export async function runPlan(input: Input, context: OperationContext): Promise<PlanResponseJSON> {
  const { steps, verify_each: verifyEach, squash, ...rest } = input;
  const options: ChangeOptions = rest;
  return withWorkspace(input, { lock: true, signal: context.signal, onWait: context.progress }, async (ws) => {
    // Every step is checked before the first one runs: a bad step 7 costs nothing.
    const prepared = await prepareSteps(steps, carriedFields(input));
    const snapshot = await takeSnapshot(ws);
    try {
      await assertSnapshot(ws, snapshot, input.snapshot);
      const first: StepBase = { commit: await snapshotCommit(ws, snapshot), tree: snapshot.tree, time: snapshot.head.time ?? 0 };
      const runners = prepared.map((step) => async () => {
        await step.operation.execute(step.input, context);
      });
      const chain: ChainOptions = { planned: true, branch: planBranch(prepared), user: { head: snapshot.head, dirty: snapshot.dirty } };
      if (verifyEach) chain.afterStep = await verifier(ws, options, prepared.length, context);
      if (squash) chain.squash = { kind: { operation: 'run-plan', scope: 'plan', arguments: { steps } }, subject: squashSubject(prepared), slug: 'plan' };
      const { response, outcomes } = await runChain(ws, first, runners, options, context, chain);
      const whole = await patchBetween(ws.repo, first.tree, await treeOf(ws.repo, response.git!.commit));
      const unsure = orderUnsure(outcomes.flatMap((o) => o.proposal.unsure ?? []));
      return PlanResponse.parse({
        ...response,
        snapshot_id: snapshot.tree,
        operation: 'run-plan',
        patch: presentPatch(whole),
        summary: summarize(whole),
        warnings: orderWarnings([...ws.warnings, ...outcomes.flatMap((o) => o.proposal.warnings)]),
        ...(unsure.length > 0 ? { unsure } : {}),
        git: { ...response.git!, head: snapshot.head.oid, snapshot_commit: first.commit, dirty: snapshot.dirty },
        plan: {
          steps: outcomes.map((o, index) => stepResult(o, index, prepared[index]!, squash === true)),
          squashed: squash === true,
          verified: verifyEach ? 'each' : 'once',
        },
      });
    } catch (error) {
      if (error instanceof TugError) error.snapshotId ??= snapshot.tree;
      throw error;
    }
  });
}

function stepResult(outcome: StepOutcome, index: number, step: PreparedStep, squashed: boolean) {
  return {
    index,
    operation: step.name,
    changed: outcome.changed,
    commit: outcome.changed && !squashed ? outcome.commit : null,
    files: outcome.changed ? touchedPaths(outcome.proposal.patch) : [],
  };
}

/** tug/plan/<first step's words>-and-<n>-more (the road adds -2, -3, ... when it is taken). */
function planBranch(steps: readonly PreparedStep[]): string {
  const input = steps[0]!.input as Record<string, unknown>;
  const what = typeof input['new_name'] === 'string' ? `${steps[0]!.name}-${input['new_name']}` : steps[0]!.name;
  const more = steps.length > 1 ? `-and-${steps.length - 1}-more` : '';
  return `tug/plan/${slugify(`${what}${more}`)}`;
}

function squashSubject(steps: readonly PreparedStep[]): string {
  const names = [...new Set(steps.map((s) => s.name))];
  return `plan of ${steps.length} step${steps.length === 1 ? '' : 's'} (${names.join(', ')})`;
}

/** verify_each: the tree each step made, checked in a sandbox before the next step plans on it. */
async function verifier(ws: Workspace, options: ChangeOptions, count: number, context: OperationContext): Promise<NonNullable<ChainOptions['afterStep']>> {
  const config = await configFor(ws.repo, options, ws.warnings);
  return async (index, base, outcome) => {
    // The last step's tree is verified by the road that makes the branch.
    if (!outcome.changed || index === count - 1) return;
    context.progress?.(`verifying step ${index + 1} of ${count}`);
    const { verification } = await verifyInSandbox(ws, base.commit, outcome.proposal.patch, config, { progress: context.progress, signal: context.signal, heartbeat: context.heartbeat });
    if (verification.status === 'failed') {
      throw new TugError('VerificationFailed', `verification (${config.verify}) failed after this step: ${failedNames(verification)}`, {
        details: { verification: presentVerification(verification) },
      });
    }
  };
}
