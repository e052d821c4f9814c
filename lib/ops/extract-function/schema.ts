// The fields of extract-function, shared by its registry entry and its run.
import { z } from 'zod';
import { ChangeFields, CommonFields, RangeFields } from '../operation.js';
import { rustAnalyzerField } from '../assists/rust.js';

export const extractFunctionFields = {
  ...RangeFields,
  new_name: z.string().min(1).optional().describe('The name of the new function (Python: required; Rust: default the one rust-analyzer picks).'),
  ...rustAnalyzerField,
};

export const extractFunctionInput = z.object({ ...CommonFields, ...ChangeFields, ...extractFunctionFields });
