// The fields and response of run_command, shared by its registry entry and its run.
import { z } from 'zod';
import { IsolationSchema, Oid, SCHEMA_VERSION, Warning } from '../../core/schemas.js';
import { CommonFields } from '../operation.js';

export const runCommandInput = z
  .object({
    ...CommonFields,
    command: z.string().min(1).describe('Shell command to execute (run with sh -c).'),
    cwd: z.string().optional().describe('Working directory (relative to the workspace, default: the workspace).'),
    timeout: z.number().int().positive().max(3600).optional().describe('Timeout in seconds (default 120); every process the command started is killed.'),
    ref: z.string().optional().describe('Run in a checkout of this branch or commit instead of the current snapshot (e.g. an onto branch).'),
  })
  .strict();

export const RunCommandResponse = z.object({
  status: z.literal('ok'),
  schema_version: z.literal(SCHEMA_VERSION),
  snapshot_id: Oid,
  command: z.string(),
  cwd: z.string(),
  exit_code: z.number().int(),
  stdout: z.string(),
  stderr: z.string(),
  timed_out: z.boolean(),
  truncated: z.boolean(),
  isolation: IsolationSchema.describe('How the command was isolated: its own git dir always; bwrap adds a read-only repository and no network.'),
  error: z.string().optional().describe('Present when the command failed or timed out, so "no error and exit_code 0" means success.'),
  warnings: z
    .array(Warning)
    .optional()
    .describe("Settings of the repository's files that were ignored because it is not trusted (`tug trust`), and WeakConfinement when bubblewrap did not confine the command (writable repository, network on)."),
});
