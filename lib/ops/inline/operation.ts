// `inline`: replace a local or a call by its value or body.
import { RunResponse } from '../../core/schemas.js';
import { defineOperation } from '../operation.js';
import { atFields, atFlag, flagFields, rustAnalyzerFlag } from '../change/cli-flags.js';
import { inlineInput } from './schema.js';

export const inlineOperation = defineOperation({
  name: 'inline',
  tool: 'tug_inline',
  summary: 'Replace the variable or function at a position by its value or body.',
  description:
    "Replace the variable (or, in Rust, the call) at a position by its value or body. Python: a function's local variable assigned once with `name = value` (the position on the assignment or any use); every use gets the value, parenthesized where needed, and the assignment goes; refused (UnsafeRefactor) when the value could mean or do something else at a use; where it would only run after calls or attribute stores that came after it, inlined with an EvaluationOrderChanged warning naming them (strict refuses instead). Python: a module-level function (the position on its def or a call): every resolved call in the project gets its body with the arguments bound (substituted into a single returned expression, else assigned to the parameters, and the body goes before the call's statement when only names and constants are evaluated ahead of the call); the names the body reads are imported where a caller needs them; the def, its __all__ entry and imports of it go unless keep_definition or something refers to it without calling it (DefinitionKept warning). Refused as a whole (UnsafeRefactor, NameConflict) for recursion, generators, async or decorated functions, several returns, *args at a call, or a name the caller binds otherwise. Rust: rust-analyzer's inline_local_variable, else inline_call. TypeScript/JavaScript: a variable declared once with a value (not exported, never assigned again, used only in its file), checked like a Python local and inlined by the language service's \"Inline variable\"; functions, parameters, imports and destructured names are refused (UnsupportedByAdapter). Verified in a sandbox, committed on tug/inline/<name>.",
  input: inlineInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async execute(input, context) {
    const { runInline } = await import('./run.js');
    return runInline(input, context);
  },
  cli: {
    flags: {
      at: atFlag,
      'keep-definition': { type: 'boolean', describe: 'Python functions: keep the def after inlining every call' },
      strict: { type: 'boolean', describe: 'Python locals: refuse where the value would run after calls that came after it (default: inline with an EvaluationOrderChanged warning)' },
      'rust-analyzer': rustAnalyzerFlag,
    },
    fields: (args) => ({ ...atFields(args), ...flagFields(args, ['keep-definition', 'strict', 'rust-analyzer']) }),
    shorthand: 'inline',
    examples: ['tug run inline --at src/shapes.py:14:5', 'tug inline --at src/shop/prices.py:4:5 --keep-definition', 'tug run inline --at src/lib.rs:7:9 --verify tests', 'tug inline --at src/money.ts:6:9 --verify tests'],
  },
});
