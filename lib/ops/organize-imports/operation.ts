// `organize-imports`: remove the imports nothing uses (Rust through rust-analyzer).
import { z } from 'zod';
import { RunResponse } from '../../core/schemas.js';
import { ChangeFields, CommonFields, defineOperation } from '../operation.js';
import { runAssist, rustAnalyzerField } from '../assists/run.js';

export const organizeImportsOperation = defineOperation({
  name: 'organize-imports',
  tool: 'tug_organize_imports',
  description: 'Rust (rust-analyzer\'s remove_unused_imports over the whole --file): remove the `use` items and names nothing uses. Verified in a sandbox (cargo check), committed on tug/organize-imports/<file>.',
  input: z.object({ ...CommonFields, ...ChangeFields, file: z.string().min(1).describe('The .rs file whose imports to clean up, relative to the workspace.'), ...rustAnalyzerField }),
  output: RunResponse,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  execute: (input, context) => runAssist({ operation: 'organize-imports', assists: ['remove_unused_imports'], slug: 'imports' }, input, context),
});
