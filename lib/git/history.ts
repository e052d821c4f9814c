// Questions about commit history that replay and check-merge ask: first-parent chains, ancestry, 3-way merges without a checkout.
import type { Repo } from './repo.js';
import { commitTree } from './objects.js';
import { git, gitText } from './run-git.js';

export interface ChainCommit {
  commit: string;
  parents: string[];
  subject: string;
  body: string;
}

/** `tip` and its first parents, newest first, at most `limit` commits. */
export async function firstParentChain(repo: Repo, tip: string, limit: number): Promise<ChainCommit[]> {
  const out = await git(['log', '--first-parent', `-n${limit}`, '--format=%H%x00%P%x00%s%x00%b%x1e', tip, '--'], { cwd: repo.root });
  return out.stdout
    .split('\x1e')
    .map((r) => r.replace(/^\n/, ''))
    .filter(Boolean)
    .map((r) => {
      const [commit, parents, subject, body] = r.split('\0');
      return { commit: commit!, parents: parents ? parents.split(' ') : [], subject: subject ?? '', body: body ?? '' };
    });
}

/** Whether `ancestor` is `descendant` or one of its ancestors. */
export async function isAncestor(repo: Repo, ancestor: string, descendant: string): Promise<boolean> {
  const run = await git(['merge-base', '--is-ancestor', ancestor, descendant], { cwd: repo.root, allowFailure: true });
  return run.exitCode === 0;
}

/** Commits reachable from `to` but not from `from`. */
export async function countBetween(repo: Repo, from: string, to: string): Promise<number> {
  return Number(await gitText(['rev-list', '--count', `${from}..${to}`], { cwd: repo.root }));
}

export async function mergeBase(repo: Repo, a: string, b: string): Promise<string | null> {
  const run = await git(['merge-base', a, b], { cwd: repo.root, allowFailure: true });
  return run.exitCode === 0 ? run.stdout.trim() : null;
}

/** A commit id for a revision (branch, tag, HEAD~2…), or null when it names none. */
export async function resolveCommit(repo: Repo, rev: string): Promise<string | null> {
  const run = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], { cwd: repo.root, allowFailure: true });
  return run.exitCode === 0 ? run.stdout.trim() : null;
}

export interface TreeMerge {
  /** The merged tree; with conflicts, the tree holds git's conflict markers. */
  tree: string;
  conflicts: string[];
}

/**
 * A 3-way merge of `theirs` into `ours` with `base` as merge base (null: git finds it), written as a tree only: no
 * checkout, no index, no ref moves (`git merge-tree --write-tree`, git 2.38+).
 */
export async function mergeTrees(repo: Repo, ours: string, theirs: string, base: string | null): Promise<TreeMerge> {
  // git 2.39 has no --merge-base: two unreferenced commits of the same trees on top of `base` make it the merge base.
  if (base) {
    const side = (c: string) => commitTree(repo, { tree: `${c}^{tree}`, parents: [base], message: 'tug merge side\n', time: 0 });
    [ours, theirs] = [await side(ours), await side(theirs)];
  }
  const args = ['merge-tree', '--write-tree', '--name-only', '-z', '--no-messages', ours, theirs];
  const run = await git(args, { cwd: repo.root, allowFailure: true });
  if (run.exitCode !== 0 && run.exitCode !== 1) await git(args, { cwd: repo.root });
  const fields = run.stdout.split('\0');
  const tree = fields[0]!.trim();
  const conflicts = run.exitCode === 1 ? [...new Set(fields.slice(1).filter(Boolean))].sort() : [];
  return { tree, conflicts };
}

/** Line ranges (1-based, in the new file) that `to` added or changed relative to `from`, by file. */
export async function addedLines(repo: Repo, from: string, to: string): Promise<Map<string, Array<[number, number]>>> {
  const out = await git(['diff', '--no-color', '--no-ext-diff', '-U0', '--no-renames', from, to, '--'], { cwd: repo.root });
  const ranges = new Map<string, Array<[number, number]>>();
  let file: string | null = null;
  for (const line of out.stdout.split('\n')) {
    if (line.startsWith('+++ ')) file = line === '+++ /dev/null' ? null : line.slice(6);
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk && file) {
      const start = Number(hunk[1]);
      const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
      if (count > 0) (ranges.get(file) ?? ranges.set(file, []).get(file)!).push([start, start + count - 1]);
    }
  }
  return ranges;
}

/** The committer time of a commit in seconds (replayed steps are dated like their base, so reruns make the same commits). */
export async function commitTime(repo: Repo, commit: string): Promise<number> {
  return Number(await gitText(['log', '-1', '--format=%ct', commit, '--'], { cwd: repo.root }));
}
