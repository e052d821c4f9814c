// Facts for the files one load reads, which may grow round by round: cached ones from the pack, the rest parsed and written to the next pack as they arrive.
import type { Facts } from './facts.js';
import { FactsCache, type PackDraft } from './facts-cache.js';
import { cachedFacts, parseFacts, type CachedFacts, type SourceText, type WorkerPlaces } from './worker-pool.js';

export interface FactsSourceOptions extends WorkerPlaces {
  cacheDir: string;
  python: () => Promise<string>;
}

export class FactsSource {
  private lookup: Promise<CachedFacts> | undefined;
  private readonly keyed: ReadonlySet<string>;
  /** Blobs parsed by this load → the first path that had it; their text is already in the draft pack. */
  private readonly fresh = new Map<string, string>();
  private draft: Promise<PackDraft> | undefined;
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

  /** The cache's lines for the pack, read once, when first needed; of a newer pack, only the named blobs' lines. */
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
      // Two paths with the same content share one entry; each gets its own objects all the same.
      const twin = this.fresh.get(file.oid);
      const text = lines.get(file.oid);
      const hit = twin !== undefined ? structuredClone(this.facts.get(twin)) : text === undefined ? undefined : parseOrMiss(text);
      if (hit) this.facts.set(file.path, hit);
      else missing.push(file);
    }
    this.parsed += missing.length;
    try {
      await parseFacts({ ...this.options, files: missing }, (file, facts) => {
        this.facts.set(file.path, facts);
        if (this.fresh.has(file.oid)) return;
        this.fresh.set(file.oid, file.path);
        const json = JSON.stringify(facts);
        this.draft ??= new FactsCache(this.options.cacheDir).draft(key);
        void this.draft.then((d) => d.append(file.oid, json), () => undefined);
      });
    } catch (error) {
      await this.discard();
      throw error;
    }
  }

  /** Writes the pack of exactly `files` (all loaded) when it is not already on disk as such. */
  async store(files: readonly SourceText[]): Promise<void> {
    const { key, lines } = await this.cached;
    const oids = new Set(files.map((f) => f.oid));
    const rest = [...oids].filter((o) => !this.fresh.has(o) && lines.has(o)).sort();
    if (this.draft) {
      const draft = await this.draft;
      this.draft = undefined;
      await draft.publish(rest.map((o) => [o, lines.get(o)!]));
      return;
    }
    if (rest.length === oids.size && lines.size === oids.size) return;
    await new FactsCache(this.options.cacheDir).store(key, new Map(rest.map((o) => [o, lines.get(o)!])));
  }

  /** Drops a pack begun by a load that failed. */
  async discard(): Promise<void> {
    const draft = await this.draft?.catch(() => undefined);
    this.draft = undefined;
    await draft?.discard();
  }
}

function parseOrMiss(text: string): Facts | undefined {
  try {
    return JSON.parse(text) as Facts;
  } catch {
    return undefined;
  }
}
