// The undo algorithm: compare each file on disk with the result and the snapshot, then restore all at once.
import { readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { throwIfCancelled } from '../../core/cancel.js';
import { TugError } from '../../core/errors.js';
import { SCHEMA_VERSION, UndoResponse, type WarningJSON } from '../../core/schemas.js';
import { cleanedOids } from '../../git/checkout-form.js';
import { readBlobs } from '../../git/objects.js';
import { readRef, updateRef } from '../../git/refs.js';
import { readHead, type Repo } from '../../git/repo.js';
import { git } from '../../git/run-git.js';
import { currentOid, writeWorkingTree, type FileWrite } from '../../workspace/apply.js';
import { takeSnapshot } from '../workspace/snapshot.js';
import type { undoInput } from './schema.js';
import { appendLog } from '../change/op-log.js';
import { readJson } from '../../session/files.js';
import { LAST_RESULT_FILE } from '../workspace/queries.js';
import { loadUndoRecord, type UndoRecord } from '../change/undo-records.js';
import { withWorkspace, type Workspace } from '../workspace/workspace.js';
import type { OperationContext } from '../operation.js';
import { mergedIntoHead, mergedWarning, revertCommit } from './merged.js';
import { revertOwnHunks } from './three-way.js';

interface ChangedFile {
  path: string;
  baseOid: string | null;
  baseMode: string | null;
  resultOid: string | null;
}

/**
 * A cancel (the MCP client's, while this call waits behind another write's verification) ends the wait for the session
 * lock with Cancelled; one that arrives after the lock was taken still stops the undo before it writes anything.
 */
export async function runUndo(input: z.infer<typeof undoInput>, context: OperationContext = {}): Promise<z.infer<typeof UndoResponse>> {
  return withWorkspace(input, { lock: true, signal: context.signal, onWait: context.progress }, async (ws) => {
    throwIfCancelled(context.signal, 'before undoing');
    const warnings = [...ws.warnings];
    const record = await readableUndoRecord(ws, input.token, warnings);
    const commit = await readRef(ws.repo, `refs/tug/undo/${input.token}`);
    if (!commit) throw new TugError('UndoTokenNotFound', `no undo point ${input.token} in this repository`, { details: { token: input.token } });
    // A reviewed subset is a child of the commit it was cut from; its record names the snapshot it really starts from.
    const base = record?.base ?? (await git(['rev-parse', `${commit}^1`], { cwd: ws.repo.root })).stdout.trim();
    const changed = await changedFiles(ws.repo, base, commit);

    const restore: FileWrite[] = [];
    const already: string[] = [];
    const conflicts: string[] = [];
    /** Files changed since the operation elsewhere than its own lines: their merged content (three-way.ts). */
    const merged3 = new Map<string, Uint8Array>();
    for (const file of changed) {
      let now = await currentOid(ws.repo, file.path);
      // With autocrlf or eol attributes the file on disk is the checked-out form of its blob.
      if (now !== null && now !== file.baseOid && now !== file.resultOid) now = (await cleanedOids(ws.repo, [file.path])).get(file.path) ?? now;
      if (now === file.baseOid) already.push(file.path);
      else if (now === file.resultOid) restore.push(toWrite(file, now));
      else {
        const reverted = input.force || input.revert ? null : await revertOwn(ws, file, now);
        if (reverted) {
          merged3.set(file.path, reverted);
          restore.push(toWrite(file, now));
          continue;
        }
        conflicts.push(file.path);
        if (input.force) restore.push(toWrite(file, now));
      }
    }
    if (conflicts.length > 0 && !input.force) {
      // The way out that keeps the other change: git revert (a commit in history), or resolving by hand; never --force.
      const inHistory = await mergedIntoHead(ws, commit);
      const how = inHistory ? `; \`git revert ${commit.slice(0, 12)}\` undoes it as a commit and merges with the later changes` : '; resolve them by hand';
      throw new TugError('UndoConflict', `files changed since the operation in the lines it changed: ${conflicts.join(', ')}${how}`, {
        details: { conflicting_files: conflicts, token: input.token, commit, ...(inHistory ? { suggestion: `git revert ${commit}` } : {}) },
      });
    }
    const contents = await readBlobs(ws.repo, restore.map((w) => changed.find((c) => c.path === w.path)!.baseOid).filter((o): o is string => o !== null));
    for (const write of restore) {
      const oid = changed.find((c) => c.path === write.path)!.baseOid;
      write.bytes = merged3.get(write.path) ?? (oid === null ? null : contents.get(oid)!);
    }

    let branchReset: { ref: string; from: string; to: string } | null = null;
    if (record?.mode === 'commit' && record.ref_move && (await readRef(ws.repo, record.ref_move.ref)) === commit) {
      branchReset = { ref: record.ref_move.ref, from: commit, to: base };
    }
    // Merged by the user (or committed and built on): HEAD keeps the change unless a revert commit is asked for.
    const merged = branchReset ? null : await mergedIntoHead(ws, commit);
    if (input.revert && !merged) {
      throw new TugError('InvalidArgument', `revert makes a revert commit for a change merged into HEAD; ${commit.slice(0, 12)} is not in HEAD's history`, { details: { argument: 'revert', reason: 'not merged' } });
    }
    // Every file already back at its base (a revert recorded before, or undone by hand): a second revert answers
    // "already undone" (already_undone lists them) instead of a conflict, so a retried call is safe.
    const allUndone = already.length > 0 && restore.length === 0 && conflicts.length === 0;
    if (input.revert && !allUndone && (conflicts.length > 0 || already.length > 0)) {
      throw new TugError('UndoConflict', `revert needs the files as the change left them: ${[...conflicts, ...already].sort().join(', ')}`, { details: { conflicting_files: [...conflicts, ...already].sort(), token: input.token } });
    }
    const reverted = merged && input.revert && !allUndone ? { ref: merged.ref, from: merged.head, to: await revertCommit(ws, merged, commit, changed) } : null;
    const refMove = branchReset ?? reverted;
    // The last point a cancel stops the undo: from here on it writes, all or nothing (the journal).
    throwIfCancelled(context.signal, 'before writing');
    if (restore.length > 0 || refMove) {
      await writeWorkingTree(ws.repo, ws.session, restore, { force: true, ...(refMove ? { refMove, updateIndex: true } : {}) });
    }
    if (merged && !reverted && !allUndone) warnings.push(mergedWarning(merged, commit, restore.length));
    // An `onto` change moved a tug/ branch; while that branch still ends at this result, step it back so the next change builds on what is on disk.
    const move = record?.branch_move;
    if (move && !branchReset && (await readRef(ws.repo, move.ref)) === commit) {
      if ((await readHead(ws.repo)).ref === move.ref) {
        warnings.push({ code: 'BranchCheckedOut', message: `${move.ref} is checked out, so tug left it at the undone commit`, details: { ref: move.ref } });
      } else {
        await updateRef(ws.repo, move.ref, move.from, commit, 'tug: undo onto');
        branchReset = { ref: move.ref, from: commit, to: move.from };
      }
    }
    const snapshot = await takeSnapshot(ws);
    if (restore.length > 0 || branchReset || reverted) await appendLog(ws.session, {
      operation: 'undo',
      tool: 'tug_undo',
      arguments: { token: input.token, ...(input.force ? { force: true } : {}), ...(reverted ? { revert: true } : {}) },
      snapshot_id: snapshot.tree,
      branch: (branchReset ?? reverted)?.ref.replace(/^refs\/heads\//, '') ?? null,
      commit: reverted?.to ?? null,
      parent: null,
      verification: null,
      applied: restore.length > 0,
      files: restore.map((w) => w.path).sort(),
      undo_token: input.token,
    });
    await forgetLastResult(ws, input.token);
    return UndoResponse.parse({
      status: 'ok',
      schema_version: SCHEMA_VERSION,
      snapshot_id: snapshot.tree,
      undo_token: input.token,
      commit,
      restored_to: base,
      files_restored: restore.map((w) => w.path).sort(),
      already_undone: already.sort(),
      branch_reset: branchReset,
      forced: input.force ? conflicts.sort() : [],
      ...(reverted ? { reverted } : {}),
      warnings,
    });
  });
}

/**
 * The undo record, or undefined when there is none. An unreadable one is renamed `<token>.json.corrupt-<time>` and undo
 * goes on from the ref alone (files only, no branch reset), with a warning, instead of dead-ending on SessionCorrupt.
 */
async function readableUndoRecord(ws: Workspace, token: string, warnings: WarningJSON[]): Promise<UndoRecord | undefined> {
  try {
    return await loadUndoRecord(ws.session, token);
  } catch (error) {
    if (!(error instanceof TugError && error.code === 'SessionCorrupt')) throw error;
    const file = path.join(ws.session.paths.undo, `${token}.json`);
    const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await rename(file, aside);
    warnings.push({
      code: 'SessionRebuilt',
      message: `the undo record ${path.basename(file)} was unreadable; moved it to ${path.basename(aside)} and undid the files from the undo ref alone`,
      details: { path: file, moved_to: aside, reason: 'not valid JSON' },
    });
    return undefined;
  }
}

/** The file on disk with only the operation's hunks taken back, or null (deleted, binary, or overlapping changes). */
async function revertOwn(ws: Workspace, file: ChangedFile, now: string | null): Promise<Uint8Array | null> {
  if (now === null || file.baseOid === null || file.resultOid === null) return null;
  const current = await readFile(path.join(ws.repo.root, file.path)).catch(() => null);
  if (!current) return null;
  const blobs = await readBlobs(ws.repo, [file.resultOid, file.baseOid]);
  return revertOwnHunks(ws.repo.root, ws.session.paths.scratch, current, blobs.get(file.resultOid)!, blobs.get(file.baseOid)!);
}

function toWrite(file: ChangedFile, now: string | null): FileWrite {
  return { path: file.path, expectOid: now, bytes: null, ...(file.baseMode ? { mode: file.baseMode } : {}) };
}

/** `git diff-tree --raw` between the snapshot commit and the result. */
async function changedFiles(repo: Repo, base: string, commit: string): Promise<ChangedFile[]> {
  const out = await git(['diff-tree', '-r', '-z', '--no-renames', base, commit], { cwd: repo.root });
  const fields = out.stdout.split('\0');
  const files: ChangedFile[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = fields[i]!;
    if (!meta.startsWith(':')) break;
    const [oldMode, , oldOid, newOid] = meta.slice(1).split(' ');
    const absent = (oid: string | undefined) => (oid === undefined || /^0+$/.test(oid) ? null : oid);
    files.push({ path: fields[i + 1]!, baseOid: absent(oldOid), baseMode: oldMode === '000000' ? null : oldMode!, resultOid: absent(newOid) });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** workspace://last_patch shows the last change that still stands: once it is undone, it shows none. */
async function forgetLastResult(ws: Workspace, token: string): Promise<void> {
  const file = path.join(ws.session.dir, LAST_RESULT_FILE);
  const last = await readJson<{ undo_token?: string }>(file);
  if (last?.undo_token === token) await rm(file, { force: true });
}
