// In-memory caches of long-lived processes (daemon, MCP server) register here, so `tug clean --cache` empties them too.

const clearers = new Set<() => void>();
let longLived = false;

/** Called by the daemon and the MCP server: caches that only pay off across commands are worth their memory there. */
export function keepInMemory(): void {
  longLived = true;
}

export function keepsInMemory(): boolean {
  return longLived;
}

/**
 * A bounded map of recent results, least recently used dropped first, emptied by `forgetRecent`. The bound is on the
 * total weight of the entries: one per entry unless `weigh` says otherwise (bytes, say).
 */
export class Recent<V> {
  private readonly entries = new Map<string, V>();
  private weight = 0;

  constructor(
    private readonly limit: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {
    clearers.add(() => {
      this.entries.clear();
      this.weight = 0;
    });
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.remove(key);
    this.entries.set(key, value);
    this.weight += this.weigh(value);
    while (this.weight > this.limit && this.entries.size > 0) this.remove(this.entries.keys().next().value!);
  }

  /** Removes the entry only if it is still `value` (a failed load must not evict a newer one). */
  drop(key: string, value: V): void {
    if (this.entries.get(key) === value) this.remove(key);
  }

  private remove(key: string): void {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.weight -= this.weigh(old);
  }
}

export function forgetRecent(): void {
  for (const clear of clearers) clear();
}
