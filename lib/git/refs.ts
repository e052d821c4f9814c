// Ref updates are always compare-and-swap: tug never moves a ref it did not see where it expected.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { diskFullError, TugError } from '../core/errors.js';
import { commitCommand, type CommitSpec } from './objects.js';
import type { Repo } from './repo.js';
import { noteArgs, NOTES_ENV } from './notes.js';
import { FIRST_OUTPUT, git, gitSteps, ZERO_OID, type GitStep } from './run-git.js';

/** Moves `ref` from `expected` (null: must not exist) to `next`; RefUpdateConflict when it moved. */
export async function updateRef(repo: Repo, ref: string, next: string, expected: string | null, reason: string): Promise<void> {
  const result = await git(['update-ref', '--no-deref', '-m', reason, ref, next, expected ?? ZERO_OID], {
    cwd: repo.root,
    allowFailure: true,
  });
  if (result.exitCode !== 0) {
    // A full disk is not a ref that moved: git could not write the ref or its log.
    throw diskFullError(result.stderr, { command: `git update-ref ${ref}` }) ?? new TugError('RefUpdateConflict', `could not move ${ref}: ${result.stderr.trim()}`, {
      details: { ref, expected, next },
    });
  }
}

export async function deleteRef(repo: Repo, ref: string, expected: string): Promise<void> {
  await git(['update-ref', '--no-deref', '-d', ref, expected], { cwd: repo.root });
}

/** Deletes every ref (each only while it still points at its `oid`) in one transaction: all of them, or none. */
export async function deleteRefs(repo: Repo, refs: ReadonlyArray<{ ref: string; oid: string }>): Promise<void> {
  if (refs.length === 0) return;
  const input = refs.map(({ ref, oid }) => `delete ${ref}\0${oid}\0`).join('');
  await git(['update-ref', '--no-deref', '-z', '--stdin'], { cwd: repo.root, input });
}

export async function readRef(repo: Repo, ref: string): Promise<string | null> {
  const result = await git(['rev-parse', '-q', '--verify', `${ref}^{commit}`], { cwd: repo.root, allowFailure: true });
  return result.exitCode === 0 ? result.stdout.trim() : null;
}

/**
 * Points `ref` at `commit` whatever it pointed at before (an undo point, a snapshot's ref), as a readRef followed by
 * an updateRef did, with fewer git processes (each is several ms from a large process such as the daemon): none when
 * the ref's loose file already names the commit, one `update-ref` creating it in the usual case, and the
 * compare-and-swap over what git reads only when that fails (the ref exists elsewhere: packed, another commit).
 */
export async function pointRef(repo: Repo, ref: string, commit: string, reason: string): Promise<void> {
  if ((await looseRefOid(repo, ref)) === commit) return;
  const created = await git(['update-ref', '--no-deref', '-m', reason, ref, commit, ZERO_OID], { cwd: repo.root, allowFailure: true });
  if (created.exitCode === 0) return;
  const full = diskFullError(created.stderr, { command: `git update-ref ${ref}` });
  if (full) throw full;
  const existing = await readRef(repo, ref);
  if (existing !== commit) await updateRef(repo, ref, commit, existing, reason);
}

/**
 * The object id in a ref's loose file (shared refs live in the common dir), or null when there is none or it holds
 * anything else (a symbolic ref, a reftable repository's placeholder directory layout): a loose file is what git
 * reads first, so an id found there is the ref's value; null only means "ask git".
 */
async function looseRefOid(repo: Repo, ref: string): Promise<string | null> {
  const text = await readFile(path.join(repo.commonDir, ref), 'utf8').catch(() => '');
  return /^([0-9a-f]{40}|[0-9a-f]{64})\n?$/.exec(text)?.[1] ?? null;
}

/**
 * The refs under `prefix` with their commits; `related`: only those whose commit is in `commit`'s history (`merged`)
 * or has it in its own (`contains`), all in one git process however many refs there are.
 */
export async function listRefs(repo: Repo, prefix: string, related?: { merged?: string; contains?: string }): Promise<Array<{ ref: string; oid: string }>> {
  const filters = [...(related?.merged ? [`--merged=${related.merged}`] : []), ...(related?.contains ? [`--contains=${related.contains}`] : [])];
  const out = await git(['for-each-ref', '--format=%(refname) %(objectname)', ...filters, prefix], { cwd: repo.root });
  return out.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [ref, oid] = line.split(' ');
      return { ref: ref!, oid: oid! };
    });
}

/**
 * Creates `refs/heads/<base>` at `commit`, or reuses it when it already points there;
 * otherwise tries `<base>-2`, `<base>-3`, … so an existing result is never overwritten.
 */
export async function createResultBranch(repo: Repo, base: string, commit: string): Promise<string> {
  for (let n = 1; n < 1000; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    const ref = `refs/heads/${name}`;
    // Created first and looked at only when that fails (the name is taken): a new name, the usual case, costs one git
    // process instead of two. update-ref with the zero id never moves a branch that exists.
    const created = await git(['update-ref', '--no-deref', '-m', 'tug: result', ref, commit, ZERO_OID], {
      cwd: repo.root,
      allowFailure: true,
    });
    if (created.exitCode === 0) return name;
    const full = diskFullError(created.stderr, { command: `git update-ref ${ref}` });
    if (full) throw full;
    if ((await readRef(repo, ref)) === commit) return name;
  }
  throw new TugError('RefUpdateConflict', `no free branch name for ${base}`, { details: { ref: base } });
}

/** What commitOnNewBranch may do in the same process besides the commit and its branch. */
export interface AlongWithCommit {
  /** A ref named after the new commit (`prefix` and its first `chars` hex digits: an undo point), pointed at it whatever it pointed at before (pointRef). */
  named?: { prefix: string; chars: number; reason: string };
  /** The text of the commit's note (writeNote). */
  note?: string;
}

/**
 * commitTree, then createResultBranch at the new commit, a ref named after it and its note, with the commit, the
 * branch's usual first try, the named ref's creation and the note started as one process (a shell, see gitSteps): each
 * git started from a large process (the daemon) blocks it several ms in fork. The shell stops at the first failure:
 * when the name is taken, the commit stands and createResultBranch goes on as it always does; `named` and `noted` say
 * what was done (the caller does the rest as before: pointRef finds a named ref already made and starts no git).
 */
export async function commitOnNewBranch(repo: Repo, spec: CommitSpec, base: string, along: AlongWithCommit = {}): Promise<{ commit: string; branch: string; named: boolean; noted: boolean }> {
  const { args, env } = commitCommand(spec);
  const ref = `refs/heads/${base}`;
  const steps: GitStep[] = [{ args, env }, { args: ['update-ref', '--no-deref', '-m', 'tug: result', ref, FIRST_OUTPUT, ZERO_OID] }];
  if (along.named) steps.push({ args: ['update-ref', '--no-deref', '-m', along.named.reason, { prefix: along.named.prefix, chars: along.named.chars }, FIRST_OUTPUT] });
  if (along.note !== undefined) steps.push({ args: noteArgs(FIRST_OUTPUT), env: NOTES_ENV, readsInput3: true });
  const run = await gitSteps(steps, { cwd: repo.root, input: spec.message, ...(along.note === undefined ? {} : { input3: along.note }) });
  if (run.done >= 2) return { commit: run.output, branch: base, named: Boolean(along.named) && run.done >= 3, noted: along.note !== undefined && run.done === steps.length };
  const full = diskFullError(run.stderr, { command: `git update-ref ${ref}` });
  if (full) throw full;
  return { commit: run.output, branch: await createResultBranch(repo, base, run.output), named: false, noted: false };
}

/** Whether `name` is a valid branch name (`git check-ref-format --branch`). */
export async function isValidBranchName(repo: Repo, name: string): Promise<boolean> {
  const result = await git(['check-ref-format', '--branch', name], { cwd: repo.root, allowFailure: true });
  return result.exitCode === 0 && result.stdout.trim() === name;
}

/** The tree a commit points at. */
export async function treeOf(repo: Repo, commit: string): Promise<string> {
  return (await git(['rev-parse', `${commit}^{tree}`], { cwd: repo.root })).stdout.trim();
}
