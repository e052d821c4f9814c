// The fields of extract-variable, shared by its registry entry and its run.
import { z } from 'zod';
import { ChangeFields, CommonFields, RangeFields } from '../operation.js';
import { rustAnalyzerField } from '../assists/rust.js';

export const extractVariableFields = {
  ...RangeFields,
  new_name: z.string().min(1).optional().describe('The name of the new variable (Python: required; Rust: default the one rust-analyzer picks).'),
  all: z.boolean().optional().describe('Python: also replace the identical copies of the expression later in the same block, up to where a name it reads is assigned again (refused for an expression that calls something).'),
  strict: z.boolean().optional().describe('Python: refuse instead of warning (EvaluationOrderChanged) when the expression calls something and the statement calls something before it, so that extracting changes the order of the calls.'),
  ...rustAnalyzerField,
};

export const extractVariableInput = z.object({ ...CommonFields, ...ChangeFields, ...extractVariableFields });
