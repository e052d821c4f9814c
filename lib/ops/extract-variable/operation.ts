// `extract-variable`: bind an expression to a new local before its statement and use it there.
import { RunResponse } from '../../core/schemas.js';
import { defineOperation } from '../operation.js';
import { flagFields, nameFlag, rangeFields, rangeFlag, rustAnalyzerFlag } from '../change/cli-flags.js';
import { extractVariableInput } from './schema.js';

export const extractVariableOperation = defineOperation({
  name: 'extract-variable',
  tool: 'tug_extract_variable',
  summary: 'Bind the expression in a range to a new variable and use it there.',
  description:
    "Bind the expression in a range to a new variable on a line before its statement and use it there. Python: tug's own analysis, refused (UnsafeRefactor) where moving the evaluation could change what the code does (a lambda or comprehension, the right of and/or, a while or elif condition, a name a := before it assigns); where the expression calls something and the statement calls something before it, extracted with an EvaluationOrderChanged warning naming those calls (strict refuses instead); `all` also replaces identical copies later in the block. Rust: rust-analyzer's extract_variable assist. Verified in a sandbox (syntax, cargo check or tests), committed on tug/extract-variable/<name>. TypeScript/JavaScript: the language service's Extract Symbol, a const in the innermost scope, named by new_name.",
  input: extractVariableInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async execute(input, context) {
    const { runExtractVariable } = await import('./run.js');
    return runExtractVariable(input, context);
  },
  cli: {
    flags: { range: rangeFlag, name: nameFlag, all: { type: 'boolean', describe: 'Python: also replace identical copies later in the block' }, strict: { type: 'boolean', describe: 'Python: refuse where extracting changes the order of calls (default: extract with an EvaluationOrderChanged warning)' }, 'rust-analyzer': rustAnalyzerFlag },
    fields: (args) => ({ ...rangeFields(args), ...flagFields(args, ['all', 'strict', 'rust-analyzer']), ...(args['name'] !== undefined ? { new_name: args['name'] } : {}) }),
    shorthand: 'extract-variable',
    examples: ['tug run extract-variable --range src/shapes.py:12:16-12:31 --name area --all', 'tug run extract-variable --range src/lib.rs:4:13-4:30 --name total --verify tests'],
  },
});
