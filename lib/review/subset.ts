// The accepted subset of a reviewed result: rebuilt as a PatchSet on the result's base, verified, and committed on its branch.
import { acceptedEdits } from '../core/change-groups.js';
import { TugError } from '../core/errors.js';
import { buildPatchSet, type EditRequest, type FileMove, type PatchSet } from '../core/patchset.js';
import { commitTree, userIdentity } from '../git/objects.js';
import { updateRef } from '../git/refs.js';
import { git } from '../git/run-git.js';
import { registerUndoPoint, verifyInSandbox, type SandboxOutcome } from '../ops/change/steps.js';
import { configFor, type ResolvedConfig } from '../ops/workspace/config.js';
import { presentVerification } from '../ops/change/present.js';
import { loadSourceFiles } from '../ops/change/source-files.js';
import type { Workspace } from '../ops/workspace/workspace.js';
import type { VerifyMode } from '../verify/verify.js';
import type { Decisions, ReviewResult } from './types.js';

export interface VerifyOverrides {
  verify?: VerifyMode | undefined;
  python?: string | undefined;
  test_command?: string[] | undefined;
  typecheck_command?: string[] | undefined;
  timeout?: number | undefined;
}

export function countGroups(result: ReviewResult, decisions: Decisions): { kept: number; total: number } {
  let kept = 0;
  let total = 0;
  result.files.forEach((file, f) => {
    file.diff.groups.forEach((_, g) => {
      total += 1;
      if (decisions[f]?.[g] !== false) kept += 1;
    });
  });
  return { kept, total };
}

/** True when every change group is kept: the branch tip already is the accepted subset. */
export function keepsEverything(result: ReviewResult, decisions: Decisions): boolean {
  const { kept, total } = countGroups(result, decisions);
  return kept === total;
}

/** The result's base plus only the accepted change groups (moves and unsplittable files always kept). */
export async function subsetPatch(ws: Workspace, result: ReviewResult, decisions: Decisions): Promise<PatchSet> {
  const edits: EditRequest[] = [];
  const moves: FileMove[] = [];
  const paths: string[] = [];
  result.files.forEach((file, f) => {
    if (!file.splittable) {
      throw new TugError('UnsupportedOperation', `${file.path} is ${file.status === 'modified' ? 'not text' : file.status}; review can only split edits of text files`, {
        details: { operation: 'review', reason: `${file.status} file` },
      });
    }
    const anchor = file.oldPath ?? file.path;
    paths.push(anchor);
    if (file.oldPath) moves.push({ from: file.oldPath, to: file.path });
    edits.push(...acceptedEdits(anchor, file.diff.groups, (g) => decisions[f]?.[g] !== false));
  });
  const files = await loadSourceFiles(ws.repo, result.base, paths);
  return buildPatchSet(edits, files, moves);
}

/** The verification config of the original run: its recorded mode unless the caller chose one. */
export async function reviewConfig(ws: Workspace, result: ReviewResult, overrides: VerifyOverrides): Promise<ResolvedConfig> {
  const recorded = /\((none|syntax|tests|typecheck)\)/.exec(result.verification)?.[1] as VerifyMode | undefined;
  return configFor(ws.repo, { ...overrides, verify: overrides.verify ?? recorded });
}

export interface SubsetRun {
  patch: PatchSet;
  sandbox: SandboxOutcome;
  config: ResolvedConfig;
}

export async function verifySubset(ws: Workspace, result: ReviewResult, decisions: Decisions, overrides: VerifyOverrides, progress?: (m: string) => void): Promise<SubsetRun | null> {
  const patch = await subsetPatch(ws, result, decisions);
  if (patch.files.length === 0) return null;
  const config = await reviewConfig(ws, result, overrides);
  const sandbox = await verifyInSandbox(ws, result.base, patch, config, { progress });
  return { patch, sandbox: { ...sandbox, verification: presentVerification(sandbox.verification) }, config };
}

/**
 * Commits a verified subset as a child of the reviewed commit, so the branch history shows what the review
 * dropped; its tree is base + accepted edits, and a Tug-Base trailer names the base for later reviews.
 */
export async function commitSubset(ws: Workspace, result: ReviewResult, decisions: Decisions, run: SubsetRun): Promise<{ commit: string; token: string }> {
  const { kept, total } = countGroups(result, decisions);
  const time = Number((await git(['log', '-1', '--format=%ct', result.commit], { cwd: ws.repo.root })).stdout.trim());
  const snapshot = (await git(['rev-parse', `${result.base}^{tree}`], { cwd: ws.repo.root })).stdout.trim();
  const lines = [`${result.subject.replace(/ \(reviewed: .*\)$/, '')} (reviewed: kept ${kept} of ${total} changes)`, '', 'Files:'];
  for (const file of run.patch.files) {
    const where = file.newPath ? `${file.path} -> ${file.newPath}` : file.path;
    lines.push(`  ${where} (${file.edits.length} edit${file.edits.length === 1 ? '' : 's'})`);
  }
  lines.push(
    '',
    `Tug-Operation: ${result.operation}`,
    `Tug-Snapshot: ${snapshot}`,
    `Tug-Base: ${result.base}`,
    `Tug-Reviewed: ${result.commit}`,
    `Tug-Verification: ${run.sandbox.verification.status} (${run.config.verify})`,
    '',
  );
  const commit = await commitTree(ws.repo, { tree: run.sandbox.tree, parents: [result.commit], message: lines.join('\n'), time, author: await userIdentity(ws.repo) });
  await updateRef(ws.repo, `refs/heads/${result.branch}`, commit, result.commit, 'tug: review');
  const token = await registerUndoPoint(ws, { commit, base: result.base, branch: result.branch, operation: result.operation, mode: 'branch' });
  return { commit, token };
}
