// `organize-imports`: clean up a file's imports.
import { RunResponse } from '../../core/schemas.js';
import { defineOperation } from '../operation.js';
import { flagFields, rustAnalyzerFlag } from '../change/cli-flags.js';
import { organizeImportsInput } from './schema.js';

export const organizeImportsOperation = defineOperation({
  name: 'organize-imports',
  tool: 'tug_organize_imports',
  description:
    "Organize a file's imports. Rust: rust-analyzer's remove_unused_imports over the whole file (the use items and names nothing uses). Verified in a sandbox (cargo check), committed on tug/organize-imports/<file>.",
  input: organizeImportsInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async execute(input, context) {
    const { runOrganizeImports } = await import('./run.js');
    return runOrganizeImports(input, context);
  },
  cli: {
    flags: { file: { type: 'string', describe: 'The file whose imports to organize', required: true }, 'rust-analyzer': rustAnalyzerFlag },
    fields: (args) => flagFields(args, ['file', 'rust-analyzer']),
    shorthand: 'organize-imports',
    examples: ['tug run organize-imports --file src/lib.rs'],
  },
});
