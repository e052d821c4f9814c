// The actions behind the review TUI's keys, each under the session lock, each answering with an outcome instead of throwing on a failed check.
import { TugError } from '../core/errors.js';
import { mergeIntoHead } from '../git/merge.js';
import { readRef, updateRef } from '../git/refs.js';
import { touchedPaths } from '../ops/change/parts.js';
import { registerUndoPoint, workingTreeWrites } from '../ops/change/steps.js';
import { appendLog } from '../ops/change/op-log.js';
import { runUndo } from '../ops/undo/run.js';
import { withWorkspace, type CommonInput, type Workspace } from '../ops/workspace/workspace.js';
import { writeWorkingTree } from '../workspace/apply.js';
import { listResults, openResult } from './results.js';
import { commitSubset, countGroups, keepsEverything, subsetPatch, verifySubset, type VerifyOverrides } from './subset.js';
import { incompleteSubset } from './completeness.js';
import type { ActionOptions, ActionOutcome, Decisions, ReviewKernel, ReviewResult, UndoEntry } from './types.js';

export interface ReviewOptions extends CommonInput, VerifyOverrides {
  /** Progress of long steps (sandbox, checks); the TUI shows it in its status line, never on stdout. */
  progress?: (message: string) => void;
}

/** What a review action adds to the operation log beside the branch it acted on. */
interface ReviewLogFields {
  commit: string | null;
  parent: string | null;
  applied: boolean;
  files: string[];
  undo_token: string | null;
  verification?: { status: 'passed' | 'failed' | 'skipped'; mode: 'none' | 'syntax' | 'tests' | 'typecheck' } | null;
  arguments?: Record<string, unknown>;
}

/** Review actions that commit, write files or move a branch land in the operation log like any operation. */
async function logReview(ws: Workspace, action: 'commit' | 'apply' | 'merge' | 'undo', branch: string, fields: ReviewLogFields): Promise<void> {
  await appendLog(ws.session, {
    operation: `review-${action}`,
    tool: 'tug_review',
    arguments: { branch, action, ...fields.arguments },
    snapshot_id: null,
    branch,
    commit: fields.commit,
    parent: fields.parent,
    verification: fields.verification ?? null,
    applied: fields.applied,
    files: fields.files,
    undo_token: fields.undo_token,
  });
}

export function createReviewKernel(options: ReviewOptions): ReviewKernel {
  const locked = <T>(body: (ws: Workspace) => Promise<T>) => withWorkspace(options, { lock: true }, body);
  const unlocked = <T>(body: (ws: Workspace) => Promise<T>) => withWorkspace(options, { lock: false }, body);

  /** Commits the accepted subset when something was rejected; the commit to take from then on, or a failed outcome. */
  async function settle(ws: Workspace, result: ReviewResult, decisions: Decisions, confirm: ActionOptions = {}): Promise<{ result: ReviewResult; note: string; token?: string } | ActionOutcome> {
    if (keepsEverything(result, decisions)) return { result, note: '' };
    const incomplete = incompleteSubset(result, decisions);
    if (incomplete && !confirm.confirmIncomplete) return { ok: false, message: `${incomplete.message}; nothing was committed without your confirmation`, incomplete };
    const run = await verifySubset(ws, result, decisions, options, options.progress);
    if (!run) return { ok: false, message: 'every change is rejected: nothing to commit (leave the branch, or delete it with git branch -D)' };
    if (run.sandbox.verification.status === 'failed') {
      return { ok: false, message: `verification (${run.config.verify}) of the accepted changes failed; nothing was committed`, verification: run.sandbox.verification };
    }
    const { commit, token } = await commitSubset(ws, result, decisions, run);
    const { kept, total } = countGroups(result, decisions);
    const v = run.sandbox.verification;
    await logReview(ws, 'commit', result.branch, {
      commit,
      parent: result.commit,
      applied: false,
      files: touchedPaths(run.patch),
      undo_token: token,
      verification: { status: v.status, mode: v.mode },
      arguments: { kept, total, ...(incomplete ? { incomplete: incomplete.rejected.length } : {}) },
    });
    return { result: await openResult(ws.repo, result.branch), note: `committed ${kept} of ${total} changes as ${commit.slice(0, 12)}`, token };
  }

  const isOutcome = (value: object): value is ActionOutcome => 'ok' in value;

  return {
    // runReplay takes the session lock itself.
    replay: async (result) => {
      const { runReplay } = await import('../ops/replay/run.js');
      const { progress, verify, python, test_command, typecheck_command, timeout, ...where } = options;
      try {
        const replayed = await runReplay({ ...where, verify, python, test_command, typecheck_command, timeout, branch: result.branch }, { progress });
        const branch = replayed.git!.branch;
        const fresh = await unlocked((ws) => openResult(ws.repo, branch));
        return { ok: true, message: `replayed ${result.branch} on the moved base as ${branch} (verification ${replayed.verification.status}); ${result.branch} is left as it was`, result: fresh };
      } catch (error) {
        if (!(error instanceof TugError)) throw error;
        return { ok: false, message: `replay refused (${error.code}): ${error.message}; nothing was made` };
      }
    },
    list: () => unlocked((ws) => listResults(ws.repo, ws.session)),
    open: (branch) => unlocked((ws) => openResult(ws.repo, branch)),

    verify: (result, decisions) =>
      locked(async (ws) => {
        const run = await verifySubset(ws, result, decisions, options, options.progress);
        if (!run) return { ok: false, message: 'every change is rejected: nothing to verify' };
        const { kept, total } = countGroups(result, decisions);
        const v = run.sandbox.verification;
        const incomplete = incompleteSubset(result, decisions);
        const message = `verification (${v.mode}) ${v.status} for ${kept} of ${total} changes${incomplete ? `, but ${incomplete.message}` : ''}`;
        return { ok: v.status !== 'failed' && !incomplete, message, verification: v, ...(incomplete ? { incomplete } : {}) };
      }),

    commit: (result, decisions, confirm) =>
      locked(async (ws) => {
        if (keepsEverything(result, decisions)) return { ok: true, message: 'nothing rejected: the branch already holds exactly these changes' };
        const settled = await settle(ws, result, decisions, confirm);
        if (isOutcome(settled)) return settled;
        return {
          ok: true,
          message: `${settled.note} on ${result.branch}`,
          result: settled.result,
          undo: { kind: 'commit', branch: result.branch, from: settled.result.commit, to: result.commit, label: `the review commit on ${result.branch}` },
        };
      }),

    apply: (result, decisions, confirm) =>
      locked(async (ws) => {
        const settled = await settle(ws, result, decisions, confirm);
        if (isOutcome(settled)) return settled;
        const all = settled.result.files.map((f) => f.diff.groups.map(() => true));
        const patch = await subsetPatch(ws, settled.result, all);
        const written = await writeWorkingTree(ws.repo, ws.session, workingTreeWrites(patch));
        const token = await registerUndoPoint(ws, { commit: settled.result.commit, base: settled.result.base, branch: result.branch, operation: result.operation, mode: 'apply' });
        await logReview(ws, 'apply', result.branch, { commit: settled.result.commit, parent: settled.result.base, applied: true, files: [...written].sort(), undo_token: token });
        const prefix = settled.note ? `${settled.note}; ` : '';
        return {
          ok: true,
          message: `${prefix}applied ${written.length} file(s) to the working tree (undo: u, or tug undo ${token})`,
          result: settled.result,
          undo: { kind: 'apply', token, label: `writing ${written.join(', ')}` },
        };
      }),

    merge: (result, decisions, confirm) =>
      locked(async (ws) => {
        const settled = await settle(ws, result, decisions, confirm);
        if (isOutcome(settled)) return settled;
        const merged = await mergeIntoHead(ws.repo, result.branch, `Merge tug branch '${result.branch}'`);
        const token = await registerUndoPoint(ws, {
          commit: merged.to,
          base: merged.from,
          branch: result.branch,
          operation: result.operation,
          mode: 'commit',
          ref_move: { ref: merged.ref, from: merged.from, to: merged.to },
        });
        await logReview(ws, 'merge', result.branch, {
          commit: merged.to,
          parent: merged.from,
          applied: true,
          files: [...new Set(settled.result.files.flatMap((f) => (f.oldPath ? [f.oldPath, f.path] : [f.path])))].sort(),
          undo_token: token,
        });
        const where = merged.ref.replace(/^refs\/heads\//, '');
        const prefix = settled.note ? `${settled.note}; ` : '';
        return {
          ok: true,
          message: `${prefix}merged ${result.branch} into ${where} (${merged.fastForward ? 'fast-forward' : 'merge commit'}; undo: u, or tug undo ${token})`,
          result: settled.result,
          undo: { kind: 'merge', token, label: `the merge into ${where}` },
        };
      }),

    undo: (entry: UndoEntry) =>
      entry.kind === 'commit'
        ? locked(async (ws) => {
            const now = await readRef(ws.repo, `refs/heads/${entry.branch}`);
            if (now !== entry.from) {
              throw new TugError('RefUpdateConflict', `${entry.branch} moved since the review commit; not moving it back`, { details: { ref: entry.branch, expected: entry.from, next: entry.to } });
            }
            await updateRef(ws.repo, `refs/heads/${entry.branch}`, entry.to, entry.from, 'tug: undo review');
            await logReview(ws, 'undo', entry.branch, { commit: entry.to, parent: entry.from, applied: false, files: [], undo_token: null });
            return { ok: true, message: `undid ${entry.label}: ${entry.branch} is back at ${entry.to.slice(0, 12)}`, result: await openResult(ws.repo, entry.branch) };
          })
        : runUndo({ ...options, token: entry.token }).then((undone) => ({
            ok: true,
            message: `undid ${entry.label}: ${undone.files_restored.length} file(s) restored${undone.branch_reset ? `, ${undone.branch_reset.ref.replace(/^refs\/heads\//, '')} moved back` : ''}`,
          })),
  };
}
