// `extract-function`: move statements (or an expression) into a new function and call it where they were.
import { RunResponse } from '../../core/schemas.js';
import { defineOperation } from '../operation.js';
import { flagFields, nameFlag, rangeFields, rangeFlag, rustAnalyzerFlag } from '../change/cli-flags.js';
import { extractFunctionInput } from './schema.js';

export const extractFunctionOperation = defineOperation({
  name: 'extract-function',
  tool: 'tug_extract_function',
  summary: 'Move the statements in a range into a new function and call it there.',
  description:
    "Move the statements (or, in Rust, the expression) in a range into a new function and call it there. Python: whole statements of one block; parameters are the names they read that were bound before them, return values the names they bind that later code reads; a method (called on self) when they use the method's self; async kept; refused (UnsafeRefactor) on return (unless the statements end the function body: then the call is returned), yield, break/continue out of the range, global/nonlocal, locals()/super(), nested functions and class bodies. Rust: rust-analyzer's extract_function assist. Verified in a sandbox, committed on tug/extract-function/<name>. TypeScript/JavaScript: the language service's Extract Symbol, a function at module scope, named by new_name.",
  input: extractFunctionInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async execute(input, context) {
    const { runExtractFunction } = await import('./run.js');
    return runExtractFunction(input, context);
  },
  cli: {
    flags: { range: rangeFlag, name: nameFlag, 'rust-analyzer': rustAnalyzerFlag },
    fields: (args) => ({ ...rangeFields(args), ...flagFields(args, ['rust-analyzer']), ...(args['name'] !== undefined ? { new_name: args['name'] } : {}) }),
    shorthand: 'extract-function',
    examples: ['tug run extract-function --range src/report.py:12:5-14:70 --name headline --verify tests', 'tug run extract-function --range src/lib.rs:3:5-5:6 --name checksum --verify tests'],
  },
});
