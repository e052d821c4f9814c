// The fields of inline, shared by its registry entry and its run.
import { z } from 'zod';
import { ChangeFields, CommonFields, PositionFields } from '../operation.js';
import { rustAnalyzerField } from '../assists/rust.js';

export const inlineFields = {
  ...PositionFields,
  file: PositionFields.file.describe('File of what to inline (a local binding, a use of it, or a call), relative to the workspace root.'),
  ...rustAnalyzerField,
};

export const inlineInput = z.object({ ...CommonFields, ...ChangeFields, ...inlineFields });
