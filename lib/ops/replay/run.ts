// `tug replay BRANCH`: the branch's recorded operations re-run, in order, on a moved base (symbols found again by
// identity), its text changes (patchsets, file edits) merged 3-way; the result is a new verified branch.
import type { z } from 'zod';
import { TugError } from '../../core/errors.js';
import { commitTime, mergeTrees, resolveCommit } from '../../git/history.js';
import { deleteRef, treeOf, updateRef } from '../../git/refs.js';
import type { StepBase } from '../change/road-step.js';
import { runChange } from '../change/pipeline.js';
import { patchBetween } from '../change/tree-patch.js';
import type { ChangeOptions } from '../change/types.js';
import { parseInput, type OperationContext } from '../operation.js';
import { snapshotCommit, takeSnapshot } from '../workspace/snapshot.js';
import { withWorkspace, type Workspace } from '../workspace/workspace.js';
import { readTugBranch, type BranchStep, type TugBranch } from './branch.js';
import { runChain, type ChainOptions, type StepRunner } from './engine.js';
import { relocate } from './locate.js';
import { stepOperation } from './runners.js';
import { ReplayResponse, type replayInput } from './schema.js';

type Input = z.infer<typeof replayInput>;

export async function runReplay(input: Input, context: OperationContext): Promise<z.infer<typeof ReplayResponse>> {
  for (const flag of ['apply', 'commit'] as const) {
    if (input.onto && input[flag]) {
      throw new TugError('InvalidArgument', `${flag} writes the working tree, so it needs the replay to start from it; drop onto or ${flag}`, { details: { argument: flag, reason: 'conflicts with onto' } });
    }
  }
  return withWorkspace(input, { lock: true, signal: context.signal, onWait: context.progress }, async (ws) => {
    const branch = await readTugBranch(ws.repo, input.branch);
    const { first, user } = await startingPoint(ws, input.onto);
    const options: ChangeOptions = { ...input, onto: undefined };
    const inputs: Array<Record<string, unknown> | undefined> = [];
    const runners: StepRunner[] = branch.steps.map((step, index) =>
      step.record?.replay === 'operation' ? operationStep(ws, input, step, (relocated) => (inputs[index] = relocated), context) : textStep(ws, input, branch, step, context),
    );
    const { response, outcomes } = await runChain(ws, first, runners, options, context, { ...planOf(branch), ...(user ? { user } : {}) });
    let resultBranch = response.git!.branch;
    const replaced = input.replace === true && resultBranch !== branch.branch;
    if (replaced) {
      // The old name now points at the replayed change; the name the road picked is dropped.
      await updateRef(ws.repo, `refs/heads/${branch.branch}`, response.git!.commit, branch.tip, 'tug: replay --replace');
      await deleteRef(ws.repo, `refs/heads/${resultBranch}`, response.git!.commit);
      resultBranch = branch.branch;
    }
    return ReplayResponse.parse({
      ...response,
      git: { ...response.git!, branch: resultBranch },
      replay: {
        branch: branch.branch,
        from_base: branch.base,
        onto: first.commit,
        replaced,
        steps: branch.steps.map((step, index) => ({
          commit: step.commit,
          operation: step.record?.operation ?? step.trailers['Tug-Operation'] ?? 'unknown',
          replay: step.record?.replay === 'operation' ? 'operation' : 'text',
          ...(inputs[index] ? { input: inputs[index] } : {}),
          changed: outcomes[index]?.changed ?? false,
        })),
      },
    });
  });
}

/** A plan's branch replays as a plan: its commits stay marked as steps, and the result keeps its name (with -2, ...). */
function planOf(branch: TugBranch): ChainOptions {
  return branch.steps.some((s) => s.record?.plan !== undefined) ? { planned: true, branch: branch.branch } : {};
}

/** The working tree as every operation starts (HEAD plus uncommitted changes), or the commit `onto` names. */
async function startingPoint(ws: Workspace, onto: string | undefined): Promise<{ first: StepBase; user?: ChainOptions['user'] }> {
  if (onto === undefined) {
    const snapshot = await takeSnapshot(ws);
    // The user's HEAD goes with it: --commit moves that branch to the replayed result.
    return { first: { commit: await snapshotCommit(ws, snapshot), tree: snapshot.tree, time: snapshot.head.time ?? 0 }, user: { head: snapshot.head, dirty: snapshot.dirty } };
  }
  const commit = await resolveCommit(ws.repo, onto);
  if (!commit) throw new TugError('InvalidArgument', `onto ${JSON.stringify(onto)} names no commit`, { details: { argument: 'onto', reason: 'unknown revision' } });
  return { first: { commit, tree: await treeOf(ws.repo, commit), time: await commitTime(ws.repo, commit) } };
}

/** Fields of the replay call every step gets: where to work, and the interpreter. */
function carried(input: Input): Record<string, unknown> {
  return Object.fromEntries(Object.entries({ workspace: input.workspace, session_dir: input.session_dir, python: input.python }).filter(([, v]) => v !== undefined));
}

function operationStep(ws: Workspace, input: Input, step: BranchStep, seen: (input: Record<string, unknown>) => void, context: OperationContext): StepRunner {
  const record = step.record!;
  return async (base) => {
    const operation = await stepOperation(record.operation);
    const relocated = await relocate(ws, record, base.tree);
    seen(relocated);
    const parsed = parseInput(operation.input, { ...relocated, ...carried(input) }, `${record.operation} input`);
    await operation.execute(parsed, context);
  };
}

function textStep(ws: Workspace, input: Input, branch: TugBranch, step: BranchStep, context: OperationContext): StepRunner {
  const [, scope = 'patch', ...rest] = branch.branch.split('/');
  const operation = step.record?.operation ?? step.trailers['Tug-Operation'] ?? 'apply-patchset';
  return async (base) =>
    runChange(carried(input), { operation, scope, arguments: step.record?.input ?? {} }, async () => {
      // A cherry-pick: what the commit changed relative to its parent, merged into the base.
      const merged = await mergeTrees(ws.repo, base.commit, step.commit, step.parent);
      if (merged.conflicts.length > 0) {
        throw new TugError('ReplayConflict', `${step.subject} does not merge with the new base: ${merged.conflicts.join(', ')}`, {
          details: { commit: step.commit, files: merged.conflicts },
        });
      }
      const patch = await patchBetween(ws.repo, base.tree, merged.tree);
      return { patch, warnings: [], subject: step.subject.replace(/^[a-z-]+\([^)]*\): /, ''), slug: rest.join('-') || 'replay', nothingToDoIsSuccess: true };
    }, context);
}
