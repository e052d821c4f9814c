// `tug daemon run`: the one resident tug of a user, serving every repository's commands at once with everything loaded.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { chmod, rm } from 'node:fs/promises';
import net from 'node:net';
import type { CliIO } from '../cli/io.js';
import { keepInMemory } from '../core/memory.js';
import { liveHelpers, releaseResources, warmHelpers } from '../ops/resources.js';
import { withCallerEnvironment } from '../verify/sandbox-env.js';
import { buildId, envKey, findCommonDir, socketPath } from './address.js';
import { controlDaemon } from './client.js';
import { enforceLimits, helperRepo, measure, residentBytes, type RepoUse } from './budget.js';
import type { DaemonSettings } from './settings.js';

const CHECK_MS = 5_000;

export interface DaemonOptions {
  settings: DaemonSettings;
  run: (argv: readonly string[], io: CliIO) => Promise<number>;
  /** Started as soon as the daemon listens, alongside the callers' commands. */
  warmUp?: () => Promise<void>;
}

interface Request {
  argv: string[];
  cwd: string;
  /** See envKey: the client's values of what the daemon reads from its own environment. */
  env?: string;
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
  const { settings } = options;
  const socket = socketPath(process.env, true);
  const key = envKey(process.env);
  const build = buildId();
  const started = Date.now();
  const repos = new Map<string, RepoUse>();
  let served = 0;
  let active = 0;
  let leaving = false;
  let idle: NodeJS.Timeout | undefined;
  let limits: Promise<unknown> = Promise.resolve();
  const server = net.createServer((connection) => {
    let buffer = '';
    connection.on('error', () => undefined);
    // One request per connection: its first line.
    connection.on('data', function first(chunk) {
      buffer += chunk.toString('utf8');
      const newline = buffer.indexOf('\n');
      if (newline === -1) return;
      connection.off('data', first);
      let request: Request;
      try {
        request = JSON.parse(buffer.slice(0, newline)) as Request;
      } catch {
        connection.destroy();
        return;
      }
      const send = (message: object) => connection.write(`${JSON.stringify(message)}\n`);
      if (request.control === 'status') {
        send({ status: status() });
        connection.end();
        return;
      }
      if (request.control === 'stop') {
        send({ stopping: true });
        connection.end();
        void shutdown();
        return;
      }
      // Another build or environment: the caller runs in-process, and this daemon makes way for one started with it.
      if (leaving || request.build !== build || request.env !== key) {
        send({ fallback: true });
        connection.end();
        void leave();
        return;
      }
      // From here the command is the daemon's: a client that loses the connection must not run it again (client.ts).
      send({ accepted: true });
      void serve(request, send).finally(() => connection.end());
    });
  });

  // Requests run side by side: reads never wait behind a write; writes to one repository wait on its lock, as in-process.
  const serve = async (request: Request, send: (message: object) => void) => {
    const repo = repoOf(request.cwd);
    const use = repo ? (repos.get(repo) ?? { lastUsed: 0, requests: 0, active: 0 }) : undefined;
    if (repo && use) repos.set(repo, use);
    active += 1;
    if (use) (use.active += 1), (use.lastUsed = Date.now());
    clearTimeout(idle);
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
    active -= 1;
    if (use) (use.active -= 1), (use.requests += 1), (use.lastUsed = Date.now());
    send({ exit: code });
    settle();
  };

  /** With nothing running: the limits are applied, and the idle clock starts (or a leaving daemon exits). */
  const settle = () => {
    if (active > 0) return;
    if (leaving) return void shutdown();
    limits = limits.then(() => (active === 0 ? enforceLimits(repos, settings) : [])).catch(() => undefined);
    clearTimeout(idle);
    idle = setTimeout(() => void shutdown(), settings.idleMs);
  };

  const status = () => {
    const helpers = liveHelpers().map((h) => ({ h, repo: helperRepo(h) }));
    const now = Date.now();
    const repositories = [...repos].sort(([a], [b]) => (a < b ? -1 : 1)).map(([dir, use]) => ({
      git_dir: dir,
      requests: use.requests,
      in_flight: use.active,
      idle_seconds: Math.round((now - use.lastUsed) / 1000),
      python_workers: helpers.filter(({ h, repo }) => repo === dir && h.kind === 'python_worker').length,
      python_workers_bytes: helpers.reduce((sum, { h, repo }) => sum + (repo === dir && h.kind === 'python_worker' && h.pid ? residentBytes(h.pid) : 0), 0),
      rust_analyzers: helpers.filter(({ h, repo }) => repo === dir && h.kind === 'rust_analyzer').length,
      typescript_projects: helpers.filter(({ h, repo }) => repo === dir && h.kind === 'typescript_project').length,
    }));
    const memory = measure(settings);
    return {
      pid: process.pid,
      uptime_seconds: Math.round((now - started) / 1000),
      idle_seconds: settings.idleMs / 1000,
      requests: served,
      in_flight: active,
      socket,
      warm: warmHelpers(),
      memory: { ...memory, rust_analyzers_allowed: settings.rustAnalyzers, typescript_projects_allowed: settings.typescriptProjects, worker_pids: helpers.flatMap(({ h }) => (h.pid ? [h.pid] : [])).sort((a, b) => a - b) },
      repositories,
    };
  };

  /** Stops listening at once (the path is free for a new daemon) and exits when the running requests end. */
  const leave = async () => {
    if (leaving) return;
    leaving = true;
    if (owned()) server.close();
    if (active === 0) await shutdown();
  };

  /**
   * Ends every helper it started, then removes its socket when it is still its own, and exits: `tug daemon stop`
   * waits until nothing answers, so by then no helper is left.
   */
  const shutdown = async () => {
    clearTimeout(idle);
    await releaseResources();
    if (owned()) {
      server.close();
      await rm(socket, { force: true });
    }
    process.exit(0);
  };

  // Two daemons started at once (two commands starting one on their own): the kernel lets one bind the socket, the
  // other finds it answering and leaves. A socket file nobody answers on is a killed daemon's, removed before a retry.
  let ours = 0;
  const owned = () => ours !== 0 && statSync(socket, { throwIfNoEntry: false })?.ino === ours;
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
    if (await controlDaemon('status')) process.exit(0);
    await rm(socket, { force: true });
    await listen().catch((again: NodeJS.ErrnoException) => {
      if (again.code === 'EADDRINUSE') process.exit(0);
      throw again;
    });
  }
  await chmod(socket, 0o600);
  // Beside the requests: a command that needs nothing of the warm-up (a snapshot) must not wait for it.
  if (options.warmUp) {
    active += 1;
    void options
      .warmUp()
      .catch(() => undefined)
      .finally(() => {
        active -= 1;
        settle();
      });
  }
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  settle();
  // A socket removed or taken over by someone else: nobody reaches this daemon any more. Deleted repositories are forgotten.
  setInterval(() => {
    if (leaving) return;
    if (!owned()) return void shutdown();
    for (const repo of repos.keys()) if (!existsSync(repo)) repos.delete(repo);
    if (active === 0) limits = limits.then(() => enforceLimits(repos, settings)).catch(() => undefined);
  }, CHECK_MS).unref();
}

function repoOf(cwd: string): string | null {
  try {
    const common = findCommonDir(cwd);
    return common ? realpathSync(common) : null;
  } catch {
    return null;
  }
}
