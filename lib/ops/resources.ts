// Process-wide helpers (warm Python workers, later rust-analyzer) register here, so one-shot front doors can end them.

const cleanups = new Set<() => Promise<void>>();

export function onRelease(cleanup: () => Promise<void>): void {
  cleanups.add(cleanup);
}

/** Ends every registered helper; a long-lived front door (daemon, MCP server) simply does not call this. */
export async function releaseResources(): Promise<void> {
  const pending = [...cleanups];
  cleanups.clear();
  await Promise.all(pending.map((cleanup) => cleanup().catch(() => undefined)));
}
