// The zod shapes replay, check-merge and `tug show BRANCH` answer with.
import { z } from 'zod';
import { RunResponse } from '../../core/schemas.js';
import { ChangeFields, CommonFields } from '../operation.js';
import { OperationRecord } from '../change/record.js';

export const Staleness = z.object({
  stale: z.boolean().describe('True when the base moved (against has commits the branch lacks) or the other side has new references to a symbol the branch changed.'),
  against: z.string().describe('The commit compared with: HEAD, or the into/onto ref.'),
  merged: z.boolean().describe('True when `against` already contains the branch.'),
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

export const replayFields = {
  branch: z.string().min(1).describe('The tug/ branch to replay.'),
  onto: z.string().min(1).optional().describe('Replay on this commit or branch instead of the working tree (HEAD plus uncommitted changes); apply and commit need the working tree.'),
  replace: z.boolean().optional().describe('Move the replayed branch to the result instead of making a new branch (-2, -3, ...).'),
};

export const replayInput = z.object({ ...CommonFields, ...ChangeFields, ...replayFields }).strict();

export const ReplayedStep = z.object({
  commit: z.string().describe('The original commit.'),
  operation: z.string(),
  replay: z.enum(['operation', 'text']),
  input: z.record(z.string(), z.unknown()).optional().describe('The operation\'s input as re-run: the target found again on the new base.'),
  changed: z.boolean().describe('False when the new base already had this change.'),
});

export const ReplayResponse = RunResponse.extend({
  replay: z.object({
    branch: z.string().describe('The branch replayed.'),
    from_base: z.string().describe('The commit the branch was made on.'),
    onto: z.string().describe('The commit the steps were replayed on.'),
    replaced: z.boolean(),
    steps: z.array(ReplayedStep),
  }),
});
