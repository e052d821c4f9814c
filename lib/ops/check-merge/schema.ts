// The fields and the answer of check-merge.
import { z } from 'zod';
import { SCHEMA_VERSION } from '../../core/schemas.js';
import { CommonFields } from '../operation.js';

export const checkMergeInput = z
  .object({
    ...CommonFields,
    branch: z.string().min(1).describe('The tug/ branch to check.'),
    into: z.string().min(1).optional().describe('The branch or commit it would be merged into (default HEAD).'),
  })
  .strict();

export const SemanticConflictJSON = z.object({
  file: z.string(),
  line: z.number().int(),
  col: z.number().int(),
  text: z.string().describe('The line, trimmed.'),
  symbol: z.string().describe('The symbol the branch changed, by its name before the change.'),
  operation: z.string(),
  commit: z.string().describe('The branch commit whose operation this use misses.'),
  found_by: z.enum(['analysis', 'name']).describe('analysis: resolved to the symbol by the Python analyzer; name: a whole-word match of the old name.'),
});

export const CheckMergeResponse = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  branch: z.string(),
  into: z.string().describe('The commit checked against.'),
  merge_base: z.string().nullable(),
  clean: z.boolean().describe('True when git merges it without conflicts and nothing on the other side misses its operations; the CLI exits 1 otherwise.'),
  merged: z.boolean().describe('True when `into` already contains the branch.'),
  base_moved: z.boolean(),
  conflicts: z.array(z.string()).describe('Files git would stop on.'),
  semantic: z.array(SemanticConflictJSON).describe('Uses the other side added of a symbol the branch renamed, moved or re-signed: they merge without a conflict and break.'),
  next: z.string().describe('What to do: merge, or replay.'),
});
export type CheckMergeResponseJSON = z.infer<typeof CheckMergeResponse>;
