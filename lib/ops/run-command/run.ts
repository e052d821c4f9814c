// run_command: a shell command in a throwaway checkout of the snapshot (or a ref) with its own git dir, confined where the machine allows, logged afterwards.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../../core/errors.js';
import { SCHEMA_VERSION, type WarningJSON } from '../../core/schemas.js';
import { treeOf } from '../../git/refs.js';
import { resolveCommit } from '../../git/repo.js';
import { openThrowawayCheckout, removeThrowawayCheckout } from '../../git/checkout.js';
import { availableConfinement } from '../../verify/isolation.js';
import { runShellCommand } from '../../verify/run-command.js';
import { callerEnvironment, sandboxEnv } from '../../verify/sandbox-env.js';
import { configFor } from '../workspace/config.js';
import { resolveDir, workspacePath } from '../files/reads.js';
import { appendLog, loggedArguments } from '../change/op-log.js';
import type { runCommandInput } from './schema.js';
import { snapshotCommit, takeSnapshot } from '../workspace/snapshot.js';
import { withWorkspace } from '../workspace/workspace.js';
import type { z } from 'zod';

export const DEFAULT_COMMAND_TIMEOUT_S = 120;

export async function runCommandTool(input: z.infer<typeof runCommandInput>) {
  // The lock covers only setting up the checkout: a fresh one per command, so a long test run blocks no edits.
  const prepared = await withWorkspace(input, { lock: true }, async (ws) => {
    const snapshot = await takeSnapshot(ws);
    let commit: string;
    let tree = snapshot.tree;
    if (input.ref !== undefined) {
      const resolved = /^-/.test(input.ref) ? null : await resolveCommit(ws.repo, input.ref);
      if (!resolved) throw new TugError('InvalidArgument', `ref ${JSON.stringify(input.ref)} does not name a commit`, { details: { argument: 'ref', reason: 'unknown ref' } });
      commit = resolved;
      tree = await treeOf(ws.repo, resolved);
    } else commit = await snapshotCommit(ws, snapshot);
    const dir = await resolveDir(ws.repo, input.cwd, 'cwd');
    const config = await configFor(ws.repo, {}, ws.warnings);
    const sandbox = await openThrowawayCheckout(ws.repo, commit);
    return { ws, tree, dir, config, sandbox };
  });
  const { ws, tree, dir, config, sandbox } = prepared;
  let result;
  try {
    const cwd = path.join(sandbox.path, dir);
    if (!(await stat(cwd).then((s) => s.isDirectory(), () => false))) {
      throw new TugError('FileNotFound', `cwd ${input.cwd} is not a directory of the workspace`, { details: { path: input.cwd } });
    }
    const timeout = input.timeout ?? DEFAULT_COMMAND_TIMEOUT_S;
    const confinement = await availableConfinement();
    const readOnly = [...new Set([ws.repo.root, ws.repo.commonDir])];
    result = await runShellCommand({ command: input.command, cwd, env: sandboxEnv(callerEnvironment(), config.allow_env).env, timeoutMs: timeout * 1000, confinement, readOnly });
    result = { ...result, ...(result.timed_out ? { error: `timed out after ${timeout}s; every process the command started was killed` } : result.exit_code !== 0 ? { error: `command exited with code ${result.exit_code}` } : {}) };
  } finally {
    await removeThrowawayCheckout(sandbox);
  }
  await withWorkspace(input, { lock: true }, (locked) =>
    appendLog(locked.session, {
      operation: 'run-command',
      tool: 'run_command',
      arguments: loggedArguments(input as Record<string, unknown>),
      snapshot_id: tree,
      branch: null,
      commit: null,
      parent: null,
      verification: null,
      applied: false,
      files: [],
      undo_token: null,
      exit_code: result.exit_code,
    }),
  );
  return {
    status: 'ok' as const,
    schema_version: SCHEMA_VERSION,
    snapshot_id: tree,
    command: input.command,
    cwd: workspacePath(ws.repo, dir) || '.',
    exit_code: result.exit_code,
    stdout: result.stdout,
    stderr: result.stderr,
    timed_out: result.timed_out,
    truncated: result.truncated,
    isolation: result.isolation,
    ...('error' in result && result.error ? { error: result.error } : {}),
    ...(ws.warnings.length > 0 || weakConfinement(result.isolation) ? { warnings: [...ws.warnings, ...[weakConfinement(result.isolation)].filter((w) => w !== undefined)] } : {}),
  };
}

/**
 * A weaker sandbox is never silent: without bubblewrap the command could write the user's repository and reach the
 * network, and the caller (often an agent) should know that before trusting "it ran in a sandbox".
 */
function weakConfinement(isolation: { confinement: string; repository_read_only: boolean; network: boolean }): WarningJSON | undefined {
  const open = [...(isolation.repository_read_only ? [] : ['the repository was writable']), ...(isolation.network ? ['the network was on'] : [])];
  if (open.length === 0) return undefined;
  return {
    code: 'WeakConfinement',
    message: `run_command ran with confinement ${isolation.confinement}, not bubblewrap: ${open.join(' and ')}; install bubblewrap (Debian: apt-get install bubblewrap) to confine it`,
    details: { confinement: isolation.confinement, repository_read_only: isolation.repository_read_only, network: isolation.network, not_confined: open },
  };
}
