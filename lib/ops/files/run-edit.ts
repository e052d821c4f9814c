// Runs one file tool call on the change road: apply defaults to true (agents expect their edit to land), scope `edit`.
import type { RunResponseJSON } from '../../core/schemas.js';
import type { OperationContext } from '../operation.js';
import { runChange } from '../change/pipeline.js';
import type { ChangeOptions, Proposal } from '../change/types.js';
import type { PlanContext } from './plan-edits.js';

export async function runFileEdit<I extends ChangeOptions>(
  input: I,
  kind: { operation: string; tool: string },
  planner: (ctx: PlanContext, input: I) => Promise<Proposal>,
  context: OperationContext,
): Promise<RunResponseJSON> {
  const apply = input.apply ?? true;
  return runChange(
    { ...input, apply },
    { operation: kind.operation, scope: 'edit', tool: kind.tool, arguments: input as Record<string, unknown> },
    (ws, _snapshot, base) => planner({ ws, base, apply }, input),
    context,
  );
}
