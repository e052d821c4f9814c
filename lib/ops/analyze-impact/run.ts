// analyze-impact's dispatch: hold the call to the named refactor's fields, then run that refactor's analysis.
import type { z } from 'zod';
import { TugError } from '../../core/errors.js';
import { parseInput, unknownParameters, type OperationContext } from '../operation.js';
import { PREVIEWS, type PreviewEntry } from './previews.js';
import { impactInputOf, type AnalyzeImpactResponse, type analyzeImpactInput } from './schema.js';

export async function runAnalyzeImpact(input: z.infer<typeof analyzeImpactInput>, context: OperationContext): Promise<z.infer<typeof AnalyzeImpactResponse>> {
  if (input.steps) return previewSteps(input, context);
  const entry: PreviewEntry = PREVIEWS[input.operation];
  const schema = impactInputOf(entry);
  const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const own = parseInput(schema, given, 'input', unknownParameters(Object.keys(schema.shape), given));
  const { operation: _operation, ...fields } = own as Record<string, unknown>;
  if (!entry.preview) {
    const { runRenameImpact } = await import('../rename/run.js');
    return runRenameImpact(fields as never);
  }
  return (await entry.preview())(fields as never, context);
}

/** A plan's preview: the steps carry every refactor field, so one given beside them is refused rather than ignored. */
async function previewSteps(input: z.infer<typeof analyzeImpactInput>, context: OperationContext): Promise<z.infer<typeof AnalyzeImpactResponse>> {
  const { workspace, session_dir, no_wait, wait_s, python, steps, operation: _operation, ...others } = input;
  const extra = Object.keys(others).filter((key) => others[key as keyof typeof others] !== undefined);
  if (extra.length > 0) {
    throw new TugError('InvalidArgument', `steps carry each refactor's fields; ${extra.join(', ')} cannot be given beside them`, { details: { argument: extra[0]!, reason: 'conflicts with steps' } });
  }
  const { previewPlan } = await import('../plan/preview.js');
  return previewPlan({ workspace, session_dir, no_wait, wait_s, python, steps: steps! }, context);
}
