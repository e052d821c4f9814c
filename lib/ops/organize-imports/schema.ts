// The fields of organize-imports, shared by its registry entry and its run.
import { z } from 'zod';
import { ChangeFields, CommonFields } from '../operation.js';
import { rustAnalyzerField } from '../assists/rust.js';

export const organizeImportsFields = {
  file: z.string().min(1).optional().describe('The file whose imports to organize, relative to the workspace root (or files, or all).'),
  files: z.array(z.string().min(1)).min(1).optional().describe('Python: several files whose imports to organize (instead of file).'),
  all: z.boolean().optional().describe('Python: organize every Python file of the repository (instead of file).'),
  ...rustAnalyzerField,
};

export const organizeImportsInput = z.object({ ...CommonFields, ...ChangeFields, ...organizeImportsFields });
