// `run_command` (seed `run_pty_cmd`): run a shell command in a throwaway checkout of the snapshot; stdout, stderr, exit_code back.
import { defineOperation } from '../operation.js';
import { runCommandInput, RunCommandResponse } from './schema.js';

export const runCommandOperation = defineOperation({
  name: 'run-command',
  tool: 'tug_run_command',
  summary: "Run a shell command in a throwaway checkout of the snapshot (never the user's files); returns stdout, stderr, exit_code.",
  agentName: 'run_command',
  description:
    "Execute a shell command in a throwaway checkout of the current snapshot with its own git directory (never in the user's files or refs; changes it makes are discarded). Where bubblewrap works, the user's repository is read-only and there is no network; `isolation` says what applied. Returns stdout, stderr and exit_code; a non-zero exit or timeout also sets error. The environment is an allowlist (PATH, HOME, LANG, LC_*, TERM, TMPDIR, USER, SHELL, PYTHON*, VIRTUAL_ENV, CONDA_PREFIX, CARGO_*, RUSTUP_*); other variables reach the command only when [run_command] allow_env in the user's config lists them. Ignored files (node_modules, .venv) are not in the sandbox.",
  input: runCommandInput,
  output: RunCommandResponse,
  // Not read-only: the sandbox keeps relative paths away from the user's files, but it is not a jail.
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  async execute(input) {
    const { runCommandTool } = await import('./run.js');
    return RunCommandResponse.parse(await runCommandTool(input));
  },
});
