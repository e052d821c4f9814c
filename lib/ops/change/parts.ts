// Pieces of the change pipeline that only shape data or check a precondition: commit messages, touched paths, the --commit check.
import { TugError } from '../../core/errors.js';
import type { PatchSet } from '../../core/patchset.js';
import { git } from '../../git/run-git.js';
import { assertRefMovable } from '../../workspace/apply.js';
import type { Verification } from '../../verify/verify.js';
import { workingTreeWrites } from './steps.js';
import type { ChangeKind, Proposal } from './types.js';
import type { Snapshot } from '../workspace/snapshot.js';
import type { Workspace } from '../workspace/workspace.js';

/** Paths a change touches in the working tree (moves count twice), sorted. */
export function touchedPaths(patch: PatchSet): string[] {
  return [...new Set(workingTreeWrites(patch).map((w) => w.path))].sort();
}

/** --commit fast-forwards the current branch, so the tree and the index must both equal HEAD. */
export async function assertCommittable(ws: Workspace, snapshot: Snapshot): Promise<void> {
  if (!snapshot.head.oid) {
    throw new TugError('InvalidArgument', '--commit needs a commit to build on; this branch has none yet', { details: { argument: 'commit', reason: 'unborn branch' } });
  }
  // Checked again right before the first write; checking here too spares a verification run that could not land.
  await assertRefMovable(ws.repo, { ref: snapshot.head.ref ?? 'HEAD', from: snapshot.head.oid, to: snapshot.head.oid }, true);
  const staged = await git(['diff-index', '--cached', '--quiet', 'HEAD', '--'], { cwd: ws.repo.root, allowFailure: true });
  if (snapshot.dirty || staged.exitCode !== 0) {
    throw new TugError('DirtyWorkingTree', '--commit needs a clean working tree and index', {
      details: { dirty_tree: snapshot.dirty, staged_changes: staged.exitCode !== 0 },
    });
  }
}

export function failedNames(verification: Verification): string {
  return verification.checks.filter((c) => c.status === 'failed').map((c) => c.name).join(', ');
}

export function commitMessage(kind: ChangeKind, proposal: Proposal, tree: string, verification: Verification): string {
  const lines = [`refactor(${kind.scope}): ${proposal.subject}`, '', 'Files:'];
  for (const file of proposal.patch.files) {
    const where = file.newPath ? `${file.path} -> ${file.newPath}` : file.path;
    const what = file.status === 'added' ? 'created' : file.status === 'deleted' ? 'deleted' : `${file.edits.length} edit${file.edits.length === 1 ? '' : 's'}`;
    lines.push(`  ${where} (${what})`);
  }
  lines.push('', `Tug-Operation: ${kind.operation}`, `Tug-Snapshot: ${tree}`, `Tug-Verification: ${verification.status} (${verification.mode})`, '');
  return lines.join('\n');
}
