// `write_file`: replace a file's whole content (or create it), kept as a minimal line diff, verified and committed.
import { z } from 'zod';
import { RunResponse } from '../../core/schemas.js';
import { defineOperation, EditFields } from '../operation.js';

export const writeFileInput = z
  .object({
    ...EditFields,
    path: z.string().min(1).describe('Path to the file (relative to the workspace); parent directories are created.'),
    content: z.string().describe("The file's new content. In a CRLF file line breaks become CRLF; a BOM is kept."),
    overwrite: z.boolean().optional().describe('Replace a file that exists (default true); false makes an existing file a FileExists error.'),
  })
  .strict();

export const writeFileOperation = defineOperation({
  name: 'write-file',
  tool: 'tug_write_file',
  summary: 'Replace a whole file (or create it), as a verified change.',
  agentName: 'write_file',
  description:
    "Write content to a file, replacing what it holds (or creating it and its parent directories). Line endings, BOM and file mode are preserved. Verified in a sandbox, committed on a tug/edit/… branch and applied to the working tree unless apply:false; returns the diff and an undo_token.",
  input: writeFileInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async execute(input, context) {
    const { runFileEdit } = await import('./run-edit.js');
    const { planWriteFile } = await import('./plan-edits.js');
    return runFileEdit(input, { operation: 'write-file', tool: 'write_file' }, planWriteFile, context);
  },
});
