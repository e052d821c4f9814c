// extract-function's work: the language adapter's proposal, run through the change road or shown by analyze-impact.
import type { z } from 'zod';
import { resolveUserPath } from '../../workspace/paths.js';
import type { OperationContext } from '../operation.js';
import { refactorDoors } from '../change/doors.js';
import type { Planner } from '../change/types.js';
import { TugError } from '../../core/errors.js';
import { languageOf, planRustAssistChange, unsupportedLanguage, type AssistKind } from '../assists/rust.js';
import { planPythonLocal, warmPythonFor, type LocalPlan } from '../assists/python.js';
import type { extractFunctionFields, extractFunctionInput } from './schema.js';

const KIND: AssistKind = { operation: 'extract-function', assists: ['extract_function'], slug: 'function' };

type Target = z.infer<z.ZodObject<typeof extractFunctionFields>> & { no_wait?: boolean | undefined; python?: string | undefined };

function pythonPlan(input: Target): LocalPlan {
  const name = input.new_name;
  if (name === undefined) throw new TugError('InvalidArgument', 'extract-function in a Python file needs new_name (--name)', { details: { argument: 'new_name', reason: 'required for Python' } });
  return {
    request: (_file, offset) => ({ op: 'extract_function', params: { start: offset(input.line, input.column), end: offset(input.end_line, input.end_column), name } }),
    describe: (answer) => ({ subject: `${answer['method'] ? 'method' : 'function'} ${name} from ${input.file}`, slug: `function-${name}` }),
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

const doors = refactorDoors<z.infer<typeof extractFunctionInput>>(KIND.operation, planner, (input) => warmPythonFor(input.file, input.python));
export const runExtractFunction = doors.run;
export const previewExtractFunction = doors.preview;
