// `replay`: the registry entry of tug replay (CLI, git tug replay, MCP tug_replay, library).
import { defineOperation } from '../operation.js';
import { ReplayResponse, replayInput } from './schema.js';

export const replayOperation = defineOperation({
  name: 'replay',
  tool: 'tug_replay',
  summary: "Redo a stale tug/ branch's operations on the current tree as a new verified branch.",
  description:
    "Re-run a tug branch's recorded operations on the current working tree (or onto a ref), finding each symbol again by identity, so uses of the old name added since are changed too; patchsets merge 3-way (ReplayConflict lists the files). The result is a new verified branch (-2; replace moves the old one).",
  input: replayInput,
  output: ReplayResponse,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async execute(input, context) {
    const { runReplay } = await import('./run.js');
    return runReplay(input, context);
  },
});
