// A refactor's two ways in from its planner: `run` (verified, committed on a tug/ branch) and `preview` (what
// analyze-impact shows), so the two always compute the same patch.
import type { ChangePreviewJSON, RunResponseJSON } from '../../core/schemas.js';
import type { OperationContext } from '../operation.js';
import { runChange } from './pipeline.js';
import { previewChange } from './preview.js';
import type { ChangeKind, ChangeOptions, Planner } from './types.js';

export interface RefactorDoors<I> {
  run(input: I, context: OperationContext): Promise<RunResponseJSON>;
  preview(input: I, context?: OperationContext): Promise<ChangePreviewJSON>;
}

/** `kind` names the operation (and its branch scope); `warmUp` starts slow helpers before the snapshot. */
export function refactorDoors<I extends ChangeOptions>(
  operation: string,
  planner: (input: I, context: OperationContext) => Planner,
  warmUp?: (input: I) => ChangeKind['warmUp'],
): RefactorDoors<I> {
  return {
    run: (input, context) => runChange(input, { operation, scope: operation, warmUp: warmUp?.(input) }, planner(input, context), context),
    preview: (input, context = {}) => previewChange(input, { operation, warmUp: warmUp?.(input) }, planner(input, context)),
  };
}
