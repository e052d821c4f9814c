// The fields of inline, shared by its registry entry and its run.
import { z } from 'zod';
import { ChangeFields, CommonFields, PositionFields } from '../operation.js';
import { rustAnalyzerField } from '../assists/rust.js';

export const inlineFields = {
  ...PositionFields,
  file: PositionFields.file.describe('File of what to inline (a local binding, a use of it, or a call), relative to the workspace root.'),
  keep_definition: z
    .boolean()
    .optional()
    .describe('Python functions: keep the def after inlining every call (by default it goes when nothing else refers to it). Only for a function; a Rust file refuses it.'),
  strict: z.boolean().optional().describe('Python locals: refuse instead of warning (EvaluationOrderChanged) when the value would now run after calls or attribute stores that came after it.'),
  ...rustAnalyzerField,
};

export const inlineInput = z.object({ ...CommonFields, ...ChangeFields, ...inlineFields });
