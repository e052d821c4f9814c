// analyze-impact's fields: the refactor's name and the fields of every refactor it can show; each call is then held to
// the named refactor's own fields, so a field that refactor does not take is refused, not ignored.
import { z } from 'zod';
import { ChangePreview } from '../../core/schemas.js';
import { ChangeFields, CommonFields } from '../operation.js';
import { RenameImpact } from '../rename/schema.js';
import { PlanPreview, planSteps } from '../plan/schema.js';
import { PREVIEW_NAMES, PREVIEWS, type PreviewEntry } from './previews.js';

/**
 * Every refactor's fields, optional here: the named refactor's schema then decides what is required.
 */
function allFields(): Record<string, z.ZodType> {
  const merged: Record<string, z.ZodType> = {};
  for (const entry of Object.values(PREVIEWS) as PreviewEntry[]) {
    for (const [name, schema] of Object.entries(entry.fields)) merged[name] ??= schema.optional();
  }
  merged['file'] = z.string().min(1).optional().describe('File of the target, relative to the workspace root (organize_imports: or files, or all).');
  return merged;
}

export const analyzeImpactInput = z.object({
  ...CommonFields,
  operation: z
    .enum(PREVIEW_NAMES)
    .default('rename_symbol')
    .describe('The refactor to analyse; the other fields are that refactor\'s (rename_symbol: file, line, column, new_name, …).'),
  ...allFields(),
  python: ChangeFields.python,
  steps: planSteps.optional().describe('A plan (as tug_run_plan takes it) instead of one refactor: every step previewed on the tree the one before it makes.'),
});

const buildImpactInput = (entry: PreviewEntry) => z.object({ ...CommonFields, operation: z.string(), ...entry.fields, python: ChangeFields.python });
const impactInputs = new WeakMap<PreviewEntry, ReturnType<typeof buildImpactInput>>();

/**
 * What one refactor's analysis takes: its own fields and the workspace ones. Built once per refactor: zod compiles a
 * fast parser for each new object schema on its first parse (~4 ms), which a warm call would otherwise pay every time.
 */
export function impactInputOf(entry: PreviewEntry) {
  let schema = impactInputs.get(entry);
  if (!schema) impactInputs.set(entry, (schema = buildImpactInput(entry)));
  return schema;
}

export const AnalyzeImpactResponse = z.union([RenameImpact, ChangePreview, PlanPreview]);
