// `create_file`: add a new file (refused when one exists), verified and committed.
import { z } from 'zod';
import { RunResponse } from '../../core/schemas.js';
import { defineOperation, EditFields } from '../operation.js';

export const createFileInput = z
  .object({
    ...EditFields,
    path: z.string().min(1).describe('Path for the new file (relative to the workspace); parent directories are created.'),
    content: z.string().describe('Initial content of the file.'),
  })
  .strict();

export const createFileOperation = defineOperation({
  name: 'create-file',
  tool: 'tug_create_file',
  summary: 'Create a new file, as a verified change; fails if it exists.',
  agentName: 'create_file',
  description:
    'Create a new file; fails with FileExists if the path exists (use write_file or edit_file then), and refuses paths .gitignore excludes. Verified, committed on a tug/edit/… branch and applied to the working tree unless apply:false; returns an undo_token.',
  input: createFileInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async execute(input, context) {
    const { runFileEdit } = await import('./run-edit.js');
    const { planCreateFile } = await import('./plan-edits.js');
    return runFileEdit(input, { operation: 'create-file', tool: 'create_file' }, (ctx, i) => planCreateFile(ctx, i), context);
  },
});
