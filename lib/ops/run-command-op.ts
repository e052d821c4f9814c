// `run_command` (seed `run_pty_cmd`): run a shell command in a sandbox worktree of the snapshot; stdout, stderr, exit_code back.
import { z } from 'zod';
import { Oid, SCHEMA_VERSION } from '../core/schemas.js';
import { CommonFields, defineOperation } from './operation.js';

export const runCommandInput = z
  .object({
    ...CommonFields,
    command: z.string().min(1).describe('Shell command to execute (run with sh -c).'),
    cwd: z.string().optional().describe('Working directory (relative to the workspace, default: the workspace).'),
    timeout: z.number().int().positive().max(3600).optional().describe('Timeout in seconds (default 120); the whole process group is killed.'),
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
  error: z.string().optional().describe('Present when the command failed or timed out, so "no error and exit_code 0" means success.'),
});

export const runCommandOperation = defineOperation({
  name: 'run-command',
  tool: 'tug_run_command',
  agentName: 'run_command',
  description:
    "Execute a shell command in a sandbox worktree of the current snapshot (never in the user's files; changes it makes are discarded). Returns stdout, stderr and exit_code; a non-zero exit or timeout also sets error. Secret-looking environment variables (*_TOKEN, *_KEY, *_SECRET, AWS_*, OPENAI_*, ANTHROPIC_*, GOOGLE_*) are not passed on unless tug.toml [run_command] allow_env lists them. Ignored files (node_modules, .venv) are not in the sandbox.",
  input: runCommandInput,
  output: RunCommandResponse,
  // Not read-only: the sandbox keeps relative paths away from the user's files, but it is not a jail.
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  async execute(input) {
    const { runCommandTool } = await import('./run-command.js');
    return RunCommandResponse.parse(await runCommandTool(input));
  },
});
