// `tug snapshot`: the workspace as a git tree id, without touching the index, HEAD or any ref.
import { z } from 'zod';
import { SnapshotResponse } from '../../core/schemas.js';
import { CommonFields, defineOperation } from '../operation.js';

export const snapshotInput = z.object({ ...CommonFields });

export const snapshotOperation = defineOperation({
  name: 'snapshot',
  tool: 'tug_snapshot',
  summary: 'Record the workspace as a git tree; its snapshot_id pins later calls.',
  lockFree: true,
  description: 'Record the workspace (tracked files as on disk plus untracked, not-ignored files) as a git tree; its id is the snapshot_id other operations can pin.',
  input: snapshotInput,
  output: SnapshotResponse,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input) {
    const { runSnapshot } = await import('./run.js');
    return SnapshotResponse.parse(await runSnapshot(input));
  },
});
