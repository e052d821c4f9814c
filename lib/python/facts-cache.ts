// Facts are cached by git blob id in packs, one per set of Python files: a run over files seen together before reads one file.
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Bump when the worker's facts schema (or this layout) changes; old entries are then ignored. */
export const FACTS_SCHEMA = 'facts-v12';

/** Packs kept besides the newest: enough for a few branches and recent edits, bounded on disk. */
const KEEP_PACKS = 16;

/** Bytes of packs kept besides the newest (unless it alone is larger: then twice its size). */
export const PACK_BUDGET = 64 * 1024 * 1024;

/**
 * Facts text of one file above this many bytes is kept once, in `big/<blob id>.json`, and its pack line says only `@`:
 * one huge file (4 MB, 300k references: 123 MB of facts) was copied into every new pack and read through on every
 * lookup, so it made every later rename slow, also renames that never looked at it.
 */
export const FILE_BUDGET = 1024 * 1024;

/** The pack line body of an entry kept in `big/`: not JSON, so an old reader takes it for damage and parses again. */
const BIG = '@';

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

  /**
   * The facts text of as many of the set's blobs as the cache has: the set's own pack, else the newest one. With
   * `wanted`, only those lines of the newest pack are kept, so a rename that needs a few files never holds a whole
   * repository's pack.
   */
  async lookup(key: string, wanted?: (oid: string) => boolean): Promise<Lines> {
    const exact = await this.readPack(key);
    if (exact) return exact;
    const latest = (await readFile(this.latestFile(), 'utf8').catch(() => '')).trim();
    if (!/^[0-9a-f]{40}$/.test(latest) || latest === key) return new Map();
    return (await this.readPack(latest, wanted)) ?? new Map();
  }

  /** Writes the set's pack (temp file + rename, no fsync: a lost pack is parsed again), points `latest` at it, prunes old packs. */
  async store(key: string, lines: Lines): Promise<void> {
    const packs = path.join(this.root, 'packs');
    await mkdir(packs, { recursive: true });
    const big = new Set<string>();
    let text = '';
    for (const [oid, json] of lines) text += `${oid} ${await this.body(oid, json, big)}\n`;
    await atomicWrite(path.join(packs, `${key}.jsonl`), text);
    await atomicWrite(this.latestFile(), `${key}\n`);
    await this.prune(packs, key, big);
  }

  /**
   * Starts writing the set's pack while its facts still arrive: each line goes to disk as it comes, so nothing
   * holds the text of every file. `publish` adds the rest and makes it the set's pack (as `store` does).
   */
  async draft(key: string): Promise<PackDraft> {
    const packs = path.join(this.root, 'packs');
    await mkdir(packs, { recursive: true });
    const file = path.join(packs, `${key}.jsonl`);
    const temp = tempName(file);
    const handle = await open(temp, 'w');
    let written: Promise<unknown> = Promise.resolve();
    const big = new Set<string>();
    const write = (oid: string, json: string) => (written = written.then(async () => handle.write(`${oid} ${await this.body(oid, json, big)}\n`)));
    return {
      append: (oid, json) => void write(oid, json),
      publish: async (rest) => {
        for (const [oid, json] of rest) write(oid, json);
        await written;
        await handle.close();
        await rename(temp, file);
        await atomicWrite(this.latestFile(), `${key}\n`);
        await this.prune(packs, key, big);
      },
      discard: async () => {
        await written.catch(() => undefined);
        await handle.close().catch(() => undefined);
        await rm(temp, { force: true });
      },
    };
  }

  /** A pack line's body: the facts text, or BIG once the text is in `big/` (written once, touched on reuse). */
  private async body(oid: string, json: string, big: Set<string>): Promise<string> {
    if (json.length <= FILE_BUDGET) return json;
    const file = this.bigFile(oid);
    // Same size: the same text (a blob's facts do not change), so it is only marked as used; else (damaged) rewritten.
    const same = (await stat(file).catch(() => undefined))?.size === Buffer.byteLength(json);
    if (same) await utimes(file, new Date(), new Date());
    else {
      await mkdir(path.dirname(file), { recursive: true });
      await atomicWrite(file, json);
    }
    big.add(oid);
    return BIG;
  }

  private bigFile(oid: string): string {
    return path.join(this.root, 'big', `${oid}.json`);
  }

  private latestFile(): string {
    return path.join(this.root, 'latest');
  }

  /** Reads a pack a chunk at a time, decoding only the lines asked for. */
  private async readPack(key: string, wanted?: (oid: string) => boolean): Promise<Lines | undefined> {
    const handle = await open(path.join(this.root, 'packs', `${key}.jsonl`), 'r').catch(() => undefined);
    if (!handle) return undefined;
    const lines: Lines = new Map();
    const take = (line: Buffer) => {
      // A line without its blob id cannot be attributed: skip it. One with an id but a damaged body is kept, so the
      // reader notices it (CacheCorrupt) and parses that file again.
      if (line.length < 41 || line[40] !== 0x20) return;
      const oid = line.toString('latin1', 0, 40);
      if (!/^[0-9a-f]{40}$/.test(oid)) return;
      if (wanted && !wanted(oid)) return;
      if (line.length === 42 && line[41] === 0x40) big.push(oid);
      else lines.set(oid, line.toString('utf8', 41));
    };
    const big: string[] = [];
    try {
      const chunk = Buffer.alloc(1 << 20);
      let rest = Buffer.alloc(0);
      for (;;) {
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
        if (bytesRead === 0) break;
        const data = rest.length > 0 ? Buffer.concat([rest, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
        let start = 0;
        for (let end = data.indexOf(0x0a); end >= 0; end = data.indexOf(0x0a, start)) {
          take(data.subarray(start, end));
          start = end + 1;
        }
        // Copied: the chunk is read into again.
        rest = Buffer.from(data.subarray(start));
      }
      if (rest.length > 0) take(rest);
    } catch {
      return undefined;
    } finally {
      await handle.close();
    }
    // An entry whose big file was pruned is a miss: the file is parsed again.
    for (const oid of big) {
      const text = await readFile(this.bigFile(oid), 'utf8').catch(() => undefined);
      if (text !== undefined) lines.set(oid, text);
    }
    return lines;
  }

  /**
   * Keeps the newest KEEP_PACKS packs besides `keep`, and of those only as many, newest first, as fit the byte budget
   * (PACK_BUDGET, or twice `keep`'s own size when that is larger): the facts of a huge file that is gone (123 MB of
   * them made every later run slow) leave with the packs that held it. Big entries the new pack uses stay; the others
   * are kept, newest first, within the same byte budget.
   */
  private async prune(packs: string, keep: string, bigUsed: ReadonlySet<string>): Promise<void> {
    const names = (await readdir(packs)).filter((n) => n.endsWith('.jsonl'));
    const dated = await Promise.all(
      names.map(async (n) => {
        const info = await stat(path.join(packs, n)).catch(() => undefined);
        return { n, t: info?.mtimeMs ?? 0, size: info?.size ?? 0 };
      }),
    );
    dated.sort((a, b) => b.t - a.t || (a.n < b.n ? -1 : 1));
    const own = dated.find((d) => d.n === `${keep}.jsonl`)?.size ?? 0;
    const budget = Math.max(PACK_BUDGET, 2 * own);
    let used = own;
    let kept = 0;
    const old: string[] = [];
    for (const d of dated) {
      if (d.n === `${keep}.jsonl`) continue;
      if (kept < KEEP_PACKS && used + d.size <= budget) {
        kept += 1;
        used += d.size;
      } else old.push(d.n);
    }
    await Promise.all(old.map((n) => rm(path.join(packs, n), { force: true })));
    await pruneBig(path.join(this.root, 'big'), bigUsed);
  }
}

async function pruneBig(dir: string, used: ReadonlySet<string>): Promise<void> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  if (names.length === 0) return;
  const dated = await Promise.all(names.map(async (n) => ({ n, info: await stat(path.join(dir, n)).catch(() => undefined) })));
  dated.sort((a, b) => (b.info?.mtimeMs ?? 0) - (a.info?.mtimeMs ?? 0) || (a.n < b.n ? -1 : 1));
  let room = PACK_BUDGET;
  const old: string[] = [];
  for (const { n, info } of dated) {
    if (used.has(n.slice(0, -'.json'.length))) continue;
    const size = info?.size ?? 0;
    if (size <= room) room -= size;
    else old.push(n);
  }
  await Promise.all(old.map((n) => rm(path.join(dir, n), { force: true })));
}

/** A pack being written; see FactsCache.draft. */
export interface PackDraft {
  append(oid: string, json: string): void;
  publish(rest: Iterable<[string, string]>): Promise<void>;
  discard(): Promise<void>;
}

const tempName = (file: string) => `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;

async function atomicWrite(file: string, text: string): Promise<void> {
  const temp = tempName(file);
  await writeFile(temp, text);
  await rename(temp, file);
}
