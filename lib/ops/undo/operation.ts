// `tug undo <token>`: puts back what an operation changed, only where the files still hold what tug wrote.
import { UndoResponse } from '../../core/schemas.js';
import { defineOperation } from '../operation.js';
import { undoInput } from './schema.js';

export const undoOperation = defineOperation({
  name: 'undo',
  tool: 'tug_undo',
  summary: 'Undo a change by its undo_token (revert:true makes a revert commit).',
  description:
    "Undo an operation: restore each file it changed to its snapshot content if it still has the operation's content (refuses with the conflicting files otherwise, unless force). After a commit it made, the branch moves back (branch_reset). A change already merged into HEAD stays in HEAD's history: the files are restored in the working tree only and a MergedIntoHead warning says so, or, with revert, a revert commit is recorded (reverted).",
  input: undoInput,
  output: UndoResponse,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async execute(input, context) {
    const { runUndo } = await import('./run.js');
    return runUndo(input, context);
  },
});
