// The change road for one step of a replay or a plan: plan on the step's base commit, write the result as a commit on
// it, and hand the outcome back; verification, the branch, the undo point and the record are the caller's.
import { TugError } from '../../core/errors.js';
import { summarize } from '../../core/patchset.js';
import { RunResponse, SCHEMA_VERSION, type RunResponseJSON } from '../../core/schemas.js';
import { commitTree, userIdentity } from '../../git/objects.js';
import { treeWithEntries } from '../../git/revert-tree.js';
import { patchEntries } from './steps.js';
import { commitMessage } from './parts.js';
import { orderWarnings, presentPatch } from './present.js';
import type { RoadStep } from './road-step.js';
import type { ChangeKind, ChangeOptions, Planner, Reporter } from './types.js';
import type { Snapshot } from '../workspace/snapshot.js';
import type { Workspace } from '../workspace/workspace.js';

export async function runStep(ws: Workspace, step: RoadStep, options: ChangeOptions, kind: ChangeKind, plan: Planner, reporter: Reporter): Promise<RunResponseJSON> {
  const { base } = step;
  const snapshot = stepSnapshot(base);
  const proposal = await plan(ws, snapshot, { tree: base.tree, onto: null });
  const input = kind.arguments ?? (options as Record<string, unknown>);
  const response = {
    status: 'ok' as const,
    schema_version: SCHEMA_VERSION,
    snapshot_id: base.tree,
    operation: kind.operation,
    patch: presentPatch(proposal.patch),
    summary: summarize(proposal.patch),
    verification: { status: 'skipped' as const, mode: 'none' as const, checks: [] },
    warnings: orderWarnings([...ws.warnings, ...proposal.warnings]),
    applied: false,
  };
  if (proposal.patch.files.length === 0) {
    if (!proposal.nothingToDoIsSuccess) {
      throw new TugError('InvalidArgument', 'the change leaves every file as it was', { details: { argument: 'edits', reason: 'no-op patch' } });
    }
    step.outcome = { commit: base.commit, tree: base.tree, changed: false, proposal, kind, input };
    return RunResponse.parse({ ...response, changed: false });
  }
  reporter.progress?.(`committing step ${kind.operation}`);
  const tree = await treeWithEntries(ws.repo, ws.session.paths.scratch, base.commit, await patchEntries(ws, proposal.patch), base.tree);
  const commit = await commitTree(ws.repo, {
    tree,
    parents: [base.commit],
    message: commitMessage(kind, proposal, base.tree, { status: 'skipped', mode: 'none', checks: [] }),
    time: base.time,
    author: await userIdentity(ws.repo),
  });
  step.outcome = { commit, tree, changed: true, proposal, kind, input };
  return RunResponse.parse(response);
}

/** A step's base as the snapshot a planner expects: a clean checkout of that commit (so no snapshot commit is made). */
export function stepSnapshot(base: RoadStep['base']): Snapshot {
  return { tree: base.tree, head: { oid: base.commit, ref: null, tree: base.tree, time: base.time }, dirty: false };
}
