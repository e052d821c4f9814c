// `tug log` and `tug show`: the operation log, newest first, and one entry by id or unique prefix.
import { z } from 'zod';
import { LogEntry, SCHEMA_VERSION } from '../../core/schemas.js';
import { CommonFields, defineOperation } from '../operation.js';
import { BranchShow } from '../replay/schema.js';

export const logInput = z
  .object({
    ...CommonFields,
    n: z.number().int().positive().optional().describe('Show at most this many entries (newest first; default all).'),
  })
  .strict();

export const LogResponse = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  entries: z.array(LogEntry),
  total: z.number().int(),
});

export const logOperation = defineOperation({
  name: 'log',
  tool: 'tug_log',
  summary: 'The operation log, newest first.',
  lockFree: true,
  description:
    'The operation log, newest first: every change tug committed or wrote (edits, renames, patchsets, undos) and every command it ran, with arguments, snapshot, branch, commit, verification, applied and undo token.',
  input: logInput,
  output: LogResponse,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input) {
    const { withWorkspace } = await import('../workspace/workspace.js');
    const { readLog } = await import('../change/op-log.js');
    return withWorkspace(input, { lock: false }, async (ws) => {
      const entries = (await readLog(ws.session)).reverse();
      return LogResponse.parse({ status: 'ok', schema_version: SCHEMA_VERSION, entries: entries.slice(0, input.n ?? entries.length), total: entries.length });
    });
  },
});

export const showInput = z
  .object({
    ...CommonFields,
    id: z.string().min(1).describe('A log entry id (or a unique prefix of one), or a tug/ branch: its recorded operations and whether its base moved.'),
  })
  .strict();

export const ShowResponse = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  entry: LogEntry.optional().describe('The log entry, when id named one.'),
  branch: BranchShow.optional().describe('The branch, when id named one.'),
});

export const showOperation = defineOperation({
  name: 'show',
  tool: 'tug_show',
  summary: "One operation log entry by id, or a tug/ branch's recorded operations and staleness.",
  lockFree: true,
  description:
    'One operation log entry, found by its id or a unique prefix of it (LogEntryNotFound when none matches); or, given a branch, the operations recorded on its commits (refs/notes/tug) and whether its base moved.',
  input: showInput,
  output: ShowResponse,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input) {
    const { withWorkspace } = await import('../workspace/workspace.js');
    const { findLogEntry, readLog } = await import('../change/op-log.js');
    const { readRef } = await import('../../git/refs.js');
    return withWorkspace(input, { lock: false }, async (ws) => {
      if (/[/]/.test(input.id) && (await readRef(ws.repo, `refs/heads/${input.id.replace(/^refs\/heads\//, '')}`))) {
        const { showBranch } = await import('../replay/show.js');
        return ShowResponse.parse({ status: 'ok', schema_version: SCHEMA_VERSION, branch: await showBranch(ws, input.id) });
      }
      return ShowResponse.parse({ status: 'ok', schema_version: SCHEMA_VERSION, entry: findLogEntry(await readLog(ws.session), input.id) });
    });
  },
});
