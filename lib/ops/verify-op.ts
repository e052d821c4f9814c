// `tug verify`: run the checks on the workspace as it is, in a sandbox, without changing anything.
import { z } from 'zod';
import { VerifyResponse } from '../core/schemas.js';
import { ChangeFields, CommonFields, defineOperation } from './operation.js';

export const verifyInput = z.object({
  ...CommonFields,
  mode: ChangeFields.verify.describe('Which checks to run: syntax, then tests, then typecheck, each including the ones before (default: `verify` in tug.toml or [tool.tug], else syntax).'),
  snapshot: ChangeFields.snapshot,
  python: ChangeFields.python,
  test_command: ChangeFields.test_command,
  typecheck_command: ChangeFields.typecheck_command,
  timeout: ChangeFields.timeout,
});

export const verifyOperation = defineOperation({
  name: 'verify',
  tool: 'tug_verify',
  description: 'Verify the workspace as it is (syntax of every Python file, then tests, then a type checker) in a sandbox worktree; never writes the working tree.',
  input: verifyInput,
  output: VerifyResponse,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input, context) {
    const { runVerifyOnly } = await import('./run-verify.js');
    return runVerifyOnly(input, context);
  },
});
