// `onto`: several changes accumulate on one tug/ branch; each commit's parent is the branch tip, and its edits are computed against the tip.
import { TugError } from '../../core/errors.js';
import type { HeadState } from '../../git/repo.js';
import { deleteRef, isValidBranchName, readRef, treeOf, updateRef } from '../../git/refs.js';
import type { Workspace } from '../workspace/workspace.js';

export interface OntoBranch {
  /** Branch name, e.g. `tug/edit/add-logging`. */
  branch: string;
  ref: string;
  /** The branch tip before this change; null when this change starts the branch. */
  tip: string | null;
  tipTree: string | null;
}

export async function resolveOnto(ws: Workspace, name: string, head: HeadState): Promise<OntoBranch> {
  const reject = (reason: string): never => {
    throw new TugError('InvalidArgument', `onto ${JSON.stringify(name)}: ${reason}`, { details: { argument: 'onto', reason } });
  };
  if (!name.startsWith('tug/')) reject('name a tug/ branch, e.g. tug/edit/<task>; tug does not move other branches');
  if (!(await isValidBranchName(ws.repo, name))) reject('not a valid branch name');
  const ref = `refs/heads/${name}`;
  if (head.ref === ref) reject('that branch is checked out; tug moves a checked-out branch only with commit');
  const tip = await readRef(ws.repo, ref);
  return { branch: name, ref, tip, tipTree: tip ? await treeOf(ws.repo, tip) : null };
}

/** Moves the branch from its tip to `commit` (compare-and-swap; creates it when it did not exist). */
export async function advanceOnto(ws: Workspace, onto: OntoBranch, commit: string): Promise<void> {
  if (onto.tip === commit) return;
  await updateRef(ws.repo, onto.ref, commit, onto.tip, 'tug: onto');
}

/** Puts the branch back where it was, if it still points at `commit` (an apply that failed after the move). */
export async function rewindOnto(ws: Workspace, onto: OntoBranch, commit: string): Promise<void> {
  if (onto.tip === commit || (await readRef(ws.repo, onto.ref)) !== commit) return;
  if (onto.tip === null) await deleteRef(ws.repo, onto.ref, commit);
  else await updateRef(ws.repo, onto.ref, onto.tip, commit, 'tug: onto rewind');
}
