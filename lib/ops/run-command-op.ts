// `run_command` (seed `run_pty_cmd`): run a shell command in a sandbox worktree of the snapshot; stdout, stderr, exit_code back.
import { z } from 'zod';
import { Oid, SCHEMA_VERSION, Warning } from '../core/schemas.js';
import { CommonFields, defineOperation } from './operation.js';

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
  isolation: z
    .object({
      checkout: z.literal('separate-git-dir'),
      confinement: z.enum(['bwrap', 'unshare', 'none']),
      repository_read_only: z.boolean(),
      network: z.boolean(),
      process_tree: z.enum(['pid-namespace', 'process-walk']),
    })
    .describe('How the command was isolated: its own git dir always; bwrap adds a read-only repository and no network.'),
  error: z.string().optional().describe('Present when the command failed or timed out, so "no error and exit_code 0" means success.'),
  warnings: z.array(Warning).optional().describe("Settings of the repository's files that were ignored because it is not trusted (`tug trust`)."),
});

export const runCommandOperation = defineOperation({
  name: 'run-command',
  tool: 'tug_run_command',
  agentName: 'run_command',
  description:
    "Execute a shell command in a throwaway checkout of the current snapshot with its own git directory (never in the user's files or refs; changes it makes are discarded). Where bubblewrap works, the user's repository is read-only and there is no network; `isolation` says what applied. Returns stdout, stderr and exit_code; a non-zero exit or timeout also sets error. The environment is an allowlist (PATH, HOME, LANG, LC_*, TERM, TMPDIR, USER, SHELL, PYTHON*, VIRTUAL_ENV, CONDA_PREFIX, CARGO_*, RUSTUP_*); other variables reach the command only when [run_command] allow_env in the user's config lists them. Ignored files (node_modules, .venv) are not in the sandbox.",
  input: runCommandInput,
  output: RunCommandResponse,
  // Not read-only: the sandbox keeps relative paths away from the user's files, but it is not a jail.
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  async execute(input) {
    const { runCommandTool } = await import('./run-command.js');
    return RunCommandResponse.parse(await runCommandTool(input));
  },
});
