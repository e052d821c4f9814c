// `tug apply BRANCH`: brings just a tug/ branch's change into the working tree (all files or none), beside the user's
// own uncommitted work, which `git merge` would refuse to touch. The same step as the review UI's `x`.
import { TugError } from '../core/errors.js';
import { SCHEMA_VERSION } from '../core/schemas.js';
import type { ReviewOptions } from '../review/kernel.js';

export async function applyBranch(settings: ReviewOptions, branch: string): Promise<Record<string, unknown>> {
  const { createReviewKernel } = await import('../review/kernel.js');
  const kernel = createReviewKernel(settings);
  const result = await kernel.open(branch);
  const everything = result.files.map((file) => file.diff.groups.map(() => true));
  const outcome = await kernel.apply(result, everything);
  if (!outcome.ok || outcome.undo?.kind !== 'apply') {
    throw new TugError('InternalError', `applying ${branch} did not finish: ${outcome.message}`, { details: { branch, reason: outcome.message } });
  }
  const files = [...new Set(result.files.flatMap((f) => (f.oldPath ? [f.oldPath, f.path] : [f.path])))].sort();
  return { status: 'ok', schema_version: SCHEMA_VERSION, branch: result.branch, commit: result.commit, applied: true, files_written: files, undo_token: outcome.undo.token };
}

export function summarizeApply(result: Record<string, unknown>): string {
  const files = result['files_written'] as string[];
  return [`applied ${result['branch']} (${String(result['commit']).slice(0, 12)}) to the working tree: ${files.join(', ')}`, `  undo    tug undo ${result['undo_token']}`].join('\n');
}
