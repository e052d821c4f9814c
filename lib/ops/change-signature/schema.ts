// The fields of change-signature, shared by its registry entry and its run.
import { z } from 'zod';
import { ChangeFields, CommonFields, PositionFields } from '../operation.js';

export const NewParam = z
  .object({
    name: z.string().min(1).describe('The parameter\'s name; `"/"` and `"*"` are the markers, `"*args"` and `"**kwargs"` the variadic parameters.'),
    default: z.string().optional().describe('Python (or TypeScript/JavaScript) expression text of a new or changed default.'),
    type: z.string().optional().describe('Annotation text (replaces the kept parameter\'s); Rust: the type, required for a new parameter.'),
    from: z.string().optional().describe('The existing parameter this one is (a rename when it differs from name); default: the parameter named name, if any.'),
    value: z.string().optional().describe('Python (or Rust) expression text inserted at every call site that does not pass it (required for a new parameter without a default).'),
  })
  .strict();

/** One entry of `new_params` as given, the same for every language. */
export type NewParamInput = z.infer<typeof NewParam>;

export const changeSignatureFields = {
  ...PositionFields,
  new_params: z
    .array(NewParam)
    .describe('The new parameter list, in order (a method\'s self/cls is left out and kept). Existing parameters left out are removed.'),
  force: z.boolean().optional().describe('Remove parameters even where a call passes an expression with possible effects, and change functions with decorators that may replace them (with a warning).'),
};

export const changeSignatureInput = z.object({ ...CommonFields, ...ChangeFields, ...changeSignatureFields });
