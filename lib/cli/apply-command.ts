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
  return { status: 'ok', schema_version: SCHEMA_VERSION, branch: result.branch, commit: result.commit, applied: true, files_written: files, undo_token: outcome.undo.token, stale: await staleness(settings, branch) };
}

/**
 * Whether HEAD moved on since the branch was made, and the uses HEAD gained of what it renamed, moved or re-signed:
 * applied as it is, the change leaves those behind (`tug replay` redoes it on the new base). null when it is current
 * (or is no branch tug recorded).
 */
async function staleness(settings: ReviewOptions, branch: string): Promise<Record<string, unknown> | null> {
  const { findOperation } = await import('../ops/registry.js');
  const check = (await findOperation('check-merge')!
    .execute({ workspace: settings.workspace, session_dir: settings.session_dir, branch }, {})
    .catch(() => null)) as { base_moved: boolean; merged: boolean; semantic: Array<Record<string, unknown>> } | null;
  if (!check || check.merged || (!check.base_moved && check.semantic.length === 0)) return null;
  return { base_moved: check.base_moved, new_uses: check.semantic.map(({ file, line, col, text, symbol }) => ({ file, line, col, text, symbol })), next: `tug replay ${branch}` };
}

export function summarizeApply(result: Record<string, unknown>): string {
  const files = result['files_written'] as string[];
  const stale = result['stale'] as { new_uses: Array<Record<string, unknown>>; next: string } | null;
  const warning = stale
    ? [
        `  stale   HEAD moved on since the branch was made${stale.new_uses.length ? `; ${stale.new_uses.length} new use(s) of what it changed stay as they were:` : ''}`,
        ...stale.new_uses.map((u) => `          ${u['file']}:${u['line']}:${u['col']}  ${u['text']}`),
        `          undo it and run \`${stale.next}\` to redo the change on the new base`,
      ]
    : [];
  return [`applied ${result['branch']} (${String(result['commit']).slice(0, 12)}) to the working tree: ${files.join(', ')}`, ...warning, `  undo    tug undo ${result['undo_token']}`].join('\n');
}
