// The one road every change takes: snapshot → PatchSet → sandbox worktree → verify → commit on tug/… → optional apply or commit.
import path from 'node:path';
import { TugError } from '../core/errors.js';
import { writeJson } from '../session/files.js';
import { LAST_RESULT_FILE } from './queries.js';
import { configFor } from './config.js';
import { summarize, toEditJSON, type PatchSet } from '../core/patchset.js';
import { RunResponse, SCHEMA_VERSION, type RunResponseJSON, type WarningJSON } from '../core/schemas.js';
import { slugify } from '../core/slug.js';
import { unifiedDiff } from '../core/unified-diff.js';
import { commitTree, userIdentity } from '../git/objects.js';
import { createResultBranch } from '../git/refs.js';
import { git } from '../git/run-git.js';
import { writeWorkingTree } from '../workspace/apply.js';
import type { Verification, VerifyMode } from '../verify/verify.js';
import { registerUndoPoint, verifyInSandbox, workingTreeWrites } from './change-steps.js';
import { assertSnapshot, snapshotCommit, takeSnapshot, type Snapshot } from './snapshot-service.js';
import { orderWarnings, presentVerification } from './present.js';
import { saveUndoRecord } from './undo-records.js';
import type { CommonInput, Workspace } from './workspace.js';
import { withWorkspace } from './workspace.js';

export interface ChangeOptions extends CommonInput {
  snapshot?: string | undefined;
  /** Unset: the configured mode (tug.toml, [tool.tug], TUG_VERIFY), else syntax. */
  verify?: VerifyMode | undefined;
  apply?: boolean | undefined;
  commit?: boolean | undefined;
  keep_sandbox?: boolean | undefined;
  python?: string | undefined;
  test_command?: string[] | undefined;
  typecheck_command?: string[] | undefined;
  timeout?: number | undefined;
}

/** What an operation proposes, computed against the snapshot. */
export interface Proposal {
  patch: PatchSet;
  warnings: WarningJSON[];
  /** Subject after the conventional prefix, e.g. `process_data -> transform_data`. */
  subject: string;
  /** Words for the branch name, e.g. `process_data-to-transform_data`. */
  slug: string;
}

export interface ChangeKind {
  /** Registry name, e.g. `apply-patchset`. */
  operation: string;
  /** Branch and commit-scope word, e.g. `patch` → tug/patch/…, refactor(patch): … */
  scope: string;
}

export interface Reporter {
  progress?: (message: string) => void;
}

export async function runChange(
  options: ChangeOptions,
  kind: ChangeKind,
  plan: (ws: Workspace, snapshot: Snapshot) => Promise<Proposal>,
  reporter: Reporter = {},
): Promise<RunResponseJSON> {
  if (options.apply && options.commit) {
    throw new TugError('InvalidArgument', '--apply and --commit cannot be combined', { details: { argument: 'commit', reason: 'conflicts with --apply' } });
  }
  return withWorkspace(options, { lock: true }, async (ws) => {
    const snapshot = await takeSnapshot(ws);
    try {
      await assertSnapshot(ws, snapshot, options.snapshot);
      return await runOnSnapshot(ws, snapshot, options, kind, plan, reporter);
    } catch (error) {
      if (error instanceof TugError) error.snapshotId ??= snapshot.tree;
      throw error;
    }
  });
}

async function runOnSnapshot(
  ws: Workspace,
  snapshot: Snapshot,
  options: ChangeOptions,
  kind: ChangeKind,
  plan: (ws: Workspace, snapshot: Snapshot) => Promise<Proposal>,
  reporter: Reporter,
): Promise<RunResponseJSON> {
  const config = await configFor(ws.repo, options);
  const proposal = await plan(ws, snapshot);
  if (proposal.patch.files.length === 0) {
    throw new TugError('InvalidArgument', 'the change leaves every file as it was', { details: { argument: 'edits', reason: 'no-op patch' } });
  }
  if (options.commit) await assertCommittable(ws, snapshot);
  const base = await snapshotCommit(ws, snapshot);
  const keep = options.keep_sandbox ?? false;
  const { tree: resultTree, verification, sandboxPath } = await verifyInSandbox(ws, base, proposal.patch, config, { keep, progress: reporter.progress });
  if (verification.status === 'failed') {
    throw new TugError('VerificationFailed', `verification (${config.verify}) failed: ${failedNames(verification)}`, {
      details: { verification: presentVerification(verification), ...(keep ? { sandbox_path: sandboxPath } : {}) },
    });
  }

  const slug = slugify(proposal.slug);
  const commit = await commitTree(ws.repo, {
    tree: resultTree,
    parents: [base],
    message: commitMessage(kind, proposal, snapshot.tree, verification),
    time: snapshot.head.time ?? 0,
    author: await userIdentity(ws.repo),
  });
  const branch = await createResultBranch(ws.repo, `tug/${kind.scope}/${slug}`, commit);
  const token = await registerUndoPoint(ws, { commit, base, branch, operation: kind.operation, mode: 'branch' });

  const response: RunResponseJSON = {
    status: 'ok',
    schema_version: SCHEMA_VERSION,
    snapshot_id: snapshot.tree,
    operation: kind.operation,
    patch: {
      edits: proposal.patch.edits.map(toEditJSON),
      ...(proposal.patch.moves.length > 0 ? { file_moves: proposal.patch.moves } : {}),
      unified_diff: unifiedDiff(proposal.patch.files),
    },
    summary: summarize(proposal.patch),
    verification: presentVerification(verification),
    warnings: orderWarnings([...ws.warnings, ...proposal.warnings]),
    git: { head: snapshot.head.oid, snapshot_commit: base, branch, commit, dirty: snapshot.dirty },
    undo_token: token,
  };
  const writes = workingTreeWrites(proposal.patch);
  if (options.apply) {
    reporter.progress?.('applying to the working tree');
    response.applied = true;
    response.files_written = await writeWorkingTree(ws.repo, ws.session, writes);
    await saveUndoRecord(ws.session, { token, commit, base, branch, operation: kind.operation, mode: 'apply', created_at: new Date().toISOString() });
  } else if (options.commit) {
    reporter.progress?.('committing on the current branch');
    const ref = snapshot.head.ref ?? 'HEAD';
    const refMove = { ref, from: snapshot.head.oid!, to: commit };
    response.committed = true;
    response.files_written = await writeWorkingTree(ws.repo, ws.session, writes, { refMove, updateIndex: true });
    await saveUndoRecord(ws.session, { token, commit, base, branch, operation: kind.operation, mode: 'commit', ref_move: refMove, created_at: new Date().toISOString() });
  }
  const parsed = RunResponse.parse(response);
  await writeJson(path.join(ws.session.dir, LAST_RESULT_FILE), parsed);
  return parsed;
}

/** --commit fast-forwards the current branch, so the tree and the index must both equal HEAD. */
async function assertCommittable(ws: Workspace, snapshot: Snapshot): Promise<void> {
  if (!snapshot.head.oid) {
    throw new TugError('InvalidArgument', '--commit needs a commit to build on; this branch has none yet', { details: { argument: 'commit', reason: 'unborn branch' } });
  }
  const staged = await git(['diff-index', '--cached', '--quiet', 'HEAD', '--'], { cwd: ws.repo.root, allowFailure: true });
  if (snapshot.dirty || staged.exitCode !== 0) {
    throw new TugError('DirtyWorkingTree', '--commit needs a clean working tree and index', {
      details: { dirty_tree: snapshot.dirty, staged_changes: staged.exitCode !== 0 },
    });
  }
}

function failedNames(verification: Verification): string {
  return verification.checks.filter((c) => c.status === 'failed').map((c) => c.name).join(', ');
}

function commitMessage(kind: ChangeKind, proposal: Proposal, tree: string, verification: Verification): string {
  const lines = [`refactor(${kind.scope}): ${proposal.subject}`, '', 'Files:'];
  for (const file of proposal.patch.files) {
    const where = file.newPath ? `${file.path} -> ${file.newPath}` : file.path;
    lines.push(`  ${where} (${file.edits.length} edit${file.edits.length === 1 ? '' : 's'})`);
  }
  lines.push('', `Tug-Operation: ${kind.operation}`, `Tug-Snapshot: ${tree}`, `Tug-Verification: ${verification.status} (${verification.mode})`, '');
  return lines.join('\n');
}

