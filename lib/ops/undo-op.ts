// `tug undo <token>`: puts back what an operation changed, only where the files still hold what tug wrote.
import { z } from 'zod';
import { UndoResponse } from '../core/schemas.js';
import { CommonFields, defineOperation } from './operation.js';

export const undoInput = z.object({
  ...CommonFields,
  token: z.string().describe('The undo_token an operation returned (its ref is refs/tug/undo/<token>).'),
  force: z.boolean().optional().describe('Also restore files that changed since the operation, discarding those changes.'),
  revert: z
    .boolean()
    .optional()
    .describe("For a change already merged into HEAD: record a revert commit on HEAD's branch (files and index follow) instead of only restoring the files."),
});

export const undoOperation = defineOperation({
  name: 'undo',
  tool: 'tug_undo',
  description:
    "Undo an operation: restore each file it changed to its snapshot content if it still has the operation's content (refuses with the conflicting files otherwise, unless force). After a commit it made, the branch moves back (branch_reset). A change already merged into HEAD stays in HEAD's history: the files are restored in the working tree only and a MergedIntoHead warning says so, or, with revert, a revert commit is recorded (reverted).",
  input: undoInput,
  output: UndoResponse,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async execute(input) {
    const { runUndo } = await import('./run-undo.js');
    return runUndo(input);
  },
});
