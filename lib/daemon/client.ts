// The thin side of `tug daemon`: forwards a command to the user's daemon without loading the CLI, or says it could not.
import net from 'node:net';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import { privateDirProblem } from '../workspace/private-dir.js';
import { buildId, envKey, socketPath, socketProblem } from './address.js';
import { lostDaemonReport } from './lost.js';

/**
 * Arguments the daemon cannot serve: stdin input, help and version text (yargs prints those itself), long-lived and interactive commands,
 * commands run for the caller (run_command must see the caller's environment, not the daemon's), and `tug trust`, which
 * must see the caller's terminal (lib/trust/person.ts).
 */
export function forwardable(argv: readonly string[]): boolean {
  if (argv.length === 0) return false;
  const blocked = new Set(['-', '--file=-', '--args=-', 'run_command', 'run_pty_cmd', 'tug_run_command', '--help', '-h', '--version', 'mcp', 'daemon', 'completion', 'review', '--review', 'trust']);
  return !argv.some((a) => blocked.has(a) || a.startsWith('--workspace') || a === '-C' || a.startsWith('--session-dir'));
}

/** Exit code from the daemon, or null to run in this process instead (no daemon, or one that handed the command back). */
export async function tryDaemon(argv: readonly string[]): Promise<number | null> {
  if (process.env['TUG_NO_DAEMON'] === '1' || !forwardable(argv)) return null;
  const socket = socketPath();
  // Only a socket of this user in this user's private directory: anything else could be another user's listener.
  // No socket, no daemon: one lstat spares a connection attempt that can only fail.
  const problem = safeSocketProblem(socket);
  if (problem === 'it does not exist') return null;
  if (problem) {
    process.stderr.write(`tug: not using the daemon socket ${socket}: ${problem}; running here instead\n`);
    return null;
  }
  return new Promise<number | null>((resolve) => {
    const connection = net.createConnection(socket);
    let buffer = '';
    let settled = false;
    /** Set once the daemon took the command: it may have written files, so it is never run again here. */
    let accepted = false;
    const finish = (code: number | null) => {
      if (settled) return;
      settled = true;
      connection.destroy();
      resolve(code);
    };
    // A connection lost before the daemon took the command: this process runs it. After: the daemon died in the
    // middle of it (killed, out of memory), and what it left is reported instead (lost.ts).
    const lost = () => {
      if (!accepted) return finish(null);
      if (settled) return;
      settled = true;
      connection.destroy();
      const report = lostDaemonReport(argv, process.cwd(), Boolean(process.stdout.isTTY));
      if (report.out !== undefined) process.stdout.write(report.out);
      if (report.err !== undefined) process.stderr.write(report.err);
      resolve(report.exit);
    };
    connection.on('error', lost);
    connection.on('close', lost);
    connection.on('connect', () => {
      const request = {
        argv,
        cwd: process.cwd(),
        env: envKey(process.env),
        // The commands the daemon runs for this request (verification) get this environment, not the daemon's own.
        environment: process.env,
        build: buildId(),
        stdoutIsTTY: Boolean(process.stdout.isTTY),
        stderrIsTTY: Boolean(process.stderr.isTTY),
        columns: process.stdout.columns,
      };
      connection.write(`${JSON.stringify(request)}\n`);
    });
    connection.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let newline = buffer.indexOf('\n'); newline !== -1; newline = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, newline)) as { out?: string; err?: string; exit?: number; fallback?: boolean; accepted?: boolean };
        buffer = buffer.slice(newline + 1);
        if (message.fallback) return finish(null);
        if (message.accepted) accepted = true;
        if (message.out !== undefined) process.stdout.write(message.out);
        if (message.err !== undefined) process.stderr.write(message.err);
        if (message.exit !== undefined) return finish(message.exit);
      }
    });
  });
}

/** socketProblem, also when the private directory is no directory at all (lstat below a file fails with ENOTDIR). */
function safeSocketProblem(socket: string): string | null {
  try {
    return socketProblem(socket);
  } catch (error) {
    return privateDirProblem(path.dirname(socket)) ?? `it cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
}

/**
 * Sends a control message (status, stop) to the user's daemon; null when none answers. A socket that is not this
 * user's own in this user's private directory is UnsafePath: status and stop never talk to another user's listener.
 */
export async function controlDaemon(control: 'status' | 'stop', env: NodeJS.ProcessEnv = process.env): Promise<Record<string, unknown> | null> {
  const socket = socketPath(env);
  const problem = safeSocketProblem(socket);
  // No socket, or a file a killed daemon left where it was: no daemon answers there.
  if (problem === 'it does not exist' || problem === 'it is not a socket') return null;
  if (problem) {
    throw new TugError('UnsafePath', `tug does not talk to the daemon socket ${socket}: ${problem}`, {
      details: { path: socket, reason: problem, remedy: 'remove it (or its directory) if it is not your daemon, or set XDG_RUNTIME_DIR to a directory of your own' },
    });
  }
  return new Promise((resolve) => {
    const connection = net.createConnection(socket);
    let buffer = '';
    connection.on('error', () => resolve(null));
    connection.on('connect', () => connection.write(`${JSON.stringify({ control })}\n`));
    connection.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      const newline = buffer.indexOf('\n');
      if (newline !== -1) {
        resolve(JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>);
        connection.destroy();
      }
    });
    connection.on('close', () => resolve(null));
  });
}
