// `extract-function`: move statements (or an expression) into a new function and call it where they were.
import { RunResponse } from '../../core/schemas.js';
import { defineOperation } from '../operation.js';
import { flagFields, nameFlag, rangeFields, rangeFlag, rustAnalyzerFlag } from '../change/cli-flags.js';
import { extractFunctionInput } from './schema.js';

export const extractFunctionOperation = defineOperation({
  name: 'extract-function',
  tool: 'tug_extract_function',
  description:
    "Move the statements (or the expression) in a range into a new function and call it there. Python: tug's own analysis of whole statements; parameters are the names they read that are bound before them, results the names they assign that are read afterwards; a method placed after the enclosing one when the statements use self, async kept; refused (UnsafeRefactor) on return (unless the statements end the function, then the call is returned), yield, break/continue leaving the range, global/nonlocal. Rust: rust-analyzer's extract_function assist. Verified in a sandbox (syntax, cargo check or tests), committed on tug/extract-function/<name>.",
  input: extractFunctionInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async execute(input, context) {
    const { runExtractFunction } = await import('./run.js');
    return runExtractFunction(input, context);
  },
  cli: {
    flags: { range: rangeFlag, name: nameFlag, 'rust-analyzer': rustAnalyzerFlag },
    fields: (args) => ({ ...rangeFields(args), ...flagFields(args, ['rust-analyzer']), ...(args['name'] !== undefined ? { new_name: args['name'] } : {}) }),
    shorthand: 'extract-function',
    examples: ['tug run extract-function --range src/geometry/shapes.py:12:9-14:30 --name scaled', 'tug run extract-function --range src/lib.rs:3:5-5:6 --name checksum --verify tests'],
  },
});
