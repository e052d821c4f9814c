// `run-plan`: the registry entry of `tug run --plan FILE` (MCP tug_run_plan, library runPlan).
import { defineOperation } from '../operation.js';
import { PlanResponse, runPlanInput } from './schema.js';

export const runPlanOperation = defineOperation({
  name: 'run-plan',
  tool: 'tug_run_plan',
  summary: 'Run refactors in order as one change (steps: [{operation, ...its fields}]), verified once, a commit each on one tug/ branch.',
  description:
    "Run an ordered list of refactors as one change. Each step is an operation's name (rename_symbol or rename-symbol, move_symbol, change_signature, organize_imports, extract_variable, extract_function, inline, assist, apply_patchset) with that tool's own fields, planned on the tree the step before it made. The last tree is verified once (verify_each: after every step too); the result is one tug/plan/ branch with a commit per step (squash: one commit), recorded so tug replay redoes it, and one undo_token for the whole. A failing step stops the plan with its own error code and details.step (0-based); nothing is written.",
  input: runPlanInput,
  output: PlanResponse,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async execute(input, context) {
    const { runPlan } = await import('./run.js');
    return runPlan(input, context);
  },
});
