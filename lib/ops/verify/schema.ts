// The fields of `tug verify`, shared by its registry entry and its run.
import { z } from 'zod';
import { ChangeFields, CommonFields } from '../operation.js';

export const verifyInput = z.object({
  ...CommonFields,
  mode: ChangeFields.verify.describe('Which checks to run: syntax, then tests, then typecheck, each including the ones before (default: `verify` in tug.toml or [tool.tug], else syntax).'),
  snapshot: ChangeFields.snapshot,
  python: ChangeFields.python,
  test_command: ChangeFields.test_command,
  typecheck_command: ChangeFields.typecheck_command,
  timeout: ChangeFields.timeout,
});
