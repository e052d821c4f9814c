// analyze-impact for refactors: the planner every run uses, against the snapshot, with the patch shown and nothing written.
import { TugError } from '../../core/errors.js';
import { summarize } from '../../core/patchset.js';
import { ChangePreview, SCHEMA_VERSION, type ChangePreviewJSON } from '../../core/schemas.js';
import { configFor } from '../workspace/config.js';
import { assertSnapshot, takeSnapshot } from '../workspace/snapshot.js';
import { withWorkspace } from '../workspace/workspace.js';
import { orderWarnings, presentPatch } from './present.js';
import { orderUnsure } from './unsure.js';
import type { ChangeKind, ChangeOptions, Planner } from './types.js';
import { mark } from '../../core/timing.js';

/** Runs `plan` on a fresh snapshot without the session's write lock; the result is what `run` would verify and commit. */
export async function previewChange(options: ChangeOptions, kind: Pick<ChangeKind, 'operation' | 'warmUp'>, plan: Planner): Promise<ChangePreviewJSON> {
  const operation = kind.operation;
  return withWorkspace(options, { lock: false }, async (ws) => {
    mark('workspace open');
    kind.warmUp?.(ws);
    const snapshot = await takeSnapshot(ws);
    mark('snapshot taken');
    try {
      await assertSnapshot(ws, snapshot, options.snapshot);
      await configFor(ws.repo, options, ws.warnings);
      const proposal = await plan(ws, snapshot, { tree: snapshot.tree, onto: null });
      mark('planned');
      const unsure = orderUnsure(proposal.unsure ?? []);
      return ChangePreview.parse({
        status: 'ok',
        schema_version: SCHEMA_VERSION,
        snapshot_id: snapshot.tree,
        operation,
        patch: presentPatch(proposal.patch),
        summary: summarize(proposal.patch),
        warnings: orderWarnings([...ws.warnings, ...proposal.warnings]),
        ...(unsure.length > 0 ? { unsure } : {}),
      });
    } catch (error) {
      if (error instanceof TugError) error.snapshotId ??= snapshot.tree;
      throw error;
    }
  });
}
