// `change-signature`: reorder, rename, add and remove a Python function's, a Rust fn's or a TypeScript/JavaScript function's parameters, with every resolved call.
import { TugError } from '../../core/errors.js';
import { RunResponse } from '../../core/schemas.js';
import { defineOperation } from '../operation.js';
import { atFields, atFlag, flagFields } from '../change/cli-flags.js';
import { changeSignatureInput } from './schema.js';

function paramsField(args: Record<string, unknown>): Record<string, unknown> {
  const raw = args['params'];
  if (typeof raw !== 'string') return {};
  try {
    return { new_params: JSON.parse(raw) as unknown };
  } catch (error) {
    throw new TugError('InvalidArgument', `--params is not JSON: ${(error as Error).message}`, { details: { argument: 'params', reason: 'not JSON' } });
  }
}

export const changeSignatureOperation = defineOperation({
  name: 'change-signature',
  tool: 'tug_change_signature',
  summary: "Give a function a new parameter list (new_params) and rewrite its calls.",
  description:
    'Python: give a function or method a new parameter list (reorder, rename, add with a default or a call-site value, remove, `/` `*` `*args` `**kwargs`) and rewrite its definitions (overrides and bases too) and every resolved call, partial(f, …) and super() call. Refused (UnsafeRefactor) when a removed argument is not a literal or a name, a reorder would change the evaluation order of arguments with effects, or a decorator may replace the function, unless force; special methods are refused (UnsupportedOperation). Calls in doctest examples and docs code blocks are rewritten too. Calls that unpack *args/**kwargs are left with a warning; untyped receivers (in code and examples) are listed in unsure. Rust: the same for a fn or method (new parameters need type and value; no defaults), on rust-analyzer\'s references: the trait declaration and every impl, method, path and UFCS calls; fn pointers listed in unsure. TypeScript/JavaScript: the same (positional parameters, `...rest`, defaults, types in .ts files) for a function, method or constructor on the language service\'s references: overloads, interface members with every implementation and override, plain, method, optional, new and super calls; values, spread arguments and .call/.apply/.bind listed in unsure. Verified in a sandbox, committed on tug/change-signature/<name>.',
  input: changeSignatureInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async execute(input, context) {
    const { runChangeSignature } = await import('./run.js');
    return runChangeSignature(input, context);
  },
  cli: {
    flags: {
      at: atFlag,
      params: { type: 'string', describe: 'The new parameter list as JSON: [{"name":…, "default"?, "type"?, "from"?, "value"?}, …]', required: true },
      force: { type: 'boolean', describe: 'Remove arguments with possible effects; change decorated functions' },
    },
    fields: (args) => ({ ...atFields(args), ...paramsField(args), ...flagFields(args, ['force']) }),
    shorthand: 'change-signature',
    examples: [
      'tug run change-signature --at src/shop/prices.py:4:5 --params \'[{"name":"amount"},{"name":"rate","from":"tax"},{"name":"currency","default":"\\"EUR\\""}]\'',
      'tug change-signature --at src/money.ts:5:17 --params \'[{"name":"rate"},{"name":"amount"}]\' --verify tests',
    ],
  },
});
