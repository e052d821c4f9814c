// A plan's steps checked before anything runs: each names a refactor (CLI or MCP spelling) and carries only that
// refactor's own fields, so a typo in step 7 is refused at once instead of after six steps of work.
import { TugError } from '../../core/errors.js';
import { ChangeFields, CommonFields, parseInput, type Operation } from '../operation.js';
import { atStep } from '../replay/engine.js';
import { stepOperation, stepOperationName } from '../replay/runners.js';
import type { PlanStepJSON } from './schema.js';

export interface PreparedStep {
  index: number;
  /** Registry name, e.g. rename-symbol. */
  name: string;
  operation: Operation;
  /** The step's fields with the plan's workspace and interpreter, validated by the operation's own schema. */
  input: unknown;
}

/** How the whole plan runs (verification, apply, where): set on the plan, never on one step. */
const PLAN_ONLY = new Set([...Object.keys(CommonFields), ...Object.keys(ChangeFields), 'onto', 'review']);

export async function prepareSteps(steps: readonly PlanStepJSON[], carried: Record<string, unknown>): Promise<PreparedStep[]> {
  const prepared: PreparedStep[] = [];
  for (const [index, step] of steps.entries()) {
    prepared.push(
      await atStep(index, async () => {
        const { operation: spelled, ...fields } = step as Record<string, unknown>;
        const name = stepOperationName(String(spelled));
        const misplaced = Object.keys(fields).filter((key) => PLAN_ONLY.has(key));
        if (misplaced.length > 0) {
          throw new TugError('InvalidArgument', `${misplaced.join(', ')} belong${misplaced.length === 1 ? 's' : ''} to the plan, not to a step: give ${misplaced.length === 1 ? 'it' : 'them'} once for the whole plan`, {
            details: { argument: `steps.${index}.${misplaced[0]}`, reason: 'set on the plan, not on a step' },
          });
        }
        const operation = await stepOperation(name);
        const input = parseInput(operation.input, { ...fields, ...carried }, `steps.${index} (${name})`);
        return { index, name, operation, input };
      }),
    );
  }
  return prepared;
}

/** Fields of the plan every step gets: where to work, and the interpreter (the checks are the plan's). */
export function carriedFields(input: Record<string, unknown>): Record<string, unknown> {
  const keys = ['workspace', 'session_dir', 'python'];
  return Object.fromEntries(keys.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]));
}
