// `tug session status` and `tug clean`: look at and tidy what tug keeps for a repository.
import { z } from 'zod';
import { SCHEMA_VERSION } from '../../core/schemas.js';
import { CommonFields, defineOperation } from '../operation.js';

const SessionStatus = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  session: z.object({ path: z.string(), created_at: z.string(), last_accessed: z.string(), workspace_root: z.string() }),
  lock: z.object({ held: z.boolean(), pid: z.number().int().nullable() }),
  python: z.object({ interpreter: z.string().nullable(), source: z.string().nullable() }),
  workers: z.array(z.object({ name: z.string(), pid: z.number().int(), running: z.boolean() })),
  sandboxes: z.array(z.string()),
  undo_tokens: z.number().int(),
  interrupted_apply: z.boolean(),
  cache: z.object({ snapshots: z.number().int(), facts_files: z.number().int(), facts_bytes: z.number().int() }),
  stale_branches: z.array(z.string()).describe('tug/ branches HEAD has moved on from (neither contains the other): check-merge, then replay them.'),
});

export const sessionStatusOperation = defineOperation({
  name: 'session status',
  tool: 'tug_session_status',
  summary: "Show tug's session: lock holder, workers, sandboxes, undo points.",
  lockFree: true,
  description: "Show tug's session for this repository: directory, lock holder, Python, workers, sandboxes, undo points and cache size.",
  input: z.object({ ...CommonFields }),
  output: SessionStatus,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async execute(input) {
    const { sessionStatus } = await import('./status.js');
    return SessionStatus.parse(await sessionStatus(input));
  },
});

const CleanResult = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  removed: z.object({
    workers: z.array(z.string()),
    cache: z.boolean(),
    sandboxes: z.array(z.string()),
    snapshot_refs: z.number().int(),
    undo_points: z.number().int(),
    interrupted_apply: z
      .string()
      .nullable()
      .optional()
      .describe('An interrupted apply that could not be finished safely was dropped; its journal and tug\'s intended content are kept in this directory.'),
    skipped: z
      .array(z.object({ path: z.string(), reason: z.string() }))
      .optional()
      .describe('Only when the session dir cannot be written: what clean had to leave, and why.'),
  }),
});

export const cleanOperation = defineOperation({
  name: 'clean',
  tool: 'tug_clean',
  summary: "Remove tug's sandboxes, caches, workers or undo points.",
  description:
    "Remove tug's sandboxes, caches and worker processes (all three when no part is named). Undo points stay unless `undo` is set.",
  input: z.object({
    ...CommonFields,
    workers: z.boolean().optional().describe('Stop worker processes and remove their pid files.'),
    cache: z.boolean().optional().describe('Delete the facts and snapshot caches.'),
    sandboxes: z.boolean().optional().describe("Remove tug's sandbox checkouts (and prune worktrees older versions left)."),
    undo: z.boolean().optional().describe('Also delete undo points (refs/tug/undo) and pinned snapshots (refs/tug/snapshots).'),
  }),
  output: CleanResult,
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async execute(input) {
    const { clean } = await import('./status.js');
    return CleanResult.parse(await clean(input));
  },
});
