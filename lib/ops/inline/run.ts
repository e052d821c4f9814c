// inline's work: the language adapter's proposal, run through the change road or shown by analyze-impact.
import type { z } from 'zod';
import type { AssistKind } from '../assists/rust.js';
import type { LocalPlan } from '../assists/python.js';
import { localRefactorDoors } from '../assists/local.js';
import type { inlineFields, inlineInput } from './schema.js';

const KIND: AssistKind = { operation: 'inline', assists: ['inline_local_variable', 'inline_call'], slug: 'inline' };

type Target = z.infer<z.ZodObject<typeof inlineFields>> & { no_wait?: boolean | undefined; python?: string | undefined };

function pythonPlan(input: Target): LocalPlan {
  return {
    request: (_file, offset) => ({ op: 'inline_local', params: { offset: offset(input.line, input.column) } }),
    describe: (answer) => ({ subject: `inline ${String(answer['name'])} in ${input.file} (${String(answer['uses'])} use${answer['uses'] === 1 ? '' : 's'})`, slug: `${String(answer['name'])}` }),
  };
}

const doors = localRefactorDoors<z.infer<typeof inlineInput>>(KIND, pythonPlan);
export const runInline = doors.run;
export const previewInline = doors.preview;
