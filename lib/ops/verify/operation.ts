// `tug verify`: run the checks on the workspace as it is, in a sandbox, without changing anything.
import { VerifyResponse } from '../../core/schemas.js';
import { defineOperation } from '../operation.js';
import { verifyInput } from './schema.js';

export const verifyOperation = defineOperation({
  name: 'verify',
  tool: 'tug_verify',
  summary: 'Run syntax checks, tests (mode:"tests") or a type checker on the workspace in a sandbox; writes nothing.',
  description: 'Verify the workspace as it is (syntax of every Python file, then tests, then a type checker) in a sandbox checkout; never writes the working tree.',
  input: verifyInput,
  output: VerifyResponse,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input, context) {
    const { runVerifyOnly } = await import('./run.js');
    return runVerifyOnly(input, context);
  },
});
