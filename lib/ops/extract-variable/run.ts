// extract-variable's work: the language adapter's proposal, run through the change road or shown by analyze-impact.
import type { z } from 'zod';
import { TugError } from '../../core/errors.js';
import type { AssistKind } from '../assists/rust.js';
import { workerWarnings, type LocalPlan } from '../assists/python.js';
import { localRefactorDoors } from '../assists/local.js';
import type { extractVariableFields, extractVariableInput } from './schema.js';

const KIND: AssistKind = { operation: 'extract-variable', assists: ['extract_variable'], slug: 'variable' };

type Target = z.infer<z.ZodObject<typeof extractVariableFields>> & { no_wait?: boolean | undefined; python?: string | undefined };

function pythonPlan(input: Target): LocalPlan {
  const name = input.new_name?.normalize('NFKC'); // Python reads `ｘ` as x: the name written and compared is x
  if (name === undefined) throw new TugError('InvalidArgument', 'extract-variable in a Python file needs new_name (--name)', { details: { argument: 'new_name', reason: 'required for Python' } });
  let path = input.file; // the repository path the worker's lines are in, once the file is known
  return {
    request: (file, offset) => {
      path = file.path;
      const params = { start: offset(input.line, input.column), end: offset(input.end_line, input.end_column), name, all: input.all ?? false, strict: input.strict ?? false };
      return { op: 'extract_variable', params };
    },
    describe: (answer) => ({
      subject: `${name} = … in ${input.file} (${String(answer['replaced'])} use${answer['replaced'] === 1 ? '' : 's'})`,
      slug: `variable-${name}`,
      warnings: workerWarnings(answer, path),
    }),
  };
}

function pythonOnly(input: Target): void {
  if (input.strict) throw new TugError('InvalidArgument', 'strict applies to Python files; rust-analyzer decides for Rust', { details: { argument: 'strict', reason: 'Python only' } });
  if (input.all) throw new TugError('InvalidArgument', 'all applies to Python files; rust-analyzer extracts the one expression', { details: { argument: 'all', reason: 'Python only' } });
}

const doors = localRefactorDoors<z.infer<typeof extractVariableInput>>(KIND, pythonPlan, pythonOnly);
export const runExtractVariable = doors.run;
export const previewExtractVariable = doors.preview;
