// A tug branch as replay, check-merge and show see it: the commits tug made on it (oldest first) with their records, and its base.
import { TugError } from '../../core/errors.js';
import { readNotes } from '../../git/notes.js';
import { firstParentChain, resolveCommit, countBetween, isAncestor } from '../../git/history.js';
import { parseTrailers } from '../../git/results.js';
import { readRef } from '../../git/refs.js';
import type { Repo } from '../../git/repo.js';
import { parseRecord, type OperationRecordJSON } from '../change/record.js';

export interface BranchStep {
  commit: string;
  parent: string;
  subject: string;
  /** The note tug wrote; null for a commit tug made before it recorded operations (its trailers still say what it was). */
  record: OperationRecordJSON | null;
  trailers: Record<string, string>;
}

export interface TugBranch {
  branch: string;
  tip: string;
  /** The commit the first tug commit was made on: a commit of the user's, or a snapshot commit of a dirty tree. */
  base: string;
  steps: BranchStep[];
}

/** How far back a branch's tug commits are looked for; a longer run of tug commits is not a branch anyone reviews. */
const MAX_STEPS = 200;

export async function readTugBranch(repo: Repo, name: string): Promise<TugBranch> {
  const branch = name.replace(/^refs\/heads\//, '');
  const tip = await readRef(repo, `refs/heads/${branch}`);
  if (!tip) throw new TugError('InvalidArgument', `no branch ${branch}`, { details: { argument: 'branch', reason: 'no such branch' } });
  const chain = await firstParentChain(repo, tip, MAX_STEPS + 1);
  const notes = await readNotes(repo, chain.map((c) => c.commit));
  const steps: BranchStep[] = [];
  for (const c of chain) {
    const trailers = parseTrailers(c.body);
    const record = parseRecord(notes.get(c.commit));
    if (!record && !trailers['Tug-Operation']) break;
    if (c.parents.length === 0) break;
    steps.push({ commit: c.commit, parent: c.parents[0]!, subject: c.subject, record, trailers });
  }
  if (steps.length === 0) {
    throw new TugError('InvalidArgument', `${branch} has no commit tug made (no Tug-Operation trailer, no refs/notes/tug record)`, { details: { argument: 'branch', reason: 'not a tug branch' } });
  }
  steps.reverse();
  return { branch, tip, base: steps[0]!.parent, steps };
}

export interface Staleness {
  /** The commit the branch is compared with (HEAD, or --into). */
  against: string;
  /** True when `against` already contains the branch (it was merged): nothing is stale then. */
  merged: boolean;
  /** True when `against` has commits the branch lacks: its base moved. */
  base_moved: boolean;
  /** How many commits `against` has that the branch's base lacks. */
  behind: number;
}

/** Whether the branch's base still is (or contains) `against`; a snapshot commit of a dirty tree counts as its HEAD. */
export async function staleness(repo: Repo, branch: TugBranch, against: string): Promise<Staleness> {
  const target = (await resolveCommit(repo, against)) ?? against;
  const merged = await isAncestor(repo, branch.tip, target);
  const fresh = merged || (await isAncestor(repo, target, branch.base));
  return { against: target, merged, base_moved: !fresh, behind: fresh ? 0 : await countBetween(repo, branch.base, target) };
}
