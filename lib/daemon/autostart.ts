// Starting the user's daemon unasked, after a command that loaded a Python or Rust project, so the next call is warm.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { findCommonDir } from './address.js';
import type { AnalysisTarget } from '../cli/io.js';
import { forwardable } from './client.js';

/** Every refactor's own command and its other name (tests/daemon.test.ts holds this to the registry's shorthands). */
export const REFACTOR_SHORTHANDS = ['move', 'move-symbol', 'change-signature', 'extract-variable', 'extract-function', 'inline', 'organize-imports', 'assist'];

/** Commands that load a whole project (facts, rust-analyzer): what a resident process makes faster. */
const PROJECT_COMMANDS = new Set(['analyze-impact', 'run', 'rename', ...REFACTOR_SHORTHANDS]);

/**
 * Whether to start one after a command that ran in this process (so no daemon served it): not when asked not to
 * (`TUG_DAEMON_AUTOSTART=0`, `TUG_NO_DAEMON=1`), not in CI unless asked (`TUG_DAEMON_AUTOSTART=1`), not for a usage
 * error, and not outside a repository. Returns the repository's git dir.
 */
export function autoStartWanted(argv: readonly string[], exitCode: number, cwd: string, env: NodeJS.ProcessEnv): string | null {
  const setting = env['TUG_DAEMON_AUTOSTART'];
  if (setting === '0' || env['TUG_NO_DAEMON'] === '1' || (env['CI'] && setting !== '1')) return null;
  const command = argv.find((a) => !a.startsWith('-'));
  if (command === undefined || !PROJECT_COMMANDS.has(command) || exitCode === 2 || !forwardable(argv)) return null;
  try {
    return findCommonDir(cwd);
  } catch {
    return null;
  }
}

/** The launcher to run the daemon with (bin/tug; this file's depth is the same in dist/lib/daemon and the bundle). */
const TUG_BIN = fileURLToPath(new URL('../../../bin/tug', import.meta.url));

/**
 * `tug daemon run` with these arguments, detached, with this process's environment, in the home directory (it serves
 * every repository and must not keep one's directory busy): what `tug daemon start` and a start on its own both run.
 * `--expose-gc` lets it return memory at once when it drops its caches to stay in budget.
 */
export function spawnDaemon(args: readonly string[]): void {
  const child = spawn(process.execPath, ['--expose-gc', TUG_BIN, 'daemon', 'run', ...args], { detached: true, stdio: 'ignore', env: process.env, cwd: os.homedir() });
  child.on('error', () => undefined);
  child.unref();
}

/** Starts the daemon told the command's rename target, so it loads that project before the next call comes. */
export function autoStartDaemon(workspace: string, target: AnalysisTarget | undefined, stderrIsTTY: boolean, writeErr: (text: string) => void): void {
  spawnDaemon(target ? [`--warm-up=${JSON.stringify({ ...target, workspace })}`] : []);
  if (stderrIsTTY) {
    writeErr(
      'tug: started a resident tug so the next calls are fast (one per user, for all repositories; it stops when idle; ' +
        '`tug daemon stop` ends it, TUG_DAEMON_AUTOSTART=0 turns this off)\n',
    );
  }
}
