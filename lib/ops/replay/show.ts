// `tug show BRANCH`: a tug branch's recorded operations and whether its base moved.
import { mergeBase } from '../../git/history.js';
import { treeOf } from '../../git/refs.js';
import { semanticConflicts } from '../check-merge/semantic.js';
import type { Workspace } from '../workspace/workspace.js';
import { readTugBranch, staleness } from './branch.js';
import { BranchShow, type BranchShowJSON } from './schema.js';

export async function showBranch(ws: Workspace, name: string): Promise<BranchShowJSON> {
  const branch = await readTugBranch(ws.repo, name);
  const status = await staleness(ws.repo, branch, 'HEAD');
  // The other side's new uses of what the branch changed: found only when the base moved (else there is no other side).
  const base = status.base_moved ? await mergeBase(ws.repo, branch.tip, status.against) : null;
  const newReferences = base ? (await semanticConflicts(ws, branch, base, status.against, await treeOf(ws.repo, status.against))).length : 0;
  return BranchShow.parse({
    name: branch.branch,
    tip: branch.tip,
    base: branch.base,
    status: { stale: status.base_moved, ...status, new_references: newReferences },
    steps: branch.steps.map((s) => ({ commit: s.commit, subject: s.subject, operation: s.record?.operation ?? s.trailers['Tug-Operation'] ?? null, record: s.record })),
  });
}
