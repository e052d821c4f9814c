// extract-variable's work: the language adapter's proposal, run through the change road or shown by analyze-impact.
import type { z } from 'zod';
import { resolveUserPath } from '../../workspace/paths.js';
import type { OperationContext } from '../operation.js';
import { refactorDoors } from '../change/doors.js';
import type { Planner } from '../change/types.js';
import { TugError } from '../../core/errors.js';
import { languageOf, planRustAssistChange, unsupportedLanguage, type AssistKind } from '../assists/rust.js';
import { planPythonLocal, warmPythonFor, type LocalPlan } from '../assists/python.js';
import type { extractVariableFields, extractVariableInput } from './schema.js';

const KIND: AssistKind = { operation: 'extract-variable', assists: ['extract_variable'], slug: 'variable' };

type Target = z.infer<z.ZodObject<typeof extractVariableFields>> & { no_wait?: boolean | undefined; python?: string | undefined };

function pythonPlan(input: Target): LocalPlan {
  const name = input.new_name;
  if (name === undefined) throw new TugError('InvalidArgument', 'extract-variable in a Python file needs new_name (--name)', { details: { argument: 'new_name', reason: 'required for Python' } });
  return {
    request: (_file, offset) => ({
      op: 'extract_variable',
      params: { start: offset(input.line, input.column), end: offset(input.end_line, input.end_column), name, all: input.all ?? false },
    }),
    describe: (answer) => ({ subject: `${name} = … in ${input.file} (${String(answer['replaced'])} use${answer['replaced'] === 1 ? '' : 's'})`, slug: `variable-${name}` }),
  };
}

function planner(input: Target, context: OperationContext): Planner {
  return async (ws, snapshot) => {
    const file = await resolveUserPath(ws.repo, input.file, 'file');
    const language = languageOf(file);
    if (language === 'python') return planPythonLocal(ws, snapshot, file, input.python, pythonPlan(input), context);
    if (input.all) throw new TugError('InvalidArgument', 'all applies to Python files; rust-analyzer extracts the one expression', { details: { argument: 'all', reason: 'Python only' } });
    if (language === 'rust') return planRustAssistChange(ws, snapshot, KIND, file, input, context);
    throw unsupportedLanguage(KIND.operation, file, 'Python and Rust');
  };
}

const doors = refactorDoors<z.infer<typeof extractVariableInput>>(KIND.operation, planner, (input) => warmPythonFor(input.file, input.python));
export const runExtractVariable = doors.run;
export const previewExtractVariable = doors.preview;
