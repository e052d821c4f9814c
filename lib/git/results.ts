// Reads tug's results back out of git: the tug/ branches with their trailers, and what a result commit changed.
import type { Repo } from './repo.js';
import { git } from './run-git.js';

export interface ResultCommit {
  /** Branch name without refs/heads/, e.g. tug/rename/a-to-b. */
  branch: string;
  commit: string;
  parents: string[];
  /** Committer time in seconds (tug dates results like their base, so this is not when tug ran). */
  time: number;
  subject: string;
  body: string;
  /** Trailers by key (Tug-Operation, Tug-Snapshot, Tug-Verification, Tug-Base, Tug-Reviewed). */
  trailers: Record<string, string>;
}

const FIELDS = ['%(refname)', '%(objectname)', '%(parent)', '%(committerdate:unix)', '%(subject)', '%(body)'];

/** Every branch under refs/heads/tug/, each with its tip commit's message parsed. */
export async function listResultBranches(repo: Repo): Promise<ResultCommit[]> {
  return readBranches(repo, 'refs/heads/tug/');
}

/** The tip of one branch, or null when there is no such branch. */
export async function readResultBranch(repo: Repo, branch: string): Promise<ResultCommit | null> {
  const name = branch.replace(/^refs\/heads\//, '');
  return (await readBranches(repo, `refs/heads/${name}`)).find((r) => r.branch === name) ?? null;
}

async function readBranches(repo: Repo, pattern: string): Promise<ResultCommit[]> {
  const out = await git(['for-each-ref', `--format=${FIELDS.join('%00')}%1e`, pattern], { cwd: repo.root });
  return out.stdout
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter(Boolean)
    .map((record) => {
      const [ref, commit, parents, time, subject, body] = record.split('\0');
      return {
        branch: ref!.replace(/^refs\/heads\//, ''),
        commit: commit!,
        parents: parents ? parents.split(' ') : [],
        time: Number(time),
        subject: subject ?? '',
        body: body ?? '',
        trailers: parseTrailers(body ?? ''),
      };
    });
}

/** `Key: value` lines of the last paragraph. */
export function parseTrailers(body: string): Record<string, string> {
  const paragraphs = body.trimEnd().split(/\n\s*\n/);
  const last = paragraphs[paragraphs.length - 1] ?? '';
  const trailers: Record<string, string> = {};
  for (const line of last.split('\n')) {
    const match = /^([A-Za-z][A-Za-z0-9-]*): (.*)$/.exec(line);
    if (match) trailers[match[1]!] = match[2]!;
  }
  return trailers;
}

export interface TreeChange {
  status: 'modified' | 'added' | 'deleted' | 'renamed';
  path: string;
  /** The old path of a rename. */
  oldPath?: string;
  oldOid: string | null;
  newOid: string | null;
  newMode: string | null;
}

/** What changed between two commits, renames detected (module renames move files). */
export async function treeChanges(repo: Repo, from: string, to: string): Promise<TreeChange[]> {
  const out = await git(['diff-tree', '-r', '-z', '-M', from, to], { cwd: repo.root });
  const fields = out.stdout.split('\0');
  const changes: TreeChange[] = [];
  const absent = (oid: string | undefined) => (oid === undefined || /^0+$/.test(oid) ? null : oid);
  for (let i = 0; i < fields.length; ) {
    const meta = fields[i++]!;
    if (!meta.startsWith(':')) continue;
    const [, newMode, oldOid, newOid, status] = meta.slice(1).split(' ');
    const letter = status?.[0];
    if (letter === 'R' || letter === 'C') {
      const oldPath = fields[i++]!;
      const path = fields[i++]!;
      changes.push({ status: 'renamed', path, oldPath, oldOid: absent(oldOid), newOid: absent(newOid), newMode: newMode ?? null });
      continue;
    }
    const path = fields[i++]!;
    const kind = letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified';
    changes.push({ status: kind, path, oldOid: absent(oldOid), newOid: absent(newOid), newMode: newMode === '000000' ? null : (newMode ?? null) });
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Paths that have uncommitted changes to tracked files (untracked files do not block a merge git can do). */
export async function trackedChanges(repo: Repo): Promise<string[]> {
  const out = await git(['status', '--porcelain=v1', '-z', '--untracked-files=no'], { cwd: repo.root });
  return out.stdout
    .split('\0')
    .filter(Boolean)
    .map((entry) => entry.slice(3))
    .sort();
}
