// `rename-symbol` and `analyze-impact rename-symbol`: Python, Rust and TypeScript/JavaScript symbols renamed across the workspace, verified and committed.
import { RunResponse } from '../../core/schemas.js';
import { defineOperation } from '../operation.js';
import { renameInput } from './schema.js';

export const renameOperation = defineOperation({
  name: 'rename-symbol',
  tool: 'tug_rename_symbol',
  summary: 'Rename the Python, Rust or TypeScript/JavaScript symbol at file:line:column everywhere; verified, committed on a tug/ branch, applied with apply:true.',
  description:
    'Rename a Python, Rust or TypeScript/JavaScript symbol everywhere in the workspace. Python: functions, classes, methods, attributes, variables, parameters with their keyword arguments, import aliases, modules. Rust (through rust-analyzer): any item, field, method, local, module. TypeScript/JavaScript (through the TypeScript language service): any declaration, across re-exports, JSX and project references; at the module specifier of an import, the module file moves. Verified in a sandbox checkout (Rust: cargo check), committed on tug/rename/<old>-to-<new>; optionally applied.',
  input: renameInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async execute(input, context) {
    const { runRename } = await import('./run.js');
    return runRename(input, context);
  },
});
