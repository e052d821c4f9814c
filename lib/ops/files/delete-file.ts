// `delete_file`: remove one file (never a directory), committed with an undo_token that brings it back.
import { z } from 'zod';
import { RunResponse } from '../../core/schemas.js';
import { defineOperation, EditFields } from '../operation.js';

export const deleteFileInput = z
  .object({
    ...EditFields,
    path: z.string().min(1).describe('Path to the file to delete (relative to the workspace).'),
    confirm: z
      .boolean()
      .optional()
      .describe('Confirmation flag: false refuses the delete (nothing happens); true or absent deletes, since the undo_token brings the file back.'),
  })
  .strict();

export const deleteFileOperation = defineOperation({
  name: 'delete-file',
  tool: 'tug_delete_file',
  summary: 'Delete a file, as a verified change.',
  agentName: 'delete_file',
  description:
    'Delete a file (not a directory). Verified, committed on a tug/edit/… branch and applied to the working tree unless apply:false; the undo_token restores the file with its content and mode.',
  input: deleteFileInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async execute(input, context) {
    const { runFileEdit } = await import('./run-edit.js');
    const { planDeleteFile } = await import('./plan-edits.js');
    return runFileEdit(input, { operation: 'delete-file', tool: 'delete_file' }, planDeleteFile, context);
  },
});
