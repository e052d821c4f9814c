// `inline`: replace a local or a call by its value or body (Rust through rust-analyzer).
import { z } from 'zod';
import { RunResponse } from '../../core/schemas.js';
import { ChangeFields, CommonFields, defineOperation } from '../operation.js';
import { At, runAssist, rustAnalyzerField } from '../assists/run.js';

export const inlineOperation = defineOperation({
  name: 'inline',
  tool: 'tug_inline',
  description: 'Rust (rust-analyzer\'s inline_local_variable, else inline_call): replace the local or the call at --at by its value or body. Verified in a sandbox (cargo check), committed on tug/inline/<file>.',
  input: z.object({ ...CommonFields, ...ChangeFields, at: At, ...rustAnalyzerField }),
  output: RunResponse,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  execute: (input, context) => runAssist({ operation: 'inline', assists: ['inline_local_variable', 'inline_call'], slug: 'inline' }, input, context),
});
