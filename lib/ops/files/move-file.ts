// `move_file`: rename or move one file as a git rename, content and mode unchanged.
import { z } from 'zod';
import { RunResponse } from '../../core/schemas.js';
import { defineOperation, EditFields } from '../operation.js';

export const moveFileInput = z
  .object({
    ...EditFields,
    source_path: z.string().min(1).describe('The file to move (relative to the workspace).'),
    destination_path: z.string().min(1).describe('Where it goes (relative to the workspace); must not exist. Parent directories are created.'),
  })
  .strict();

export const moveFileOperation = defineOperation({
  name: 'move-file',
  tool: 'tug_move_file',
  summary: 'Move or rename a file (imports are not updated: use tug_move_symbol or tug_rename_symbol).',
  agentName: 'move_file',
  description:
    "Move or rename a file (content and mode unchanged; imports are not updated — use tug_rename_symbol for Python modules). Verified, committed on a tug/edit/… branch and applied unless apply:false; returns an undo_token.",
  input: moveFileInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async execute(input, context) {
    const { runFileEdit } = await import('./run-edit.js');
    const { planMoveFile } = await import('./plan-edits.js');
    return runFileEdit(input, { operation: 'move-file', tool: 'move_file' }, planMoveFile, context);
  },
});
