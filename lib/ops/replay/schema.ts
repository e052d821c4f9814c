// The zod shapes replay, check-merge and `tug show BRANCH` answer with.
import { z } from 'zod';
import { OperationRecord } from '../change/record.js';

export const Staleness = z.object({
  stale: z.boolean().describe('True when the base moved (against has commits the branch lacks) or the other side has new references to a symbol the branch changed.'),
  against: z.string().describe('The commit compared with: HEAD, or the into/onto ref.'),
  base_moved: z.boolean(),
  behind: z.number().int().describe('Commits of `against` that the branch base lacks.'),
  new_references: z.number().int().optional().describe('Semantic conflicts found (check-merge lists them); absent when not looked for.'),
});

export const BranchStepJSON = z.object({
  commit: z.string(),
  subject: z.string(),
  operation: z.string().nullable(),
  record: OperationRecord.nullable().describe('The refs/notes/tug record; null for a commit made before tug recorded operations.'),
});

export const BranchShow = z.object({
  name: z.string(),
  tip: z.string(),
  base: z.string(),
  status: Staleness,
  steps: z.array(BranchStepJSON),
});
export type BranchShowJSON = z.infer<typeof BranchShow>;
