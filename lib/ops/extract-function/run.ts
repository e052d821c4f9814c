// extract-function's work: the language adapter's proposal, run through the change road or shown by analyze-impact.
import type { z } from 'zod';
import type { ChangePreviewJSON, RunResponseJSON } from '../../core/schemas.js';
import { resolveUserPath } from '../../workspace/paths.js';
import type { OperationContext } from '../operation.js';
import { runChange } from '../change/pipeline.js';
import { previewChange } from '../change/preview.js';
import type { Planner } from '../change/types.js';
import { languageOf, planRustAssistChange, unsupportedLanguage, type AssistKind } from '../assists/rust.js';
import type { extractFunctionFields, extractFunctionInput } from './schema.js';

const KIND: AssistKind = { operation: 'extract-function', assists: ['extract_function'], slug: 'function' };

type Target = z.infer<z.ZodObject<typeof extractFunctionFields>> & { no_wait?: boolean | undefined };

function planner(input: Target, context: OperationContext): Planner {
  return async (ws, snapshot) => {
    const file = await resolveUserPath(ws.repo, input.file, 'file');
    if (languageOf(file) === 'rust') return planRustAssistChange(ws, snapshot, KIND, file, input, context);
    throw unsupportedLanguage(KIND.operation, file, 'Rust');
  };
}

export function runExtractFunction(input: z.infer<typeof extractFunctionInput>, context: OperationContext): Promise<RunResponseJSON> {
  return runChange(input, { operation: KIND.operation, scope: KIND.operation }, planner(input, context), context);
}

export function previewExtractFunction(input: z.infer<typeof extractFunctionInput>, context: OperationContext = {}): Promise<ChangePreviewJSON> {
  return previewChange(input, { operation: KIND.operation }, planner(input, context));
}
