// Facts for the files one load reads, which may grow round by round: cached ones from the pack, the rest parsed, one pack written at the end.
import type { Facts } from './facts.js';
import { FactsCache } from './facts-cache.js';
import { cachedFacts, parseFacts, type CachedFacts, type SourceText, type WorkerPlaces } from './worker-pool.js';

export interface FactsSourceOptions extends WorkerPlaces {
  cacheDir: string;
  python: () => Promise<string>;
}

export class FactsSource {
  private lookup: Promise<CachedFacts> | undefined;
  private readonly keyed: ReadonlySet<string>;
  /** Facts text of files parsed by this load, by blob id, until the pack is written. */
  private readonly fresh = new Map<string, string>();
  private readonly facts = new Map<string, Facts>();
  /** Files parsed (not found in the cache) so far. */
  parsed = 0;

  /** `keyOids` name the pack: the blobs that decide which files a load reads (all of them, or a rename's candidates). */
  constructor(
    private readonly options: FactsSourceOptions,
    private readonly keyOids: readonly string[],
  ) {
    this.keyed = new Set(keyOids);
  }

  /** The cache's lines for the pack, read once, when first needed. */
  private get cached(): Promise<CachedFacts> {
    return (this.lookup ??= cachedFacts(this.options.cacheDir, this.keyOids, (oid) => this.keyed.has(oid)));
  }

  /** Facts of `path`, once `load` has seen it. */
  get(path: string): Facts | undefined {
    return this.facts.get(path);
  }

  /** Makes sure every one of `files` has facts: from the cache when it has them, else parsed by the workers. */
  async load(files: readonly SourceText[]): Promise<void> {
    const { key, lines } = await this.cached;
    // Files beyond the ones the pack is named by (a later round): look for them in the cache once more.
    const unknown = new Set(files.filter((f) => !this.facts.has(f.path) && !lines.has(f.oid) && !this.fresh.has(f.oid)).map((f) => f.oid));
    if (unknown.size > 0 && files.some((f) => !this.keyed.has(f.oid))) {
      for (const [oid, line] of await new FactsCache(this.options.cacheDir).lookup(key, (o) => unknown.has(o))) lines.set(oid, line);
    }
    const missing: SourceText[] = [];
    for (const file of files) {
      if (this.facts.has(file.path)) continue;
      const text = lines.get(file.oid) ?? this.fresh.get(file.oid);
      // Two paths with the same content share one entry; each gets its own objects all the same.
      const hit = text === undefined ? undefined : parseOrMiss(text);
      if (hit) this.facts.set(file.path, hit);
      else missing.push(file);
    }
    this.parsed += missing.length;
    await parseFacts({ ...this.options, files: missing }, (file, facts) => {
      this.facts.set(file.path, facts);
      if (!this.fresh.has(file.oid)) this.fresh.set(file.oid, JSON.stringify(facts));
    });
  }

  /** Writes the pack of exactly `files` when it is not already on disk as such. */
  async store(files: readonly SourceText[]): Promise<void> {
    const { key, lines } = await this.cached;
    const oids = new Set(files.map((f) => f.oid));
    if (this.fresh.size === 0 && lines.size === oids.size && [...oids].every((o) => lines.has(o))) return;
    const out = new Map<string, string>();
    for (const oid of [...oids].sort()) {
      const line = lines.get(oid) ?? this.fresh.get(oid);
      if (line !== undefined) out.set(oid, line);
    }
    await new FactsCache(this.options.cacheDir).store(key, out);
  }
}

function parseOrMiss(text: string): Facts | undefined {
  try {
    return JSON.parse(text) as Facts;
  } catch {
    return undefined;
  }
}
