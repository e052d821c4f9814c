// `extract-variable`: bind an expression to a new local and use it there (Rust through rust-analyzer).
import { z } from 'zod';
import { RunResponse } from '../../core/schemas.js';
import { ChangeFields, CommonFields, defineOperation } from '../operation.js';
import { Range, Name, runAssist, rustAnalyzerField } from '../assists/run.js';

export const extractVariableOperation = defineOperation({
  name: 'extract-variable',
  tool: 'tug_extract_variable',
  description: 'Rust (rust-analyzer\'s extract_variable assist): bind the expression at --range to a new local before its statement and use it there. Verified in a sandbox (cargo check), committed on tug/extract-variable/<name>.',
  input: z.object({ ...CommonFields, ...ChangeFields, range: Range, name: Name.optional(), ...rustAnalyzerField }),
  output: RunResponse,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  execute: (input, context) => runAssist({ operation: 'extract-variable', assists: ['extract_variable'], slug: 'variable' }, input, context),
});
