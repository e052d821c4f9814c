// Warm rust-analyzers, one per Cargo workspace and session, kept in step with the snapshot through the analysis worktree.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { changedPaths } from '../git/snapshot.js';
import { openAnalysisTree } from '../git/worktree.js';
import type { Repo } from '../git/repo.js';
import { countWarm, onRelease, trackHelper } from '../ops/resources.js';
import { acquireLock } from '../session/lock.js';
import { RustAnalyzer } from './lsp-client.js';
import { stdSourcesFor } from './std-sources.js';

export interface ServerRequest {
  repo: Repo;
  session: { dir: string; paths: { workers: string } };
  /** The snapshot commit to analyse. */
  commit: string;
  /** Repo-relative directory of the Cargo workspace ('' for the repository root). */
  cargoRoot: string;
  binary: string;
  /** Fail at once instead of waiting for another tug's use of the analysis worktree. */
  noWait?: boolean | undefined;
}

interface Warm {
  server: RustAnalyzer;
  commit: string;
}

const servers = new Map<string, Warm>();
let started = 0;

/** What a rename or an analysis learned about the warm state, for timing reports and tests. */
export interface ServerUse {
  cold: boolean;
  synced_files: number;
}

/**
 * Runs `body` with a rust-analyzer whose view equals `commit`. Calls of one session are serialized by a lock in the
 * session dir (queued in this process, a lock file across processes), because they share one analysis worktree;
 * sessions of other repositories (the daemon serves many) go on at the same time, and `--no-wait` never queues.
 */
export function withRustAnalyzer<T>(request: ServerRequest, body: (server: RustAnalyzer, root: string, use: ServerUse) => Promise<T>): Promise<T> {
  return locked(request, body);
}

function locked<T>(request: ServerRequest, body: (server: RustAnalyzer, root: string, use: ServerUse) => Promise<T>): Promise<T> {
  return withAnalysisTree(request, async (treePath) => {
    const root = path.join(treePath, request.cargoRoot);
    const key = `${request.session.dir}\0${request.cargoRoot}\0${request.binary}`;
    let warm = servers.get(key);
    const use: ServerUse = { cold: false, synced_files: 0 };
    if (warm && !warm.server.alive) warm = undefined;
    if (warm && warm.commit !== request.commit) {
      const changed = (await changedPaths(request.repo, warm.commit, request.commit)).filter((p) => inside(p, request.cargoRoot));
      if (changed.some(reshapesWorkspace)) {
        await warm.server.shutdown();
        warm = undefined;
      } else {
        const rustFiles = changed.filter((p) => p.endsWith('.rs'));
        await warm.server.syncFiles(
          await Promise.all(rustFiles.map(async (p) => ({ path: path.join(treePath, p), text: await readFile(path.join(treePath, p), 'utf8').catch(() => null) }))),
        );
        use.synced_files = rustFiles.length;
        warm.commit = request.commit;
      }
    }
    if (!warm) {
      servers.delete(key);
      const server = await RustAnalyzer.start({
        binary: request.binary,
        root,
        sysrootSrc: await stdSourcesFor(request.binary),
        pidFile: path.join(request.session.paths.workers, `rust-analyzer-${process.pid}-${started++}.pid`),
      });
      warm = { server, commit: request.commit };
      servers.set(key, warm);
      // A daemon keeps at most a few of these and ends the least recently used first (lib/daemon/budget.ts).
      trackHelper({ kind: 'rust_analyzer', scope: request.session.paths.workers, alive: () => server.alive, stop: () => server.shutdown() });
      onRelease(shutdownRustAnalyzers);
      countWarm('rust_analyzers', warmServerCount);
      use.cold = true;
    }
    try {
      return await body(warm.server, root, use);
    } finally {
      // A server that died or hung during the request is not reused; the next call starts a fresh one.
      if (!warm.server.alive) servers.delete(key);
    }
  });
}

/**
 * Runs `body` on the analysis worktree moved to `commit`, under the same lock as rust-analyzer's requests, without
 * starting a server: organize-imports asks `cargo check` there. A warm server catches up on its next request.
 */
export async function withAnalysisTree<T>(request: Pick<ServerRequest, 'repo' | 'session' | 'commit' | 'noWait'>, body: (tree: string) => Promise<T>): Promise<T> {
  const lockDir = path.join(request.session.dir, 'rust');
  await mkdir(lockDir, { recursive: true });
  const lock = await acquireLock(lockDir, { waitMs: request.noWait ? 0 : Number(process.env['TUG_LOCK_TIMEOUT_MS'] ?? 30_000) });
  try {
    const tree = await openAnalysisTree(request.repo, request.session.dir, request.commit);
    if (tree.previous === null) await dropSession(request.session.dir);
    return await body(tree.path);
  } finally {
    await lock.release();
  }
}

/** Cargo manifests, lock files, build scripts and cargo config change the crate graph: a restart is simpler and safe. */
function reshapesWorkspace(file: string): boolean {
  const base = path.posix.basename(file);
  return base === 'Cargo.toml' || base === 'Cargo.lock' || base === 'build.rs' || file.includes('.cargo/');
}

function inside(file: string, dir: string): boolean {
  return dir === '' || file === dir || file.startsWith(`${dir}/`);
}

async function dropSession(sessionDir: string): Promise<void> {
  for (const [key, warm] of servers) {
    if (!key.startsWith(`${sessionDir}\0`)) continue;
    servers.delete(key);
    await warm.server.shutdown();
  }
}

/** How many servers this process keeps warm (session status, daemon status). */
export function warmServerCount(): number {
  return [...servers.values()].filter((w) => w.server.alive).length;
}

export async function shutdownRustAnalyzers(): Promise<void> {
  const all = [...servers.values()];
  servers.clear();
  await Promise.all(all.map((w) => w.server.shutdown()));
}
