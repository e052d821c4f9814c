// extract-variable's work: the language adapter's proposal, run through the change road or shown by analyze-impact.
import type { z } from 'zod';
import { TugError } from '../../core/errors.js';
import type { AssistKind } from '../assists/rust.js';
import type { LocalPlan } from '../assists/python.js';
import { localRefactorDoors } from '../assists/local.js';
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

function pythonOnly(input: Target): void {
  if (input.all) throw new TugError('InvalidArgument', 'all applies to Python files; rust-analyzer extracts the one expression', { details: { argument: 'all', reason: 'Python only' } });
}

const doors = localRefactorDoors<z.infer<typeof extractVariableInput>>(KIND, pythonPlan, pythonOnly);
export const runExtractVariable = doors.run;
export const previewExtractVariable = doors.preview;
