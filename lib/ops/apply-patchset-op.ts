// `tug apply-patchset`: agent-written anchored edits, checked against the snapshot, verified and committed like any refactor.
import { z } from 'zod';
import { RunResponse } from '../core/schemas.js';
import { ChangeFields, CommonFields, defineOperation } from './operation.js';

const EditInput = z
  .object({
    file: z.string().min(1).describe('Path relative to the workspace.'),
    old_text: z.string().describe('The exact text the edit replaces (empty for an insertion).'),
    new_text: z.string().describe('Replacement text.'),
    // Bounds are checked against the file (InvalidPosition names the edit), so a huge or negative number is not a schema error.
    span: z.object({ start: z.number(), end: z.number() }).optional().describe('Byte offsets [start, end); when line and col are given too, they must name the same start.'),
    line: z.number().optional().describe('1-based line of the start of old_text.'),
    col: z.number().optional().describe('1-based column of the start of old_text, in UTF-8 bytes.'),
    old_hash: z.string().optional().describe('sha256 of the old bytes (hex, optionally prefixed sha256:).'),
    context: z.object({ before: z.string().optional(), after: z.string().optional() }).optional().describe('Text around old_text, used to find a moved span again (once, nearby).'),
  })
  .strict()
  .refine((e) => e.span !== undefined || (e.line !== undefined && e.col !== undefined), {
    message: 'each edit needs either span or both line and col',
  });

export const PatchSetFile = z
  .object({
    edits: z.array(EditInput).min(1, 'a patchset needs at least one edit'),
    snapshot_id: z.string().optional().describe('The snapshot the edits were computed against.'),
    message: z.string().optional().describe('Commit subject for the result.'),
  })
  .strict();

export const applyPatchsetInput = z.object({
  ...CommonFields,
  ...ChangeFields,
  patchset: PatchSetFile.describe('The edits to make.'),
});

export const applyPatchsetOperation = defineOperation({
  name: 'apply-patchset',
  tool: 'tug_apply_patchset',
  description:
    'Apply agent-written edits anchored by span or line/col plus the exact old text: checked against the snapshot, verified in a sandbox worktree, committed on a tug/patch/… branch, and optionally applied to the working tree.',
  input: applyPatchsetInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async execute(input, context) {
    const { runChange } = await import('./pipeline.js');
    const { planPatchset } = await import('./plan-patchset.js');
    const snapshot = input.snapshot ?? input.patchset.snapshot_id;
    return runChange({ ...input, snapshot }, { operation: 'apply-patchset', scope: 'patch' }, (ws, snap) => planPatchset(ws, snap, input.patchset), context);
  },
});
