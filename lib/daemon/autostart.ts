// Starting the repository's daemon unasked, after a command that loaded a Python or Rust project, so the next call is warm.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findCommonDir, socketPathFor } from './address.js';
import type { AnalysisTarget } from '../cli/io.js';
import { forwardable } from './client.js';

/** Commands that load a whole project (facts, rust-analyzer): what a resident process makes faster. */
const PROJECT_COMMANDS = new Set(['analyze-impact', 'run', 'rename']);

/** An auto-started daemon ends sooner than one started by `tug daemon start`. */
export const AUTO_IDLE_SECONDS = 600;

/**
 * Whether to start one: not when asked not to (`TUG_DAEMON_AUTOSTART=0`, `TUG_NO_DAEMON=1`), not in CI unless asked
 * (`TUG_DAEMON_AUTOSTART=1`), not for a usage error, and not when the repository's socket exists (a daemon runs,
 * perhaps for callers with another environment, and must keep it).
 */
export function autoStartWanted(argv: readonly string[], exitCode: number, cwd: string, env: NodeJS.ProcessEnv): string | null {
  const setting = env['TUG_DAEMON_AUTOSTART'];
  if (setting === '0' || env['TUG_NO_DAEMON'] === '1' || (env['CI'] && setting !== '1')) return null;
  const command = argv.find((a) => !a.startsWith('-'));
  if (command === undefined || !PROJECT_COMMANDS.has(command) || exitCode === 2 || !forwardable(argv)) return null;
  try {
    const common = findCommonDir(cwd);
    if (!common || existsSync(socketPathFor(common))) return null;
    return common;
  } catch {
    return null;
  }
}

/** The launcher to run the daemon with (bin/tug; this file's depth is the same in dist/lib/daemon and the bundle). */
const TUG_BIN = fileURLToPath(new URL('../../../bin/tug', import.meta.url));

/**
 * `tug daemon run` with these arguments, detached, with this process's environment (so it serves this caller's later
 * commands): what `tug daemon start` and a start on its own both run.
 */
export function spawnDaemon(args: readonly string[]): void {
  const child = spawn(process.execPath, [TUG_BIN, 'daemon', 'run', ...args], { detached: true, stdio: 'ignore', env: process.env });
  child.on('error', () => undefined);
  child.unref();
}

/** Starts the daemon told the command's rename target, so it loads that project before the next call comes. */
export function autoStartDaemon(target: AnalysisTarget | undefined, stderrIsTTY: boolean, writeErr: (text: string) => void): void {
  spawnDaemon(['--idle-seconds', String(AUTO_IDLE_SECONDS), ...(target ? [`--warm-up=${JSON.stringify(target)}`] : [])]);
  if (stderrIsTTY) {
    writeErr(
      `tug: started a resident tug for this repository so the next calls are fast (it stops after ${AUTO_IDLE_SECONDS / 60} idle minutes; ` +
        '`tug daemon stop` ends it, TUG_DAEMON_AUTOSTART=0 turns this off)\n',
    );
  }
}
