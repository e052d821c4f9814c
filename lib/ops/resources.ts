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
