// Process-wide helpers (warm Python workers, rust-analyzers) register here, so one-shot front doors can end them and the daemon can count them.

const cleanups = new Set<() => Promise<void>>();

export function onRelease(cleanup: () => Promise<void>): void {
  cleanups.add(cleanup);
}

const counters = new Map<string, () => number>();

/** Lets a helper report how many of it are warm (daemon status) without the reader importing the helper's module. */
export function countWarm(name: string, count: () => number): void {
  counters.set(name, count);
}

export function warmHelpers(): Record<string, number> {
  return Object.fromEntries([...counters].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, count]) => [name, count()]));
}

/** Ends every registered helper; a long-lived front door (daemon, MCP server) simply does not call this. */
export async function releaseResources(): Promise<void> {
  const pending = [...cleanups];
  cleanups.clear();
  await Promise.all(pending.map((cleanup) => cleanup().catch(() => undefined)));
}

/** One resident helper process, as the daemon sees it to measure and evict: which kind, its pid, whose files it serves. */
export interface Helper {
  /** A `typescript_project` is a warm language service inside this process (lib/typescript/warm.ts): no pid of its own. */
  kind: 'python_worker' | 'rust_analyzer' | 'typescript_project';
  /** The process id when known (a Python worker reports its own); memory is measured through it. */
  pid?: number | undefined;
  /** A directory of the repository it serves (its session's workers dir): the daemon maps it to a repository. */
  scope: string;
  alive: () => boolean;
  stop: () => Promise<void>;
}

const helpers = new Set<Helper>();

/** Registers a started helper; it leaves the list once it is no longer alive. */
export function trackHelper(helper: Helper): void {
  helpers.add(helper);
}

export function liveHelpers(): Helper[] {
  for (const helper of helpers) if (!helper.alive()) helpers.delete(helper);
  return [...helpers];
}
