// The fields of extract-variable, shared by its registry entry and its run.
import { z } from 'zod';
import { ChangeFields, CommonFields, RangeFields } from '../operation.js';
import { rustAnalyzerField } from '../assists/rust.js';

export const extractVariableFields = {
  ...RangeFields,
  new_name: z.string().min(1).optional().describe('The name of the new variable (Rust: default the one rust-analyzer picks).'),
  ...rustAnalyzerField,
};

export const extractVariableInput = z.object({ ...CommonFields, ...ChangeFields, ...extractVariableFields });
