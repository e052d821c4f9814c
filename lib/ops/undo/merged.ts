// Undo of a change the user already merged into HEAD: say so plainly, or (revert) record a revert commit on HEAD's branch.
import { TugError } from '../../core/errors.js';
import type { WarningJSON } from '../../core/schemas.js';
import { commitTree, userIdentity } from '../../git/objects.js';
import { readHead } from '../../git/repo.js';
import { treeOf } from '../../git/refs.js';
import { commitSubject, treeWithEntries } from '../../git/revert-tree.js';
import { isAncestor } from '../../git/history.js';
import { entriesAt } from '../../git/snapshot.js';
import type { Workspace } from '../workspace/workspace.js';

export interface MergedChange {
  /** The branch HEAD is on (or HEAD when detached) and its commit. */
  ref: string;
  head: string;
}

/** The change is in HEAD's history (the user merged it, or tug committed it and HEAD moved on). */
export async function mergedIntoHead(ws: Workspace, commit: string): Promise<MergedChange | null> {
  const head = await readHead(ws.repo);
  if (!head.oid || !(await isAncestor(ws.repo, commit, head.oid))) return null;
  return { ref: head.ref ?? 'HEAD', head: head.oid };
}

export function mergedWarning(merged: MergedChange, commit: string, restored: number): WarningJSON {
  const branch = merged.ref.replace(/^refs\/heads\//, '');
  return {
    code: 'MergedIntoHead',
    message:
      `${commit.slice(0, 12)} is already in the history of ${branch}; ` +
      (restored > 0 ? 'tug restored the files in the working tree only' : 'no file needed restoring') +
      `, ${branch} did not move. Commit the restored files, or undo with revert (CLI --revert) to record a revert commit instead.`,
    details: { ref: merged.ref, head: merged.head, commit },
  };
}

interface ChangedPath {
  path: string;
  baseOid: string | null;
  baseMode: string | null;
  resultOid: string | null;
}

/** A commit on HEAD that puts the change's files back to their snapshot content; refuses when HEAD changed them since. */
export async function revertCommit(ws: Workspace, merged: MergedChange, commit: string, changed: readonly ChangedPath[]): Promise<string> {
  const headTree = await treeOf(ws.repo, merged.head);
  const atHead = await entriesAt(ws.repo, headTree, changed.map((c) => c.path));
  const moved = changed.filter((c) => (atHead.get(c.path)?.oid ?? null) !== c.resultOid).map((c) => c.path);
  if (moved.length > 0) {
    throw new TugError('UndoConflict', `later commits changed ${moved.join(', ')}; a revert commit of whole files would undo them too: \`git revert ${commit.slice(0, 12)}\` takes back only the change's own lines`, {
      details: { conflicting_files: moved, reason: 'changed in HEAD since the merge', commit, suggestion: `git revert ${commit}` },
    });
  }
  const tree = await treeWithEntries(ws.repo, ws.session.dir, merged.head, changed.map((c) => ({ path: c.path, oid: c.baseOid, mode: c.baseMode })));
  const subject = await commitSubject(ws.repo, commit);
  return commitTree(ws.repo, {
    tree,
    parents: [merged.head],
    message: `Revert "${subject}"\n\nThis reverts commit ${commit} (tug undo --revert).\n`,
    time: Math.floor(Date.now() / 1000),
    author: await userIdentity(ws.repo),
  });
}
