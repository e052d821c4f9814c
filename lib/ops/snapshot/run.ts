// What `tug snapshot` does, without zod or the registry: the operation parses this result through SnapshotResponse, and the CLI's lean start prints it as is.
import type { WarningJSON } from '../../core/schemas.js';
import { SCHEMA_VERSION } from '../../core/schema-version.js';
import { snapshotStats, takeSnapshot } from '../workspace/snapshot.js';
import { withWorkspace, type CommonInput } from '../workspace/workspace.js';

/** The fields of SnapshotResponse in its key order, so printing this equals printing the parsed response. */
export interface SnapshotResult {
  status: 'ok';
  schema_version: typeof SCHEMA_VERSION;
  snapshot_id: string;
  file_count: number;
  total_bytes: number;
  head: string | null;
  dirty: boolean;
  warnings: WarningJSON[];
}

export async function runSnapshot(input: CommonInput): Promise<SnapshotResult> {
  return withWorkspace(input, { lock: false }, async (ws) => {
    const snapshot = await takeSnapshot(ws);
    const stats = await snapshotStats(ws, snapshot.tree);
    return {
      status: 'ok',
      schema_version: SCHEMA_VERSION,
      snapshot_id: snapshot.tree,
      file_count: stats.file_count,
      total_bytes: stats.total_bytes,
      head: snapshot.head.oid,
      dirty: snapshot.dirty,
      warnings: ws.warnings,
    };
  });
}
