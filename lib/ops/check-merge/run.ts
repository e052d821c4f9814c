// `tug check-merge BRANCH [--into REF]`: would merging be clean and complete? git's conflicts (merge-tree, nothing
// checked out) and the semantic ones: uses of a symbol the branch changed that the other side added since.
import type { z } from 'zod';
import { TugError } from '../../core/errors.js';
import { SCHEMA_VERSION } from '../../core/schemas.js';
import { mergeBase, mergeTrees, resolveCommit } from '../../git/history.js';
import { treeOf } from '../../git/refs.js';
import { readTugBranch, staleness } from '../replay/branch.js';
import { withWorkspace, type Workspace } from '../workspace/workspace.js';
import { CheckMergeResponse, type CheckMergeResponseJSON, type checkMergeInput } from './schema.js';
import { semanticConflicts } from './semantic.js';

export async function runCheckMerge(input: z.infer<typeof checkMergeInput>): Promise<CheckMergeResponseJSON> {
  return withWorkspace(input, { lock: false }, (ws) => checkMerge(ws, input.branch, input.into ?? 'HEAD'));
}

export async function checkMerge(ws: Workspace, name: string, intoRef: string): Promise<CheckMergeResponseJSON> {
  const branch = await readTugBranch(ws.repo, name);
  const into = await resolveCommit(ws.repo, intoRef);
  if (!into) throw new TugError('InvalidArgument', `into ${JSON.stringify(intoRef)} names no commit`, { details: { argument: 'into', reason: 'unknown revision' } });
  const status = await staleness(ws.repo, branch, into);
  const base = await mergeBase(ws.repo, branch.tip, into);
  const conflicts = status.merged ? [] : (await mergeTrees(ws.repo, into, branch.tip, null)).conflicts;
  const semantic = status.merged || !base ? [] : await semanticConflicts(ws, branch, base, into, await treeOf(ws.repo, into));
  const clean = conflicts.length === 0 && semantic.length === 0;
  const next = status.merged
    ? 'already merged'
    : clean
      ? `git merge ${branch.branch}`
      : `tug replay ${branch.branch}${intoRef === 'HEAD' ? '' : ` --onto ${intoRef}`} (redoes its operations on the new base), then merge the new branch`;
  return CheckMergeResponse.parse({
    status: 'ok',
    schema_version: SCHEMA_VERSION,
    branch: branch.branch,
    into,
    merge_base: base,
    clean,
    merged: status.merged,
    base_moved: status.base_moved,
    conflicts,
    semantic,
    next,
  });
}
