// The zod shapes of a plan: the steps a caller writes (each an operation's name and its MCP fields), what run-plan takes,
// and what it (and analyze-impact with steps) answers.
import { z } from 'zod';
import { ChangePreview, RunResponse } from '../../core/schemas.js';
import { ChangeFields, CommonFields } from '../operation.js';

/** More steps than this is not a change anyone reviews as one; it also bounds the work a plan file can ask for. */
export const MAX_STEPS = 100;

export const PlanStep = z
  .object({
    operation: z.string().min(1).describe('The refactor: rename-symbol, move-symbol, change-signature, organize-imports, extract-variable, extract-function, inline, assist or apply-patchset (CLI or MCP spelling).'),
  })
  .passthrough()
  .describe("One step: the operation and that tool's own fields (file, line, column, new_name, ...).");
export type PlanStepJSON = z.infer<typeof PlanStep>;

export const planSteps = z
  .array(PlanStep)
  .min(1)
  .max(MAX_STEPS)
  .describe("The operations in order, each {operation, ...that tool's fields}; each is planned on the tree the previous one made.");

export const planFields = {
  steps: planSteps,
  verify_each: z.boolean().optional().describe('Verify after every step too, not only once at the end (slower; a failure names its step).'),
  squash: z.boolean().optional().describe('One commit for the whole plan instead of one commit per step.'),
};

export const runPlanInput = z.object({ ...CommonFields, ...ChangeFields, ...planFields }).strict();

export const PlanStepResult = z.object({
  index: z.number().int().describe('0-based, as in the plan and in an error\'s details.step.'),
  operation: z.string(),
  changed: z.boolean().describe('False when the step found nothing to do on the tree before it (organize-imports).'),
  commit: z.string().nullable().describe('The step\'s commit on the branch; null when it changed nothing or the plan was squashed.'),
  files: z.array(z.string()).describe('Files the step changed.'),
});

export const PlanSummary = z.object({
  steps: z.array(PlanStepResult),
  squashed: z.boolean(),
  verified: z.enum(['once', 'each']).describe('once: the last tree only; each: after every step as well.'),
});

/** The usual run result for the whole plan (patch and summary from before the first step to after the last), plus the steps. */
export const PlanResponse = RunResponse.extend({ plan: PlanSummary });
export type PlanResponseJSON = z.infer<typeof PlanResponse>;

export const PlanPreview = ChangePreview.extend({
  plan: z.object({ steps: z.array(PlanStepResult.omit({ commit: true }).extend({ patch: RunResponse.shape.patch })) }),
});
export type PlanPreviewJSON = z.infer<typeof PlanPreview>;
