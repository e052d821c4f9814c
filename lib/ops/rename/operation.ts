// `rename-symbol` and `analyze-impact rename-symbol`: Python and Rust symbols renamed across the workspace, verified and committed.
import { RunResponse } from '../../core/schemas.js';
import { defineOperation } from '../operation.js';
import { AnalyzeImpactResponse, analyzeImpactInput, renameInput } from './schema.js';

export const renameOperation = defineOperation({
  name: 'rename-symbol',
  tool: 'tug_rename_symbol',
  description:
    'Rename a Python or Rust symbol everywhere in the workspace. Python: functions, classes, methods, attributes, variables, parameters with their keyword arguments, import aliases, modules. Rust (through rust-analyzer): any item, field, method, local, module. Verified in a sandbox worktree (Rust: cargo check), committed on tug/rename/<old>-to-<new>; optionally applied.',
  input: renameInput,
  output: RunResponse,
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async execute(input, context) {
    const { runRename } = await import('./run.js');
    return runRename(input, context);
  },
});

export const analyzeImpactOperation = defineOperation({
  name: 'analyze-impact',
  tool: 'tug_analyze_impact',
  description: 'Show what a rename would touch: the symbol, every reference (ordered by file, line, column) and warnings. Never writes anything.',
  input: analyzeImpactInput,
  output: AnalyzeImpactResponse,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input) {
    const { runAnalyzeImpact } = await import('./run.js');
    return runAnalyzeImpact(input);
  },
});
