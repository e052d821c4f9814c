// analyze-impact's dispatch: hold the call to the named refactor's fields, then run that refactor's analysis.
import type { z } from 'zod';
import { parseInput, unknownParameters, type OperationContext } from '../operation.js';
import { PREVIEWS, type PreviewEntry } from './previews.js';
import { impactInputOf, type AnalyzeImpactResponse, type analyzeImpactInput } from './schema.js';

export async function runAnalyzeImpact(input: z.infer<typeof analyzeImpactInput>, context: OperationContext): Promise<z.infer<typeof AnalyzeImpactResponse>> {
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
