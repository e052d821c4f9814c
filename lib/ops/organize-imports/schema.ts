// The fields of organize-imports, shared by its registry entry and its run.
import { z } from 'zod';
import { ChangeFields, CommonFields } from '../operation.js';
import { rustAnalyzerField } from '../assists/rust.js';

export const organizeImportsFields = {
  file: z.string().min(1).describe('The file whose imports to organize, relative to the workspace root.'),
  ...rustAnalyzerField,
};

export const organizeImportsInput = z.object({ ...CommonFields, ...ChangeFields, ...organizeImportsFields });
