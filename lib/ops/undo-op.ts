// `tug undo <token>`: puts back what an operation changed, only where the files still hold what tug wrote.
import { z } from 'zod';
import { UndoResponse } from '../core/schemas.js';
import { CommonFields, defineOperation } from './operation.js';

export const undoInput = z.object({
  ...CommonFields,
  token: z.string().describe('The undo_token an operation returned (its ref is refs/tug/undo/<token>).'),
  force: z.boolean().optional().describe('Also restore files that changed since the operation, discarding those changes.'),
});

export const undoOperation = defineOperation({
  name: 'undo',
  tool: 'tug_undo',
  description:
    "Undo an operation: restore each file it changed to its snapshot content if it still has the operation's content (refuses with the conflicting files otherwise, unless force); after --commit, moves the branch back.",
  input: undoInput,
  output: UndoResponse,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async execute(input) {
    const { runUndo } = await import('./run-undo.js');
    return runUndo(input);
  },
});
