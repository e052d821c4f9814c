// inline's work: the language adapter's proposal, run through the change road or shown by analyze-impact.
import type { z } from 'zod';
import { resolveUserPath } from '../../workspace/paths.js';
import type { OperationContext } from '../operation.js';
import { refactorDoors } from '../change/doors.js';
import type { Planner } from '../change/types.js';
import { languageOf, planRustAssistChange, unsupportedLanguage, type AssistKind } from '../assists/rust.js';
import { planPythonLocal, warmPythonFor, type LocalPlan } from '../assists/python.js';
import type { inlineFields, inlineInput } from './schema.js';

const KIND: AssistKind = { operation: 'inline', assists: ['inline_local_variable', 'inline_call'], slug: 'inline' };

type Target = z.infer<z.ZodObject<typeof inlineFields>> & { no_wait?: boolean | undefined; python?: string | undefined };

function pythonPlan(input: Target): LocalPlan {
  return {
    request: (_file, offset) => ({ op: 'inline_local', params: { offset: offset(input.line, input.column) } }),
    describe: (answer) => ({ subject: `inline ${String(answer['name'])} in ${input.file} (${String(answer['uses'])} use${answer['uses'] === 1 ? '' : 's'})`, slug: `${String(answer['name'])}` }),
  };
}

function planner(input: Target, context: OperationContext): Planner {
  return async (ws, snapshot) => {
    const file = await resolveUserPath(ws.repo, input.file, 'file');
    const language = languageOf(file);
    if (language === 'python') return planPythonLocal(ws, snapshot, file, input.python, pythonPlan(input), context);
    if (language === 'rust') return planRustAssistChange(ws, snapshot, KIND, file, input, context);
    throw unsupportedLanguage(KIND.operation, file, 'Python and Rust');
  };
}

const doors = refactorDoors<z.infer<typeof inlineInput>>(KIND.operation, planner, (input) => warmPythonFor(input.file, input.python));
export const runInline = doors.run;
export const previewInline = doors.preview;
