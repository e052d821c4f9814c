// `assists`' work: a snapshot of the workspace, rust-analyzer on it, and the code actions it offers at the place.
import type { z } from 'zod';
import { SCHEMA_VERSION } from '../../core/schemas.js';
import type { OperationContext } from '../operation.js';
import { takeSnapshot } from '../workspace/snapshot.js';
import { withWorkspace } from '../workspace/workspace.js';
import { siteInput } from './place.js';
import { AssistsResponse, type assistsInput } from './schema.js';

export async function runListAssists(input: z.infer<typeof assistsInput>, context: OperationContext): Promise<z.infer<typeof AssistsResponse>> {
  return withWorkspace(input, { lock: false }, async (ws) => {
    const snapshot = await takeSnapshot(ws);
    const site = await siteInput(ws, snapshot, input, 'assists');
    context.progress?.('asking rust-analyzer');
    const { listRustAssists } = await import('../../rust/assist-catalog.js');
    const assists = await listRustAssists(site);
    const end = input.end_line !== undefined ? `-${input.end_line}:${input.end_column ?? 1}` : '';
    return AssistsResponse.parse({
      status: 'ok',
      schema_version: SCHEMA_VERSION,
      snapshot_id: snapshot.tree,
      location: `${site.file}:${input.line}:${input.column}${end}`,
      assists,
      warnings: ws.warnings,
    });
  });
}
