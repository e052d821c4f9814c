// extract-variable's work: the language adapter's proposal, run through the change road or shown by analyze-impact.
import type { z } from 'zod';
import type { ChangePreviewJSON, RunResponseJSON } from '../../core/schemas.js';
import { resolveUserPath } from '../../workspace/paths.js';
import type { OperationContext } from '../operation.js';
import { runChange } from '../change/pipeline.js';
import { previewChange } from '../change/preview.js';
import type { Planner } from '../change/types.js';
import { languageOf, planRustAssistChange, unsupportedLanguage, type AssistKind } from '../assists/rust.js';
import type { extractVariableFields, extractVariableInput } from './schema.js';

const KIND: AssistKind = { operation: 'extract-variable', assists: ['extract_variable'], slug: 'variable' };

type Target = z.infer<z.ZodObject<typeof extractVariableFields>> & { no_wait?: boolean | undefined };

function planner(input: Target, context: OperationContext): Planner {
  return async (ws, snapshot) => {
    const file = await resolveUserPath(ws.repo, input.file, 'file');
    if (languageOf(file) === 'rust') return planRustAssistChange(ws, snapshot, KIND, file, input, context);
    throw unsupportedLanguage(KIND.operation, file, 'Rust');
  };
}

export function runExtractVariable(input: z.infer<typeof extractVariableInput>, context: OperationContext): Promise<RunResponseJSON> {
  return runChange(input, { operation: KIND.operation, scope: KIND.operation }, planner(input, context), context);
}

export function previewExtractVariable(input: z.infer<typeof extractVariableInput>, context: OperationContext = {}): Promise<ChangePreviewJSON> {
  return previewChange(input, KIND.operation, planner(input, context));
}
