// `check-merge`: the registry entry of tug check-merge (CLI, git tug check-merge, MCP tug_check_merge, library).
import { defineOperation } from '../operation.js';
import { CheckMergeResponse, checkMergeInput } from './schema.js';

export const checkMergeOperation = defineOperation({
  name: 'check-merge',
  tool: 'tug_check_merge',
  summary: 'Check that a tug/ branch merges cleanly: git conflicts, and new uses (file:line) of symbols it changed.',
  lockFree: true,
  description:
    'Without merging: whether merging a tug/ branch into HEAD (or into) would be clean and complete: the files git would conflict on, and the semantic conflicts — uses the other side added of a symbol the branch renamed, moved or re-signed, with file:line — that merge silently and break. clean: false (CLI exit 1) means replay first.',
  input: checkMergeInput,
  output: CheckMergeResponse,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input) {
    const { runCheckMerge } = await import('./run.js');
    return runCheckMerge(input);
  },
});
