// `tug apply-patchset`: agent-written anchored edits, checked against the snapshot, verified and committed like any refactor.
import { RunResponse } from '../../core/schemas.js';
import { defineOperation } from '../operation.js';
import { applyPatchsetInput } from './schema.js';

export const applyPatchsetOperation = defineOperation({
  name: 'apply-patchset',
  tool: 'tug_apply_patchset',
  summary: 'Apply edits (file, old_text, new_text, with line/col or span) as one verified change on a tug/ branch.',
  description:
    'Apply agent-written edits anchored by span or line/col plus the exact old text: checked against the snapshot, verified in a sandbox checkout, committed on a tug/patch/… branch, and optionally applied to the working tree.',
  input: applyPatchsetInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async execute(input, context) {
    const { runChange } = await import('../change/pipeline.js');
    const { planPatchset } = await import('./plan.js');
    const snapshot = input.snapshot ?? input.patchset.snapshot_id;
    return runChange({ ...input, snapshot }, { operation: 'apply-patchset', scope: 'patch' }, (ws, snap) => planPatchset(ws, snap, input.patchset), context);
  },
});
