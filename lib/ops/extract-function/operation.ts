// `extract-function`: move statements or an expression into a new function and call it (Rust through rust-analyzer).
import { z } from 'zod';
import { RunResponse } from '../../core/schemas.js';
import { ChangeFields, CommonFields, defineOperation } from '../operation.js';
import { Range, Name, runAssist, rustAnalyzerField } from '../assists/run.js';

export const extractFunctionOperation = defineOperation({
  name: 'extract-function',
  tool: 'tug_extract_function',
  description: 'Rust (rust-analyzer\'s extract_function assist): move the statements or expression at --range into a new function and call it there. Verified in a sandbox (cargo check), committed on tug/extract-function/<name>.',
  input: z.object({ ...CommonFields, ...ChangeFields, range: Range, name: Name.optional(), ...rustAnalyzerField }),
  output: RunResponse,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  execute: (input, context) => runAssist({ operation: 'extract-function', assists: ['extract_function'], slug: 'function' }, input, context),
});
