// extract-function's work: the language adapter's proposal, run through the change road or shown by analyze-impact.
import type { z } from 'zod';
import { TugError } from '../../core/errors.js';
import type { AssistKind } from '../assists/rust.js';
import type { LocalPlan } from '../assists/python.js';
import { localRefactorDoors } from '../assists/local.js';
import type { extractFunctionFields, extractFunctionInput } from './schema.js';

const KIND: AssistKind = { operation: 'extract-function', assists: ['extract_function'], slug: 'function' };

type Target = z.infer<z.ZodObject<typeof extractFunctionFields>> & { no_wait?: boolean | undefined; python?: string | undefined };

function pythonPlan(input: Target): LocalPlan {
  const name = input.new_name?.normalize('NFKC'); // Python reads `ｘ` as x: the name written and compared is x
  if (name === undefined) throw new TugError('InvalidArgument', 'extract-function in a Python file needs new_name (--name)', { details: { argument: 'new_name', reason: 'required for Python' } });
  return {
    request: (_file, offset) => ({ op: 'extract_function', params: { start: offset(input.line, input.column), end: offset(input.end_line, input.end_column), name } }),
    describe: (answer) => ({ subject: `${answer['method'] ? 'method' : 'function'} ${name} from ${input.file}`, slug: `function-${name}` }),
  };
}

const doors = localRefactorDoors<z.infer<typeof extractFunctionInput>>(KIND, pythonPlan);
export const runExtractFunction = doors.run;
export const previewExtractFunction = doors.preview;
