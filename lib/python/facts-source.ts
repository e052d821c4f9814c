// Facts for the files one load reads, which may grow round by round: cached ones from the pack, the rest parsed and written to the next pack as they arrive.
import type { Facts } from './facts.js';
import { FactsCache, type PackDraft } from './facts-cache.js';
import { cachedFacts, parseFacts, type CachedFacts, type SourceText, type Unparsable, type WorkerPlaces } from './worker-pool.js';

export interface FactsSourceOptions extends WorkerPlaces {
  cacheDir: string;
  python: () => Promise<string>;
  /** Leave files that do not parse out (see `unparsable`) instead of failing with SourceSyntaxError. */
  skipUnparsable?: boolean;
}

/** A cache line of a file known not to parse: kept, so a warm run does not start Python for it again. */
type Failure = Omit<Unparsable, 'path'>;

export class FactsSource {
  private lookup: Promise<CachedFacts> | undefined;
  private readonly keyed: ReadonlySet<string>;
  /** Blobs parsed by this load → the first path that had it; their text is already in the draft pack. */
  private readonly fresh = new Map<string, string>();
  private draft: Promise<PackDraft> | undefined;
  private readonly facts = new Map<string, Facts>();
  private readonly failed = new Map<string, Failure>();
  /** Files parsed (not found in the cache) so far. */
  parsed = 0;
  /** Files whose cached entry was damaged: dropped and parsed again (reported as CacheCorrupt). */
  readonly corrupt: string[] = [];

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

  /** Where `path` does not parse, once `load` has seen it (only with `skipUnparsable`). */
  unparsable(path: string): Unparsable | undefined {
    const failure = this.failed.get(path);
    return failure && { path, ...failure };
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
      if (this.facts.has(file.path) || this.failed.has(file.path)) continue;
      // Two paths with the same content share one entry; each gets its own objects all the same.
      const twin = this.fresh.get(file.oid);
      const text = lines.get(file.oid);
      let hit = twin !== undefined ? (this.failed.get(twin) ?? structuredClone(this.facts.get(twin))) : text === undefined ? undefined : parseOrMiss(text);
      if (twin === undefined && text !== undefined && !looksLikeEntry(hit)) {
        // A damaged line (a full disk, a foreign write): drop it and parse the file again, and say so.
        hit = undefined;
        lines.delete(file.oid);
        this.corrupt.push(file.path);
      }
      const failure = (hit as { unparsable?: Failure } | undefined)?.unparsable;
      if (failure && this.options.skipUnparsable) this.failed.set(file.path, failure);
      else if (hit && !failure) this.facts.set(file.path, hit as Facts);
      else missing.push(file);
    }
    this.parsed += missing.length;
    const onUnparsable = (file: SourceText, failure: Failure) => {
      this.failed.set(file.path, failure);
      this.remember(file, { unparsable: failure });
    };
    try {
      await parseFacts({ ...this.options, files: missing, ...(this.options.skipUnparsable ? { onUnparsable } : {}) }, (file, facts, text) => {
        this.facts.set(file.path, facts);
        this.remember(file, facts, text);
      });
    } catch (error) {
      await this.discard();
      throw error;
    }
  }

  /** Appends a freshly parsed blob's facts (or its parse failure) to the draft pack, once per blob; `text` is the facts' JSON as the worker sent it. */
  private remember(file: SourceText, value: Facts | { unparsable: Failure }, text?: string): void {
    if (this.fresh.has(file.oid)) return;
    this.fresh.set(file.oid, file.path);
    const json = text ?? JSON.stringify(value);
    const key = this.cached.then((c) => c.key);
    this.draft ??= key.then((k) => new FactsCache(this.options.cacheDir).draft(k));
    void this.draft.then((d) => d.append(file.oid, json), () => undefined);
  }

  /**
   * Writes the pack of exactly `files` (all loaded) when it is not already on disk as such. The cache only saves time:
   * a write that fails (a `tug clean --cache` removing the folder meanwhile, a full disk) leaves it unwritten and the
   * command goes on.
   */
  async store(files: readonly SourceText[]): Promise<void> {
    try {
      const { key, lines } = await this.cached;
      const oids = new Set(files.map((f) => f.oid));
      const rest = [...oids].filter((o) => !this.fresh.has(o) && lines.has(o)).sort();
      if (this.draft) {
        const draft = this.draft;
        this.draft = undefined;
        await (await draft).publish(rest.map((o) => [o, lines.get(o)!])).catch(async (error: unknown) => {
          await (await draft).discard().catch(() => undefined);
          throw error;
        });
        return;
      }
      if (rest.length === oids.size && lines.size === oids.size) return;
      await new FactsCache(this.options.cacheDir).store(key, new Map(rest.map((o) => [o, lines.get(o)!])));
    } catch {
      // Not written: the next load parses these files again.
    }
  }

  /** Drops a pack begun by a load that failed. */
  async discard(): Promise<void> {
    const draft = await this.draft?.catch(() => undefined);
    this.draft = undefined;
    await draft?.discard();
  }
}

/** A cache entry is the worker's facts object or a recorded parse failure; anything else is damage. */
function looksLikeEntry(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  if ('unparsable' in entry) return typeof entry['unparsable'] === 'object' && entry['unparsable'] !== null;
  return ['scopes', 'bindings', 'references', 'params', 'imports', 'attributes', 'calls', 'classes', 'functions'].every((k) => Array.isArray(entry[k]));
}

function parseOrMiss(text: string): Facts | undefined {
  try {
    return JSON.parse(text) as Facts;
  } catch {
    return undefined;
  }
}

/**
 * Facts of a set of files that stands alone (doctest examples, renamed files): cached ones from the set's pack, the
 * rest parsed; with `skipUnparsable`, files that do not parse are listed (in path order) instead of failing.
 */
export async function factsFor(options: FactsSourceOptions & { files: readonly SourceText[] }): Promise<{ facts: Map<string, Facts>; parsed: number; unparsable: Unparsable[] }> {
  const { files, ...rest } = options;
  const source = new FactsSource(rest, files.map((f) => f.oid));
  await source.load(files);
  await source.store(files);
  const facts = new Map<string, Facts>();
  const unparsable: Unparsable[] = [];
  for (const file of files) {
    const found = source.get(file.path);
    if (found) facts.set(file.path, found);
    const failure = source.unparsable(file.path);
    if (failure) unparsable.push(failure);
  }
  return { facts, parsed: source.parsed, unparsable: unparsable.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
}
