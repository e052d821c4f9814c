// `inline`: replace a local or a call by its value or body.
import { RunResponse } from '../../core/schemas.js';
import { defineOperation } from '../operation.js';
import { atFields, atFlag, flagFields, rustAnalyzerFlag } from '../change/cli-flags.js';
import { inlineInput } from './schema.js';

export const inlineOperation = defineOperation({
  name: 'inline',
  tool: 'tug_inline',
  description:
    "Replace the variable (or, in Rust, the call) at a position by its value or body. Python: a function's local variable assigned once with `name = value` (the position on the assignment or any use); every use gets the value, parenthesized where needed, and the assignment goes; refused (UnsafeRefactor) when the value could mean or do something else at a use; Python functions are not inlined yet (UnsupportedOperation). Rust: rust-analyzer's inline_local_variable, else inline_call. Verified in a sandbox, committed on tug/inline/<name>.",
  input: inlineInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async execute(input, context) {
    const { runInline } = await import('./run.js');
    return runInline(input, context);
  },
  cli: {
    flags: { at: atFlag, 'rust-analyzer': rustAnalyzerFlag },
    fields: (args) => ({ ...atFields(args), ...flagFields(args, ['rust-analyzer']) }),
    shorthand: 'inline',
    examples: ['tug run inline --at src/shapes.py:14:5', 'tug run inline --at src/lib.rs:7:9 --verify tests'],
  },
});
