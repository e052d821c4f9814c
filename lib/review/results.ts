// Lists tug's result branches and opens one as files of change groups, reading only git, the operation log and undo records.
import path from 'node:path';
import { diffFile, type FileDiff } from '../core/change-groups.js';
import { TugError } from '../core/errors.js';
import { decodeText } from '../core/text.js';
import { readBlobs } from '../git/objects.js';
import type { Repo } from '../git/repo.js';
import { listResultBranches, readResultBranch, treeChanges, type ResultCommit } from '../git/results.js';
import { readJson } from '../session/files.js';
import type { Session } from '../session/session.js';
import { readLog } from '../ops/change/op-log.js';
import { undoTokenFor, type UndoRecord } from '../ops/change/undo-records.js';
import { readTugBranch, staleness } from '../ops/replay/branch.js';
import type { ReviewFile, ReviewResult, ResultSummary } from './types.js';

/**
 * Newest first: by when tug last changed each result, which the operation log and undo records remember (commit
 * dates are deterministic, not real). A log that cannot be read only loses the step counts, never the list.
 */
export async function listResults(repo: Repo, session: Session): Promise<ResultSummary[]> {
  const [branches, log] = await Promise.all([listResultBranches(repo), readLog(session).catch(() => [])]);
  const summaries = await Promise.all(
    branches.map(async (r): Promise<ResultSummary> => {
      const steps = log.filter((e) => e.branch === r.branch);
      const record = await readJson<UndoRecord>(path.join(session.paths.undo, `${undoTokenFor(r.commit)}.json`)).catch(() => undefined);
      return {
        branch: r.branch,
        commit: r.commit,
        operation: r.trailers['Tug-Operation'] ?? '?',
        symbol: r.subject.replace(/^[a-z]+\([^)]*\): /, ''),
        base: baseOf(r),
        files: fileCount(r.body),
        verification: r.trailers['Tug-Verification'] ?? '?',
        createdAt: steps.at(-1)?.time ?? record?.created_at ?? new Date(r.time * 1000).toISOString(),
        steps: steps.length,
        ...((await behindHead(repo, r.branch)) ? { stale: true } : {}),
      };
    }),
  );
  return summaries.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.branch < b.branch ? -1 : 1));
}

/** A reviewed subset records its real base in a trailer; a first result starts from its parent. */
export function baseOf(result: ResultCommit): string {
  return result.trailers['Tug-Base'] ?? result.parents[0] ?? '';
}

function fileCount(body: string): number {
  const files = /(?:^|\n)Files:\n((?: {2}.*\n?)*)/.exec(body);
  return files ? files[1]!.split('\n').filter((l) => l.startsWith('  ')).length : 0;
}

export async function openResult(repo: Repo, branch: string): Promise<ReviewResult> {
  const tip = await readResultBranch(repo, branch);
  if (!tip) throw new TugError('InvalidArgument', `no branch ${branch}; \`tug review\` lists the tug/ branches`, { details: { argument: 'branch', reason: 'no such branch' } });
  const base = baseOf(tip);
  if (!base) throw new TugError('InvalidArgument', `${branch} has no parent commit to compare with`, { details: { argument: 'branch', reason: 'root commit' } });
  const changes = await treeChanges(repo, base, tip.commit);
  const blobs = await readBlobs(repo, changes.flatMap((c) => [c.oldOid, c.newOid]).filter((o): o is string => o !== null));
  const text = (oid: string | null) => (oid === null ? { ok: true as const, text: '' } : decodeText(blobs.get(oid) ?? new Uint8Array()));
  const files = changes.map((change): ReviewFile => {
    const before = text(change.oldOid);
    const after = text(change.newOid);
    const splittable = before.ok && after.ok && (change.status === 'modified' || change.status === 'renamed');
    const diff: FileDiff = before.ok && after.ok ? diffFile(before.text, after.text) : { groups: [], hunks: [] };
    return { path: change.path, ...(change.oldPath ? { oldPath: change.oldPath } : {}), status: change.status, diff, splittable };
  });
  const behind = await behindHead(repo, tip.branch);
  return {
    branch: tip.branch,
    commit: tip.commit,
    base,
    operation: tip.trailers['Tug-Operation'] ?? '?',
    subject: tip.subject,
    verification: tip.trailers['Tug-Verification'] ?? '?',
    files,
    ...(behind ? { stale: { behind } } : {}),
  };
}

/** Commits HEAD has that the branch's base lacks; 0 when it is current, merged, or not a branch tug can read back. */
async function behindHead(repo: Repo, branch: string): Promise<number> {
  try {
    const status = await staleness(repo, await readTugBranch(repo, branch), 'HEAD');
    return status.base_moved ? status.behind : 0;
  } catch {
    // An unborn HEAD or a branch without tug commits: nothing to say about staleness.
    return 0;
  }
}
