// analyze-impact with steps (`tug analyze-impact --plan FILE`): every step of a plan planned in turn on the tree the one
// before it would make, and the patch of each and of the whole; nothing is verified, no ref or file is written.
import { TugError } from '../../core/errors.js';
import { summarize } from '../../core/patchset.js';
import { SCHEMA_VERSION } from '../../core/schemas.js';
import { commitTree } from '../../git/objects.js';
import { touchedPaths } from '../change/parts.js';
import { orderWarnings, presentPatch } from '../change/present.js';
import { runAsStep, type RoadStep, type StepBase } from '../change/road-step.js';
import { patchBetween } from '../change/tree-patch.js';
import { orderUnsure } from '../change/unsure.js';
import type { CommonInput } from '../workspace/workspace.js';
import type { OperationContext } from '../operation.js';
import { atStep } from '../replay/engine.js';
import { takeSnapshot } from '../workspace/snapshot.js';
import { withWorkspace } from '../workspace/workspace.js';
import { PlanPreview, type PlanPreviewJSON, type PlanStepJSON } from './schema.js';
import { carriedFields, prepareSteps } from './steps.js';

export async function previewPlan(input: CommonInput & { steps: PlanStepJSON[]; python?: string | undefined }, context: OperationContext): Promise<PlanPreviewJSON> {
  return withWorkspace(input, { lock: false, signal: context.signal }, async (ws) => {
    const prepared = await prepareSteps(input.steps, carriedFields({ ...input }));
    const snapshot = await takeSnapshot(ws);
    // Each step commits on the one before it; a dirty tree gets a commit object for that, but no ref (nothing to keep).
    const head = snapshot.head.oid;
    const commit = !snapshot.dirty && head ? head : await commitTree(ws.repo, { tree: snapshot.tree, parents: head ? [head] : [], message: 'tug plan preview\n', time: snapshot.head.time ?? 0 });
    let base: StepBase = { commit, tree: snapshot.tree, time: snapshot.head.time ?? 0 };
    const steps: PlanPreviewJSON['plan']['steps'] = [];
    const warnings = [...ws.warnings];
    const unsure = [];
    for (const step of prepared) {
      const road: RoadStep = { base, mode: 'step' };
      context.progress?.(`step ${step.index + 1} of ${prepared.length}`);
      await atStep(step.index, () => runAsStep(road, () => step.operation.execute(step.input, context)));
      const outcome = road.outcome;
      if (!outcome) throw new TugError('InternalError', `step ${step.index} made no change through the change road`, { details: { step: step.index } });
      warnings.push(...outcome.proposal.warnings);
      unsure.push(...(outcome.proposal.unsure ?? []));
      steps.push({ index: step.index, operation: step.name, changed: outcome.changed, files: outcome.changed ? touchedPaths(outcome.proposal.patch) : [], patch: presentPatch(outcome.proposal.patch) });
      if (outcome.changed) base = { commit: outcome.commit, tree: outcome.tree, time: base.time };
    }
    const whole = await patchBetween(ws.repo, snapshot.tree, base.tree);
    const ordered = orderUnsure(unsure);
    return PlanPreview.parse({
      status: 'ok',
      schema_version: SCHEMA_VERSION,
      snapshot_id: snapshot.tree,
      operation: 'run-plan',
      patch: presentPatch(whole),
      summary: summarize(whole),
      warnings: orderWarnings(warnings),
      ...(ordered.length > 0 ? { unsure: ordered } : {}),
      plan: { steps },
    });
  });
}
