// `tug show BRANCH`: a tug branch's recorded operations and whether its base moved.
import type { Workspace } from '../workspace/workspace.js';
import { readTugBranch, staleness } from './branch.js';
import { BranchShow, type BranchShowJSON } from './schema.js';

export async function showBranch(ws: Workspace, name: string): Promise<BranchShowJSON> {
  const branch = await readTugBranch(ws.repo, name);
  const status = await staleness(ws.repo, branch, 'HEAD');
  return BranchShow.parse({
    name: branch.branch,
    tip: branch.tip,
    base: branch.base,
    status: { stale: status.base_moved, ...status },
    steps: branch.steps.map((s) => ({ commit: s.commit, subject: s.subject, operation: s.record?.operation ?? s.trailers['Tug-Operation'] ?? null, record: s.record })),
  });
}
