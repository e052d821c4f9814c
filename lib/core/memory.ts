// In-memory caches of long-lived processes (daemon, MCP server) register here, so `tug clean --cache` empties them too.

const clearers = new Set<() => void>();

/** A bounded map of recent results, least recently used dropped first, emptied by `forgetRecent`. */
export class Recent<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly limit: number) {
    clearers.add(() => this.entries.clear());
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
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Removes the entry only if it is still `value` (a failed load must not evict a newer one). */
  drop(key: string, value: V): void {
    if (this.entries.get(key) === value) this.entries.delete(key);
  }
}

export function forgetRecent(): void {
  for (const clear of clearers) clear();
}
