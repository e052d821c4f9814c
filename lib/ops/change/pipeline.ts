// The one road every change takes: snapshot → PatchSet → sandbox checkout → verify → commit on tug/… → optional apply or commit.
import path from 'node:path';
import { TugError } from '../../core/errors.js';
import { throwIfCancelled } from '../../core/cancel.js';
import { writeJson } from '../../session/files.js';
import { LAST_RESULT_FILE } from '../workspace/queries.js';
import { configFor } from '../workspace/config.js';
import { summarize } from '../../core/patchset.js';
import { RunResponse, SCHEMA_VERSION, type RunResponseJSON } from '../../core/schemas.js';
import { slugify } from '../../core/slug.js';
import { commitTree, userIdentity } from '../../git/objects.js';
import { writeNote } from '../../git/notes.js';
import { buildRecord, recordText } from './record.js';
import { commitOnNewBranch, createResultBranch, readRef } from '../../git/refs.js';
import { assertRefMovable, staleFiles, writeWorkingTree } from '../../workspace/apply.js';
import { assertCommittable, commitMessage, failedNames, touchedPaths } from './parts.js';
import { dropEarlySandbox, dropNewRefs, openSandboxEarly, refsAt, registerUndoPoint, verifyInSandbox, workingTreeWrites } from './steps.js';
import { appendLog, loggedArguments } from './op-log.js';
import { advanceOnto, resolveOnto, rewindOnto, type OntoBranch } from './onto.js';
import { skipWorktreePaths } from '../../git/snapshot.js';
import { assertSnapshot, snapshotCommit, snapshotCommitObject, takeSnapshot, type Snapshot } from '../workspace/snapshot.js';
import { orderWarnings, presentPatch, presentVerification } from './present.js';
import { saveUndoRecord, UNDO_REFS, UNDO_TOKEN_ID_CHARS, UNDO_TOKEN_PREFIX } from './undo-records.js';
import { orderUnsure } from './unsure.js';
import type { Workspace } from '../workspace/workspace.js';
import type { ChangeKind, ChangeOptions, Planner, Proposal, Reporter } from './types.js';
import { withWorkspace } from '../workspace/workspace.js';
import { currentStep } from './road-step.js';
import { runStep, stepSnapshot } from './step-run.js';
import { patchBetween } from './tree-patch.js';
import { mark } from '../../core/timing.js';
import type { RoadStep } from './road-step.js';

export async function runChange(
  options: ChangeOptions,
  kind: ChangeKind,
  plan: Planner,
  reporter: Reporter = {},
): Promise<RunResponseJSON> {
  if (options.apply && options.commit) {
    throw new TugError('InvalidArgument', '--apply and --commit cannot be combined', { details: { argument: 'commit', reason: 'conflicts with --apply' } });
  }
  if (options.onto && options.commit) {
    throw new TugError('InvalidArgument', 'onto and commit cannot be combined', { details: { argument: 'commit', reason: 'conflicts with onto' } });
  }
  const step = currentStep();
  // A step of a replay or plan: its caller holds the lock and makes the branch, the undo point and the verification.
  if (step?.mode === 'step') return withWorkspace(options, { lock: false }, (ws) => runStep(ws, step, options, kind, plan, reporter));
  if (step) return withWorkspace(options, { lock: false }, (ws) => runOnSnapshot(ws, lastStepSnapshot(step), options, kind, plan, reporter, step));
  return withWorkspace(options, { lock: true, signal: reporter.signal, onWait: reporter.progress }, async (ws) => {
    kind.warmUp?.(ws);
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

/**
 * The last step of a replay or plan: its tree is the step's base; with the user's HEAD (`step.user`), --commit moves the
 * branch the user is on from HEAD to the result, over every step.
 */
function lastStepSnapshot(step: RoadStep): Snapshot {
  const plain = stepSnapshot(step.base);
  return step.user ? { ...plain, head: step.user.head, dirty: step.user.dirty } : plain;
}

/** A file outside the sparse checkout is not on disk: --apply cannot write it, and this says so instead of "stale". */
async function refuseSparseWrites(ws: Workspace, stale: readonly string[]): Promise<void> {
  const outside = await skipWorktreePaths(ws.repo, stale);
  if (outside.length === 0) return;
  throw new TugError('OutsideSparseCheckout', `--apply would write files outside the sparse checkout: ${outside.join(', ')}`, {
    details: { paths: outside },
  });
}

async function runOnSnapshot(
  ws: Workspace,
  snapshot: Snapshot,
  options: ChangeOptions,
  kind: ChangeKind,
  plan: Planner,
  reporter: Reporter,
  step?: RoadStep,
): Promise<RunResponseJSON> {
  const config = await configFor(ws.repo, options, ws.warnings);
  const onto: OntoBranch | null = options.onto ? await resolveOnto(ws, options.onto, snapshot.head) : null;
  throwIfCancelled(reporter.signal, 'during analysis');
  // The base is known before the plan, so the sandbox's checkout of it runs beside the analysis. The snapshot's commit
  // gets its ref only once the change goes on: a failed plan leaves the refs as they were.
  const baseObject = step ? step.base.commit : (onto?.tip ?? (await snapshotCommitObject(ws, snapshot)));
  const keep = options.keep_sandbox ?? false;
  const early = openSandboxEarly(ws, baseObject, config, keep);
  // The commit's author is read (one `git config`, which never fails) while the change is planned, not after it.
  const author = userIdentity(ws.repo);
  author.catch(() => undefined); // awaited once the commit is made; a failed plan never gets there
  let proposal: Proposal;
  try {
    proposal = await plan(ws, snapshot, { tree: onto?.tipTree ?? snapshot.tree, onto: onto?.branch ?? null, checkLater: true });
    throwIfCancelled(reporter.signal, 'after analysis');
    mark('change: planned');
    if (proposal.patch.files.length === 0 && proposal.nothingToDoIsSuccess) {
      // An idempotent operation with nothing to do succeeded: no sandbox, no commit, no branch, no undo point.
      await dropEarlySandbox(early);
      return RunResponse.parse({ ...okHead(ws, snapshot, kind, proposal, { status: 'skipped', mode: config.verify, checks: [] }), changed: false, applied: false });
    }
    if (proposal.patch.files.length === 0) {
      throw new TugError('InvalidArgument', 'the change leaves every file as it was', { details: { argument: 'edits', reason: 'no-op patch' } });
    }
    if (options.commit) await assertCommittable(ws, snapshot);
  } catch (error) {
    await dropEarlySandbox(early);
    throw error;
  }
  // With checks that run on the files (tests), the plan's proof (Proposal.check) comes first: a refused change runs
  // nothing. Without, it runs while git writes the result's blobs and tree, which verifyInSandbox starts before it
  // first waits and which then need nothing of this process's main thread, held by the proof: objects only, so a
  // refused change leaves no ref, note or file, just objects nothing names.
  const objectsOnly = config.verify === 'none' && !keep;
  if (proposal.check && !objectsOnly) {
    try {
      await proposal.check();
    } catch (error) {
      await dropEarlySandbox(early);
      throw error;
    }
  }
  // The snapshot's commit is baseObject; its ref is made once the change goes on.
  const keepBase = () => (step || onto?.tip ? Promise.resolve(baseObject) : snapshotCommit(ws, snapshot, baseObject));
  const base = objectsOnly ? baseObject : await keepBase();
  const sandboxed = verifyInSandbox(ws, base, proposal.patch, config, {
    early,
    keep,
    progress: reporter.progress,
    signal: reporter.signal,
    heartbeat: reporter.heartbeat,
    alsoChanged: step?.earlierFiles,
    // snapshotCommit's tree is the snapshot's; an --onto tip's and a plan step's base are known too.
    baseTree: step ? step.base.tree : (onto?.tipTree ?? snapshot.tree),
  });
  if (objectsOnly) {
    sandboxed.catch(() => undefined); // its failure is reported below, once the proof is through
    try {
      if (proposal.check) {
        await proposal.check();
        mark('change: proven beside the result tree');
      }
      await keepBase();
    } catch (error) {
      await sandboxed.catch(() => undefined);
      throw error;
    }
  }
  const { tree: resultTree, verification, sandboxPath } = await sandboxed;
  mark('change: sandbox written and verified');
  throwIfCancelled(reporter.signal, 'before committing');
  if (verification.status === 'failed') {
    throw new TugError('VerificationFailed', `verification (${config.verify}) failed: ${failedNames(verification)}`, {
      // The places the analysis could not prove are often why (a patch target naming the old path, say).
      details: {
        verification: presentVerification(verification),
        ...(proposal.unsure && proposal.unsure.length > 0 ? { unsure: orderUnsure(proposal.unsure) } : {}),
        // And the analysis's warnings (a binding that kept the old name, a decorator that replaces what it wraps).
        ...(proposal.warnings.length > 0 ? { warnings: orderWarnings(proposal.warnings) } : {}),
        ...(keep ? { sandbox_path: sandboxPath } : {}),
      },
    });
  }

  // The record travels as a note, not in the message: the commit (and its id) stays what it was without it.
  const record = buildRecord({
    operation: kind.operation,
    input: kind.arguments ?? (options as Record<string, unknown>),
    symbol: proposal.symbol,
    tools: proposal.tools,
    snapshot: snapshot.tree,
    base,
    verification,
    plan: step?.plan ?? kind.plan,
  });
  const spec = { tree: resultTree, parents: [base], message: commitMessage(kind, proposal, snapshot.tree, verification), time: snapshot.head.time ?? 0, author: await author };
  const branchName = step?.branch ?? `tug/${kind.scope}/${slugify(proposal.slug)}`;
  // A result left on its branch only (no apply, commit or --onto: nothing to check before the branch is made) gets
  // its commit, branch, undo point's ref and note from one process started from this one; the other roads make the
  // branch after their checks and write the note last.
  const undoRef = { prefix: `${UNDO_REFS}${UNDO_TOKEN_PREFIX}`, chars: UNDO_TOKEN_ID_CHARS, reason: 'tug: undo point' };
  const alone = !options.apply && !options.commit && !onto ? await commitOnNewBranch(ws.repo, spec, branchName, { named: undoRef, note: recordText(record) }) : null;
  const commit = alone ? alone.commit : await commitTree(ws.repo, spec);
  // After earlier steps, the working tree gets (and undo takes back) all of them: the change from the first step's base.
  const first = step?.first && step.first.commit !== base ? step.first : null;
  // Only an apply or a commit writes files (the change from the first step's base after earlier plan steps).
  const writes = options.apply || options.commit ? workingTreeWrites(first ? await patchBetween(ws.repo, first.tree, resultTree) : proposal.patch) : [];
  if (options.apply) {
    // Checked before any ref moves, so a refused apply leaves no branch behind that the working tree lacks.
    const stale = await staleFiles(ws.repo, writes);
    await refuseSparseWrites(ws, stale);
    if (stale.length > 0) {
      const against = onto?.tip ? `the tip of ${onto.branch}` : 'the snapshot';
      throw new TugError('SnapshotMismatch', `files on disk differ from ${against}: ${stale.join(', ')}`, {
        details: { changed_files: stale, ...(onto ? { onto: onto.branch, reason: 'pass apply:false to keep editing the branch only' } : {}) },
      });
    }
  }
  // --commit: refuse a locked or mid-merge repository before anything is created; a later refusal takes back the refs.
  const refsBefore = options.commit ? await refsAt(ws, commit) : null;
  if (options.commit) await assertRefMovable(ws.repo, { ref: snapshot.head.ref ?? 'HEAD', from: snapshot.head.oid!, to: commit }, true);
  let branch: string;
  if (onto) {
    await advanceOnto(ws, onto, commit);
    branch = onto.branch;
  } else {
    branch = alone ? alone.branch : await createResultBranch(ws.repo, branchName, commit);
  }
  if (step) step.outcome = { commit, tree: resultTree, changed: true, proposal, kind, input: kind.arguments ?? (options as Record<string, unknown>) };
  const undoPoint = {
    commit,
    base: first?.commit ?? base,
    branch,
    operation: kind.operation,
    ...(onto ? { branch_move: { ref: onto.ref, from: base, to: commit } } : {}),
  };
  const token = await registerUndoPoint(ws, { ...undoPoint, mode: 'branch' });
  mark('change: committed, branch and undo point made');

  const response: RunResponseJSON = {
    ...okHead(ws, snapshot, kind, proposal, presentVerification(verification)),
    ...(proposal.unsure && proposal.unsure.length > 0 ? { unsure: orderUnsure(proposal.unsure) } : {}),
    git: { head: snapshot.head.oid, snapshot_commit: base, branch, commit, dirty: snapshot.dirty },
    undo_token: token,
    applied: false, // present either way, so a caller never has to guess whether the files changed
  };
  if (options.apply) {
    reporter.progress?.('applying to the working tree');
    response.applied = true;
    try {
      response.files_written = written(await writeWorkingTree(ws.repo, ws.session, writes), writes);
    } catch (error) {
      if (onto) await rewindOnto(ws, onto, commit);
      throw error;
    }
    await saveUndoRecord(ws.session, { token, ...undoPoint, mode: 'apply', created_at: new Date().toISOString() });
  } else if (options.commit) {
    reporter.progress?.('committing on the current branch');
    const ref = snapshot.head.ref ?? 'HEAD';
    const refMove = { ref, from: snapshot.head.oid!, to: commit };
    response.committed = true;
    try {
      response.files_written = written(await writeWorkingTree(ws.repo, ws.session, writes, { refMove, updateIndex: true }), writes);
    } catch (error) {
      if (refsBefore && (await readRef(ws.repo, ref)) === refMove.from) await dropNewRefs(ws, commit, refsBefore);
      throw error;
    }
    await saveUndoRecord(ws.session, { token, ...undoPoint, mode: 'commit', ref_move: refMove, created_at: new Date().toISOString() });
  }
  // Written once everything else held: a refused or failed apply/commit leaves refs/notes/tug as it was too (a result
  // left on its branch has it already, unless that shell could not write it). Its git process runs while the response
  // is checked against its schema, which writes nothing.
  const noted = alone?.noted ? Promise.resolve() : writeNote(ws.repo, commit, recordText(record));
  let parsed: RunResponseJSON;
  try {
    parsed = RunResponse.parse(response);
  } catch (error) {
    await noted.catch(() => undefined);
    throw error;
  }
  mark('change: response parsed');
  await noted;
  await writeJson(path.join(ws.session.dir, LAST_RESULT_FILE), parsed);
  await appendLog(ws.session, {
    operation: kind.operation,
    tool: kind.tool ?? `tug_${kind.operation.replaceAll('-', '_')}`,
    arguments: loggedArguments(kind.arguments ?? (options as Record<string, unknown>)),
    snapshot_id: snapshot.tree,
    branch,
    commit,
    parent: base,
    verification: { status: verification.status, mode: verification.mode },
    applied: Boolean(response.applied || response.committed),
    files: touchedPaths(proposal.patch),
    undo_token: token,
  });
  return parsed;
}

/** The paths a write left holding content: a deleted file is not "written" (patch.files_deleted lists it). */
function written(paths: readonly string[], writes: readonly { path: string; bytes: Uint8Array | null }[]): string[] {
  const removed = new Set(writes.filter((w) => w.bytes === null).map((w) => w.path));
  return paths.filter((p) => !removed.has(p));
}

/** What every ok answer of a change starts with, whether it committed something or found nothing to do. */
function okHead(ws: Workspace, snapshot: Snapshot, kind: ChangeKind, proposal: Proposal, verification: RunResponseJSON['verification']): Pick<RunResponseJSON, 'status' | 'schema_version' | 'snapshot_id' | 'operation' | 'patch' | 'summary' | 'verification' | 'warnings'> {
  return {
    status: 'ok',
    schema_version: SCHEMA_VERSION,
    snapshot_id: snapshot.tree,
    operation: kind.operation,
    patch: presentPatch(proposal.patch),
    summary: summarize(proposal.patch),
    verification,
    warnings: orderWarnings([...ws.warnings, ...proposal.warnings]),
  };
}
