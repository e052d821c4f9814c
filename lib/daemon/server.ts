// `tug daemon run`: a resident process per repository that runs CLI commands with everything already loaded and warm.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { chmod, rm, writeFile, mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { CliIO } from '../cli/io.js';
import { buildId, envFingerprint, socketPathFor } from './address.js';
import { ensurePrivateRootSync } from '../workspace/private-dir.js';
import { keepInMemory } from '../core/memory.js';
import { warmHelpers } from '../ops/resources.js';
import { withCallerEnvironment } from '../verify/sandbox-env.js';

const ORPHAN_CHECK_MS = 5_000;

export interface DaemonOptions {
  commonDir: string;
  pidFile: string;
  idleMs: number;
  run: (argv: readonly string[], io: CliIO) => Promise<number>;
  /** Started as soon as the daemon listens, alongside the callers' commands. */
  warmUp?: () => Promise<void>;
}

interface Request {
  argv: string[];
  cwd: string;
  env: string;
  /** The client's whole environment: commands run for this request see it, never the daemon's. */
  environment?: Record<string, string>;
  build?: string;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  columns?: number;
  control?: 'status' | 'stop';
}

export async function serveDaemon(options: DaemonOptions): Promise<void> {
  keepInMemory();
  ensurePrivateRootSync();
  const socket = socketPathFor(options.commonDir);
  const fingerprint = envFingerprint(process.env);
  const build = buildId();
  const started = Date.now();
  let served = 0;
  let queue: Promise<unknown> = Promise.resolve();
  let idle: NodeJS.Timeout;
  const server = net.createServer((connection) => {
    let buffer = '';
    connection.on('error', () => undefined);
    connection.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      const newline = buffer.indexOf('\n');
      if (newline === -1) return;
      const request = JSON.parse(buffer.slice(0, newline)) as Request;
      const send = (message: object) => connection.write(`${JSON.stringify(message)}\n`);
      if (request.control === 'status') {
        const uptime = Math.round((Date.now() - started) / 1000);
        send({ status: { pid: process.pid, uptime_seconds: uptime, idle_seconds: options.idleMs / 1000, requests: served, socket, warm: warmHelpers() } });
        connection.end();
        return;
      }
      if (request.control === 'stop') {
        send({ stopping: true });
        connection.end();
        void shutdown();
        return;
      }
      // Another environment runs in-process; another build also means this daemon is stale, so it leaves.
      if (request.build !== build || request.env !== fingerprint) {
        send({ fallback: true });
        connection.end();
        if (request.build !== build) void shutdown();
        return;
      }
      resetIdle();
      // One command at a time: commands share this process's state (and the session lock would serialise them anyway).
      queue = queue.then(async () => {
        const io: CliIO = {
          cwd: request.cwd,
          out: (text) => send({ out: text }),
          err: (text) => send({ err: text }),
          stdoutIsTTY: request.stdoutIsTTY,
          stderrIsTTY: request.stderrIsTTY,
          columns: request.columns,
          longLived: true,
        };
        const code = await withCallerEnvironment(request.environment ?? {}, () => options.run(request.argv, io)).catch(() => 10);
        served += 1;
        send({ exit: code });
        connection.end();
      });
    });
  });
  /**
   * Leaves the socket and pid file alone when they are no longer its own (another daemon took over); not even closing
   * the server then, since closing a Unix socket server unlinks its path, which now names the other daemon's socket.
   */
  const shutdown = async (owned = true) => {
    clearTimeout(idle);
    if (owned) {
      server.close();
      await rm(socket, { force: true });
      await rm(options.pidFile, { force: true });
    }
    process.exit(0);
  };
  const resetIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => void shutdown(), options.idleMs);
  };
  // Two callers can start a daemon at once (`tug daemon start`, or two commands starting one on their own). Binding
  // the socket decides: the kernel lets one bind, the other finds a daemon answering and leaves. A socket file nobody
  // answers on is a crashed daemon's, removed before a second try.
  let ours = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const failed = (error: Error) => {
        server.off('listening', listening);
        reject(error);
      };
      const listening = () => {
        server.off('error', failed);
        ours = statSync(socket).ino;
        resolve();
      };
      server.once('error', failed);
      server.once('listening', listening);
      server.listen(socket);
    });
  try {
    await listen();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (await controlDaemon(options.commonDir, 'status')) process.exit(0);
    await rm(socket, { force: true });
    await listen().catch((again: NodeJS.ErrnoException) => {
      if (again.code === 'EADDRINUSE') process.exit(0);
      throw again;
    });
  }
  // Beside the queue, not in it: a command that needs nothing of the warm-up (a snapshot, a patchset) must not wait
  // for rust-analyzer to index; one that does shares the load in progress (the project memo, the server's own queue).
  if (options.warmUp) void options.warmUp().catch(() => undefined);
  await chmod(socket, 0o600);
  await mkdir(path.dirname(options.pidFile), { recursive: true });
  await writeFile(options.pidFile, `${process.pid}\n`);
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  resetIdle();
  // A repository deleted under it (a temporary clone) or a socket removed by someone else: nobody can reach it any more.
  setInterval(() => {
    if (statSync(socket, { throwIfNoEntry: false })?.ino !== ours) void shutdown(false);
    else if (!existsSync(options.commonDir)) void shutdown();
    else claimPidFile(options.pidFile);
  }, ORPHAN_CHECK_MS).unref();
}

/** Two daemons that raced both wrote the pid file: the one serving makes sure it names itself. Never throws. */
function claimPidFile(file: string): void {
  try {
    if (readFileSync(file, 'utf8').trim() === String(process.pid)) return;
  } catch {
    // Missing: written below.
  }
  try {
    writeFileSync(file, `${process.pid}\n`);
  } catch {
    // The session dir is gone; the repository check ends this daemon soon.
  }
}

/** Sends a control message (status, stop) to a running daemon; null when none answers. */
export async function controlDaemon(commonDir: string, control: 'status' | 'stop'): Promise<Record<string, unknown> | null> {
  const socket = socketPathFor(commonDir);
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
