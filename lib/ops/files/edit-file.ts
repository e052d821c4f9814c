// `edit_file`: replace text that occurs exactly once in a file, verified and committed like every tug change.
import { z } from 'zod';
import { RunResponse } from '../../core/schemas.js';
import { defineOperation, EditFields } from '../operation.js';

export const editFileInput = z
  .object({
    ...EditFields,
    path: z.string().min(1).describe('Path to the file (relative to the workspace).'),
    old_text: z.string().min(1).describe('Text to find and replace; must occur exactly once (include surrounding lines to make it unique).'),
    new_text: z.string().describe('Replacement text.'),
    display_description: z.string().optional().describe('Human-readable description of the edit (used as the commit subject).'),
  })
  .strict();

export const editFileOperation = defineOperation({
  name: 'edit-file',
  tool: 'tug_edit_file',
  summary: 'Replace old_text with new_text in a file, as a verified change on a tug/ branch (apply:true writes it).',
  agentName: 'edit_file',
  description:
    'Edit a file by replacing text. old_text must occur exactly once (else the error lists where it occurs, or similar lines). The edit is verified in a sandbox, committed on a tug/edit/… branch and applied to the working tree (apply:false keeps it on the branch); returns the diff and an undo_token.',
  input: editFileInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async execute(input, context) {
    const { runFileEdit } = await import('./run-edit.js');
    const { planEditFile } = await import('./plan-edits.js');
    return runFileEdit(input, { operation: 'edit-file', tool: 'edit_file' }, planEditFile, context);
  },
});
