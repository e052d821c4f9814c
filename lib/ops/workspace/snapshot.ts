// Snapshots for operations: compute the tree, compare with an expected id, and pin it as a commit under refs/tug/snapshots.
import path from 'node:path';
import { TugError } from '../../core/errors.js';
import { commitTree } from '../../git/objects.js';
import { pointRef } from '../../git/refs.js';
import { objectType, readHead, type HeadState } from '../../git/repo.js';
import { changedPaths, listTree, writeSnapshotTree } from '../../git/snapshot.js';
import { readJson, writeJson } from '../../session/files.js';
import type { Workspace } from './workspace.js';

export interface Snapshot {
  tree: string;
  head: HeadState;
  dirty: boolean;
}

export async function takeSnapshot(ws: Workspace): Promise<Snapshot> {
  const reading = readHead(ws.repo);
  const [tree, head] = await Promise.all([writeSnapshotTree(ws.repo, ws.session.paths.scratch, reading.then((h) => h.tree, () => null)), reading]);
  return { tree, head, dirty: tree !== head.tree };
}

/** SnapshotMismatch (exit 4) with the changed files when the workspace is no longer at `expected`. */
export async function assertSnapshot(ws: Workspace, snapshot: Snapshot, expected: string | undefined): Promise<void> {
  if (expected === undefined || expected === snapshot.tree) return;
  const known = /^[0-9a-f]{40}$/.test(expected) ? await objectType(ws.repo, expected) : null;
  const changed = known === 'tree' ? await changedPaths(ws.repo, expected, snapshot.tree) : [];
  const error = new TugError('SnapshotMismatch', `the workspace is no longer at snapshot ${expected}`, {
    details: { expected, actual: snapshot.tree, changed_files: changed, ...(known === 'tree' ? {} : { reason: 'unknown snapshot id' }) },
  });
  error.snapshotId = snapshot.tree;
  throw error;
}

/** File count and size of a snapshot, cached per tree id (trees are immutable). */
export async function snapshotStats(ws: Workspace, tree: string): Promise<{ file_count: number; total_bytes: number }> {
  const cacheFile = path.join(ws.session.paths.snapshots, `${tree}.json`);
  const cached = await readJson<{ file_count: number; total_bytes: number }>(cacheFile).catch(() => undefined);
  if (cached && Number.isInteger(cached.file_count)) return { file_count: cached.file_count, total_bytes: cached.total_bytes };
  const entries = await listTree(ws.repo, tree);
  const stats = { file_count: entries.length, total_bytes: entries.reduce((sum, e) => sum + e.size, 0) };
  await writeJson(cacheFile, stats);
  return stats;
}

/**
 * The commit a sandbox starts from: HEAD itself when the tree is clean, otherwise a commit of the
 * snapshot tree on top of HEAD. Dated like HEAD so the same state always gives the same id.
 */
export async function snapshotCommit(ws: Workspace, snapshot: Snapshot, made?: string): Promise<string> {
  const commit = made ?? (await snapshotCommitObject(ws, snapshot));
  if (commit !== snapshot.head.oid) await pointRef(ws.repo, `refs/tug/snapshots/${snapshot.tree}`, commit, 'tug: snapshot');
  return commit;
}

/**
 * The snapshot's commit as an object only, no ref yet (the same id every time: its time is HEAD's), for work that can
 * start before the change is known to succeed; snapshotCommit with it keeps it under its ref.
 */
export async function snapshotCommitObject(ws: Workspace, snapshot: Snapshot): Promise<string> {
  if (!snapshot.dirty && snapshot.head.oid) return snapshot.head.oid;
  return commitTree(ws.repo, {
    tree: snapshot.tree,
    parents: snapshot.head.oid ? [snapshot.head.oid] : [],
    message: `tug snapshot ${snapshot.tree}\n\nThe working tree as tug saw it, uncommitted changes included.\n`,
    time: snapshot.head.time ?? 0,
  });
}
