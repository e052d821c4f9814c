// `apply_patch`: a unified diff over several files, matched exactly (offsets, never fuzz), applied as one verified commit.
import { z } from 'zod';
import { RunResponse } from '../../core/schemas.js';
import { defineOperation, EditFields } from '../operation.js';

export const applyPatchInput = z
  .object({
    ...EditFields,
    patch: z.string().min(1).describe('A unified diff (git diff or diff -u format); several files, new files (--- /dev/null), deletions (+++ /dev/null) and git renames.'),
    message: z.string().optional().describe('Commit subject for the result.'),
  })
  .strict();

export const applyPatchOperation = defineOperation({
  name: 'apply-patch',
  tool: 'tug_apply_patch',
  summary: 'Apply a unified diff to one or more files, all or nothing, as a verified change.',
  agentName: 'apply_patch',
  description:
    "Apply a unified diff to one or more files, all or nothing. Every hunk's context and removed lines must match the file exactly (at the stated line or an offset; no fuzz), else the error names the file and hunk. Verified, committed on a tug/edit/… branch and applied unless apply:false; returns an undo_token.",
  input: applyPatchInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async execute(input, context) {
    const { runFileEdit } = await import('./run-edit.js');
    const { planApplyPatch } = await import('./plan-apply-patch.js');
    return runFileEdit(input, { operation: 'apply-patch', tool: 'apply_patch' }, planApplyPatch, context);
  },
});
