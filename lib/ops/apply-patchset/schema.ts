// The patchset file format and the fields of `tug apply-patchset`, shared by its registry entry and its planner.
import { z } from 'zod';
import { ChangeFields, CommonFields } from '../operation.js';

const EditInput = z
  .object({
    file: z.string().min(1).describe('Path relative to the workspace.'),
    old_text: z.string().describe('The exact text the edit replaces (empty for an insertion).'),
    new_text: z.string().describe('Replacement text.'),
    // Bounds are checked against the file (InvalidPosition names the edit), so a huge or negative number is not a schema error.
    span: z.object({ start: z.number(), end: z.number() }).optional().describe('Byte offsets [start, end); when line and col are given too, they must name the same start.'),
    line: z.number().optional().describe('1-based line of the start of old_text.'),
    col: z.number().optional().describe('1-based column of the start of old_text, in UTF-8 bytes.'),
    old_hash: z.string().optional().describe('sha256 of the old bytes (hex, optionally prefixed sha256:).'),
    context: z.object({ before: z.string().optional(), after: z.string().optional() }).optional().describe('Text around old_text, used to find a moved span again (once, nearby).'),
  })
  .strict()
  .refine((e) => e.span !== undefined || (e.line !== undefined && e.col !== undefined), {
    message: 'each edit needs either span or both line and col',
  });

export const PatchSetFile = z
  .object({
    edits: z.array(EditInput).min(1, 'a patchset needs at least one edit'),
    snapshot_id: z.string().optional().describe('The snapshot the edits were computed against.'),
    message: z.string().optional().describe('Commit subject for the result.'),
  })
  .strict();

export const applyPatchsetInput = z.object({
  ...CommonFields,
  ...ChangeFields,
  patchset: PatchSetFile.describe('The edits to make.'),
});
