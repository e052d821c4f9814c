// `tug snapshot`: the workspace as a git tree id, without touching the index, HEAD or any ref.
import { z } from 'zod';
import { SCHEMA_VERSION, SnapshotResponse } from '../core/schemas.js';
import { CommonFields, defineOperation } from './operation.js';

export const snapshotInput = z.object({ ...CommonFields });

export const snapshotOperation = defineOperation({
  name: 'snapshot',
  tool: 'tug_snapshot',
  description: 'Record the workspace (tracked files as on disk plus untracked, not-ignored files) as a git tree; its id is the snapshot_id other operations can pin.',
  input: snapshotInput,
  output: SnapshotResponse,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input) {
    const { withWorkspace } = await import('./workspace.js');
    const { snapshotStats, takeSnapshot } = await import('./snapshot-service.js');
    return withWorkspace(input, { lock: false }, async (ws) => {
      const snapshot = await takeSnapshot(ws);
      const stats = await snapshotStats(ws, snapshot.tree);
      return SnapshotResponse.parse({
        status: 'ok',
        schema_version: SCHEMA_VERSION,
        snapshot_id: snapshot.tree,
        file_count: stats.file_count,
        total_bytes: stats.total_bytes,
        head: snapshot.head.oid,
        dirty: snapshot.dirty,
        warnings: ws.warnings,
      });
    });
  },
});
