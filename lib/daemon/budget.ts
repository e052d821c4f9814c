// The daemon's memory, measured: resident size of itself (with its warm TypeScript projects) and its Python workers, and the evictions that keep it in budget.
import { readFileSync, realpathSync } from 'node:fs';
import { forgetRecent } from '../core/memory.js';
import { liveHelpers, type Helper } from '../ops/resources.js';
import { findCommonDir } from './address.js';
import type { DaemonSettings } from './settings.js';

/** A repository the daemon served: when last, how many requests, how many running now. */
export interface RepoUse {
  lastUsed: number;
  requests: number;
  active: number;
}

/** VmRSS of a process in bytes, from /proc; 0 when it is gone or the system has no /proc. */
export function residentBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The repository (its git common dir, real path) a helper works for, from the directory it was given. */
export function helperRepo(helper: Helper): string | null {
  const common = findCommonDir(helper.scope);
  try {
    return common ? realpathSync(common) : null;
  } catch {
    return common;
  }
}

export interface Memory {
  daemon_bytes: number;
  python_workers_bytes: number;
  /** What the budget applies to: the daemon and its Python workers. */
  total_bytes: number;
  budget_bytes: number;
  rust_analyzers: number;
  /** Warm TypeScript workspaces: inside the daemon's own memory (daemon_bytes), counted here. */
  typescript_projects: number;
}

export function measure(settings: DaemonSettings): Memory {
  const daemon = residentBytes(process.pid);
  const workers = liveHelpers()
    .filter((h) => h.kind === 'python_worker' && h.pid !== undefined)
    .reduce((sum, h) => sum + residentBytes(h.pid!), 0);
  const analyzers = liveHelpers().filter((h) => h.kind === 'rust_analyzer').length;
  const typescript = liveHelpers().filter((h) => h.kind === 'typescript_project').length;
  return { daemon_bytes: daemon, python_workers_bytes: workers, total_bytes: daemon + workers, budget_bytes: settings.memoryBytes, rust_analyzers: analyzers, typescript_projects: typescript };
}

/**
 * Ends what the limits say should go, least recently used repository first, and returns one line per eviction. Run
 * only while no request is running, so nothing in use is stopped: repositories idle too long lose their helpers;
 * rust-analyzers and TypeScript projects beyond the allowed counts go; then, while the measured memory is over budget,
 * the Python workers and TypeScript projects of the least recently used repositories, and last the in-memory caches.
 */
export async function enforceLimits(repos: Map<string, RepoUse>, settings: DaemonSettings, now = Date.now()): Promise<string[]> {
  const evicted: string[] = [];
  const lastUsed = (repo: string | null) => (repo ? (repos.get(repo)?.lastUsed ?? 0) : 0);
  const stop = async (helper: Helper, why: string) => {
    await helper.stop().catch(() => undefined);
    evicted.push(`${helper.kind} of ${helperRepo(helper) ?? helper.scope}: ${why}`);
  };
  for (const helper of liveHelpers()) {
    if (now - lastUsed(helperRepo(helper)) > settings.repositoryIdleMs) await stop(helper, 'repository idle');
  }
  for (const [repo, use] of repos) if (now - use.lastUsed > settings.repositoryIdleMs) repos.delete(repo);
  const analyzers = byRecency(liveHelpers().filter((h) => h.kind === 'rust_analyzer'), lastUsed);
  for (const helper of analyzers.slice(settings.rustAnalyzers)) await stop(helper, `more than ${settings.rustAnalyzers} rust-analyzers`);
  const typescript = byRecency(liveHelpers().filter((h) => h.kind === 'typescript_project'), lastUsed);
  for (const helper of typescript.slice(settings.typescriptProjects)) await stop(helper, `more than ${settings.typescriptProjects} TypeScript projects`);
  let workers = byRecency(liveHelpers().filter((h) => h.kind === 'python_worker' || h.kind === 'typescript_project'), lastUsed);
  let forgotten = false;
  let collected = false;
  while (measure(settings).total_bytes > settings.memoryBytes) {
    // Warm TypeScript calls leave garbage the heap collects late (~10 MB a 500-file rename): collected first, it is
    // often all the excess, and a project let go costs its next call a cold load of seconds.
    if (!collected) {
      collected = true;
      if (await collectGarbage()) {
        // A request that came in meanwhile may be using what would go next: the limits are applied again after it.
        if ([...repos.values()].some((use) => use.active > 0)) break;
        continue;
      }
    }
    const oldest = workers.pop();
    if (oldest) {
      await stop(oldest, 'over the memory budget');
      // A TypeScript project's memory is this process's heap: measured again only after a collection returns it.
      if (oldest.kind === 'typescript_project') await collectGarbage();
    }
    else if (!forgotten) {
      forgetRecent();
      await collectGarbage();
      forgotten = true;
      evicted.push('in-memory caches: over the memory budget');
    } else break;
    workers = workers.filter((h) => h.alive());
  }
  return evicted;
}

/** How long V8 takes to hand a collection's freed pages back (a background thread unmaps them; ~40 ms measured). */
const RETURN_MS = 100;

/**
 * A full collection, and a moment for the resident size to show it; false when this process cannot ask for one (the
 * daemon runs with --expose-gc).
 */
async function collectGarbage(): Promise<boolean> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return false;
  gc();
  await new Promise((resolve) => setTimeout(resolve, RETURN_MS));
  return true;
}

/** Most recently used repository first. */
function byRecency(helpers: Helper[], lastUsed: (repo: string | null) => number): Helper[] {
  return helpers.map((h) => ({ h, at: lastUsed(helperRepo(h)) })).sort((a, b) => b.at - a.at).map(({ h }) => h);
}
