// Facts per file are cached by git blob id: the same content never needs parsing twice, across runs and branches.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Bump when the worker's facts schema changes; old entries are then ignored. */
export const FACTS_SCHEMA = 'facts-v2';

export class FactsCache {
  constructor(private readonly dir: string) {}

  private file(oid: string): string {
    return path.join(this.dir, FACTS_SCHEMA, oid.slice(0, 2), `${oid}.json`);
  }

  async get<T>(oid: string): Promise<T | undefined> {
    try {
      return JSON.parse(await readFile(this.file(oid), 'utf8')) as T;
    } catch {
      // Absent or torn by a crash: either way, parse again.
      return undefined;
    }
  }

  /** Temp file + rename, without fsync: a cache entry lost in a crash is just parsed again. */
  async put(oid: string, facts: unknown): Promise<void> {
    const file = this.file(oid);
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify(facts));
    await rename(temp, file);
  }
}
