// The fields of `tug undo`, shared by its registry entry and its run.
import { z } from 'zod';
import { CommonFields } from '../operation.js';

export const undoInput = z.object({
  ...CommonFields,
  token: z.string().describe('The undo_token an operation returned (its ref is refs/tug/undo/<token>).'),
  force: z.boolean().optional().describe('Also restore files that changed since the operation, discarding those changes.'),
  revert: z
    .boolean()
    .optional()
    .describe("For a change already merged into HEAD: record a revert commit on HEAD's branch (files and index follow) instead of only restoring the files."),
});
