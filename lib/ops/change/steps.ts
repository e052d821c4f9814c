// The steps of the change road that more than one caller takes: verify a PatchSet in a sandbox, register a result, write it out.
import type { PatchSet } from '../../core/patchset.js';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { deleteRef, listRefs, pointRef } from '../../git/refs.js';
import { closeSandbox, openSandbox, writeSandboxFiles, type Sandbox, type SandboxMode } from '../../git/worktree.js';
import { writeBlobs } from '../../git/objects.js';
import { treeWithEntries, type PathEntry } from '../../git/revert-tree.js';
import { startResultTree, type TreeWrite } from '../../git/result-tree.js';
import type { FileWrite } from '../../workspace/apply.js';
import { verify, type Verification } from '../../verify/verify.js';
import type { CheckProgress } from '../../verify/run-check.js';
import { throwIfCancelled } from '../../core/cancel.js';
import { verifySettings, type ResolvedConfig } from '../workspace/config.js';
import { saveUndoRecord, UNDO_REFS, undoTokenFor, type UndoRecord } from './undo-records.js';
import type { Workspace } from '../workspace/workspace.js';

export interface SandboxOutcome {
  /** The tree the sandbox holds after the edits: exactly what verification saw. */
  tree: string;
  verification: Verification;
  sandboxPath: string;
}

/** Checks out `base` in a sandbox, writes the patch there, and runs the configured checks. */
export async function verifyInSandbox(
  ws: Workspace,
  base: string,
  patch: PatchSet,
  config: ResolvedConfig,
  options: {
    keep?: boolean;
    progress?: (message: string) => void;
    signal?: AbortSignal | undefined;
    heartbeat?: ((progress: CheckProgress) => void) | undefined;
    /** Files changed on `base` by earlier steps of a replay or plan, checked like the patch's own. */
    alsoChanged?: readonly string[] | undefined;
    /** `base`'s tree, when the caller knows it (a result tree may then start from the snapshot's index). */
    baseTree?: string | undefined;
    /** The sandbox's checkout of `base`, started while the change was planned (openSandboxEarly). */
    early?: EarlySandbox | null | undefined;
  } = {},
): Promise<SandboxOutcome> {
  const keep = options.keep ?? false;
  if (config.verify === 'none' && !keep) {
    // Nothing runs on the files, so nothing needs them on disk: the tree is the base's with the patch's blobs set, in a
    // private index (a checkout and clean of the shared sandbox were most of a large rename's git time). Its git
    // processes start before this function first waits, and then need nothing from this process: the caller may prove
    // the change meanwhile (runOnSnapshot in pipeline.ts).
    const ahead = options.baseTree === undefined ? null : startResultTree(ws.repo, ws.session.paths.scratch, base, options.baseTree, treeWrites(patch));
    const tree = await (ahead ?? treeWithEntries(ws.repo, ws.session.paths.scratch, base, await patchEntries(ws, patch), options.baseTree));
    return { tree, verification: { status: 'skipped', mode: 'none', checks: [] }, sandboxPath: '' };
  }
  options.progress?.('preparing sandbox');
  const early = options.early?.base === base && options.early.keep === keep ? options.early.opened : null;
  const sandbox = await (early ?? openSandbox(ws.repo, ws.session.dir, base, sandboxMode(keep)));
  let tree: string;
  let verification: Verification;
  try {
    throwIfCancelled(options.signal, 'while preparing the sandbox');
    tree = await writeSandboxFiles(ws.repo, sandbox, sandboxWrites(patch));
    throwIfCancelled(options.signal, 'while preparing the sandbox');
    options.progress?.(`verifying (${config.verify})`);
    verification = await verify({
      ...verifySettings(config),
      cwd: sandbox.path,
      changedFiles: changedFiles(patch, options.alsoChanged ?? []),
      sessionDir: ws.session.dir,
      workersDir: ws.session.paths.workers,
      signal: options.signal,
      onProgress: options.heartbeat,
      tree,
      baseIsHead: true,
    });
  } catch (error) {
    await closeSandbox(sandbox, keep);
    throw error;
  }
  await closeSandbox(sandbox, keep && verification.status === 'failed');
  return { tree, verification, sandboxPath: sandbox.path };
}

function sandboxMode(keep: boolean): SandboxMode {
  return keep ? 'fresh' : process.env['TUG_SANDBOX_MODE'] === 'fresh' ? 'fresh' : 'reuse';
}

/** A sandbox checked out before the patch is known. */
export interface EarlySandbox {
  base: string;
  keep: boolean;
  opened: Promise<Sandbox>;
}

/**
 * Starts checking `base` out in the sandbox while the change is still being planned (a Rust plan's `cargo check`, a
 * TypeScript search): the checkout depends only on the base, and was otherwise waited for after the plan. Null when
 * the verification needs no files on disk. A caller that does not pass it to verifyInSandbox drops it (dropEarlySandbox).
 */
export function openSandboxEarly(ws: Workspace, base: string, config: ResolvedConfig, keep: boolean): EarlySandbox | null {
  if (config.verify === 'none' && !keep) return null;
  const opened = openSandbox(ws.repo, ws.session.dir, base, sandboxMode(keep));
  opened.catch(() => undefined); // a failed checkout is reported where the sandbox is used
  return { base, keep, opened };
}

/** Waits for an early checkout nobody used (the plan failed, or had nothing to do) and removes a fresh one. */
export async function dropEarlySandbox(early: EarlySandbox | null): Promise<void> {
  const sandbox = early ? await early.opened.catch(() => null) : null;
  if (sandbox) await closeSandbox(sandbox, false);
}

/** The files to check: the patch's, and those earlier steps changed that the patch leaves in place. */
function changedFiles(patch: PatchSet, earlier: readonly string[]): string[] {
  const gone = new Set(patch.files.flatMap((f) => (f.status === 'deleted' || f.newPath ? [f.path] : [])));
  const own = patch.files.filter((f) => f.status !== 'deleted').map((f) => f.newPath ?? f.path);
  return [...new Set([...earlier.filter((p) => !gone.has(p)), ...own])];
}

/** What the sandbox gets: new contents; deletions; for moved files a deletion plus the file at its new path. */
type SandboxWrite = { path: string; bytes: Uint8Array | null; mode: string };

function sandboxWrites(patch: PatchSet): SandboxWrite[] {
  return patch.files.flatMap((f): SandboxWrite[] => {
    if (f.status === 'deleted') return [{ path: f.path, bytes: null, mode: f.mode }];
    return f.newPath ? [{ path: f.path, bytes: null, mode: f.mode }, { path: f.newPath, bytes: f.after, mode: f.mode }] : [{ path: f.path, bytes: f.after, mode: f.mode }];
  });
}

/** The patch as the result tree's paths: new contents, and removals for deleted files and a move's old path. */
function treeWrites(patch: PatchSet): TreeWrite[] {
  return patch.files.flatMap((f): TreeWrite[] => [
    ...(f.status === 'deleted' || f.newPath ? [{ path: f.path, bytes: null, mode: f.mode }] : []),
    ...(f.status !== 'deleted' ? [{ path: f.newPath ?? f.path, bytes: f.after, mode: f.mode }] : []),
  ]);
}

/** The patch as index entries: new blobs (written in one batch) for written files, removals for deleted files and a move's old path. */
export async function patchEntries(ws: Workspace, patch: PatchSet): Promise<PathEntry[]> {
  const written = patch.files.filter((f) => f.status !== 'deleted');
  const oids = await writeBlobs(ws.repo, written.map((f) => f.after));
  const oidOf = new Map(written.map((f, i) => [f, oids[i]!]));
  return patch.files.flatMap((f): PathEntry[] => [
    ...(f.status === 'deleted' || f.newPath ? [{ path: f.path, oid: null, mode: null }] : []),
    ...(f.status !== 'deleted' ? [{ path: f.newPath ?? f.path, oid: oidOf.get(f)!, mode: f.mode }] : []),
  ]);
}

/** The same change as preconditioned writes for the apply step: each file must still hold its base content. */
export function workingTreeWrites(patch: PatchSet): FileWrite[] {
  return patch.files.flatMap((f): FileWrite[] => {
    if (f.status === 'deleted') return [{ path: f.path, expectOid: f.oldOid, bytes: null }];
    if (f.status === 'added') return [{ path: f.path, expectOid: null, bytes: f.after, mode: f.mode }];
    return f.newPath
      ? [
          { path: f.path, expectOid: f.oldOid, bytes: null },
          { path: f.newPath, expectOid: null, bytes: f.after, mode: f.mode },
        ]
      : [{ path: f.path, expectOid: f.oldOid, bytes: f.after }];
  });
}

/** Points refs/tug/undo/<token> at the result and remembers how it was used; returns the token. */
export async function registerUndoPoint(ws: Workspace, record: Omit<UndoRecord, 'token' | 'created_at'>): Promise<string> {
  const token = undoTokenFor(record.commit);
  const undoRef = `${UNDO_REFS}${token}`;
  await pointRef(ws.repo, undoRef, record.commit, 'tug: undo point');
  await saveUndoRecord(ws.session, { token, ...record, created_at: new Date().toISOString() });
  return token;
}

/** Refs already pointing at `commit` (result branches, undo points), so a failed --commit removes only what it added. */
export async function refsAt(ws: Workspace, commit: string): Promise<Set<string>> {
  const refs = [...(await listRefs(ws.repo, 'refs/heads/')), ...(await listRefs(ws.repo, 'refs/tug/undo/'))];
  return new Set(refs.filter((r) => r.oid === commit).map((r) => r.ref));
}

/** Takes back the result branch and undo point a failed --commit created, leaving the repository as it was. */
export async function dropNewRefs(ws: Workspace, commit: string, before: Set<string>): Promise<void> {
  for (const ref of await refsAt(ws, commit)) {
    if (before.has(ref)) continue;
    await deleteRef(ws.repo, ref, commit).catch(() => undefined);
    if (ref.startsWith('refs/tug/undo/')) await rm(path.join(ws.session.paths.undo, `${ref.slice('refs/tug/undo/'.length)}.json`), { force: true });
  }
}
