// Facts are cached by git blob id in packs, one per set of Python files: a run over files seen together before reads one file.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Bump when the worker's facts schema (or this layout) changes; old entries are then ignored. */
export const FACTS_SCHEMA = 'facts-v3';

/** Packs kept besides the newest: enough for a few branches and recent edits, bounded on disk. */
const KEEP_PACKS = 16;

/** One pack line: the blob id, a space, the facts as JSON. Kept as text so reused entries are never re-serialised. */
type Lines = Map<string, string>;

/**
 * A pack holds the facts of every Python blob of one set (its name is a hash of the sorted blob ids), as JSON
 * lines. `latest` names the pack written last, so a run after an edit reuses it for the unchanged files and
 * parses only the rest. Reads never fail: a missing pack is a miss, a damaged entry is reported and parsed again.
 */
export class FactsCache {
  private readonly root: string;

  constructor(dir: string) {
    this.root = path.join(dir, FACTS_SCHEMA);
  }

  static key(oids: Iterable<string>): string {
    return createHash('sha1').update([...new Set(oids)].sort().join('\n')).digest('hex');
  }

  /** Whether any pack was written: without one, every file needs the worker, so it can start early. */
  async isEmpty(): Promise<boolean> {
    return stat(this.latestFile()).then(
      () => false,
      () => true,
    );
  }

  /** The facts text of as many of `oids` as the cache has: the set's own pack, else the newest one. */
  async lookup(key: string): Promise<Lines> {
    const exact = await this.readPack(key);
    if (exact) return exact;
    const latest = (await readFile(this.latestFile(), 'utf8').catch(() => '')).trim();
    if (!/^[0-9a-f]{40}$/.test(latest) || latest === key) return new Map();
    return (await this.readPack(latest)) ?? new Map();
  }

  /** Writes the set's pack (temp file + rename, no fsync: a lost pack is parsed again), points `latest` at it, prunes old packs. */
  async store(key: string, lines: Lines): Promise<void> {
    const packs = path.join(this.root, 'packs');
    await mkdir(packs, { recursive: true });
    const text = [...lines].map(([oid, json]) => `${oid} ${json}\n`).join('');
    await atomicWrite(path.join(packs, `${key}.jsonl`), text);
    await atomicWrite(this.latestFile(), `${key}\n`);
    await this.prune(packs, key);
  }

  private latestFile(): string {
    return path.join(this.root, 'latest');
  }

  private async readPack(key: string): Promise<Lines | undefined> {
    const text = await readFile(path.join(this.root, 'packs', `${key}.jsonl`), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    const lines: Lines = new Map();
    for (const line of text.split('\n')) {
      const space = line.indexOf(' ');
      // A line without its blob id cannot be attributed: skip it. One with an id but a damaged body is kept, so the
      // reader notices it (CacheCorrupt) and parses that file again.
      if (space !== 40 || !/^[0-9a-f]{40}$/.test(line.slice(0, 40))) continue;
      lines.set(line.slice(0, 40), line.slice(41));
    }
    return lines;
  }

  private async prune(packs: string, keep: string): Promise<void> {
    const names = (await readdir(packs)).filter((n) => n.endsWith('.jsonl'));
    if (names.length <= KEEP_PACKS + 1) return;
    const dated = await Promise.all(names.map(async (n) => ({ n, t: await stat(path.join(packs, n)).then((s) => s.mtimeMs, () => 0) })));
    dated.sort((a, b) => b.t - a.t);
    const old = dated.slice(KEEP_PACKS + 1).filter((d) => d.n !== `${keep}.jsonl`);
    await Promise.all(old.map((d) => rm(path.join(packs, d.n), { force: true })));
  }
}

async function atomicWrite(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temp, text);
  await rename(temp, file);
}
