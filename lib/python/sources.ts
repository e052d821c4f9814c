// A snapshot's Python files, listed once and read as asked: a whole load reads them all, a rename only the few that
// mention its names (found by `git grep`, which reads the rest without handing them to this process).
import type { WarningJSON } from '../core/schemas.js';
import { decodeText } from '../core/text.js';
import { readTreeBlobs } from '../git/objects.js';
import type { Repo } from '../git/repo.js';
import type { TreePath } from '../git/snapshot.js';
import { buildModuleMap, sourceRoots, type ModuleMap } from './modules.js';
import { filesByModule } from './candidates.js';
import type { SourceText } from './worker-pool.js';

export class Sources {
  /** UTF-8 Python files read so far, by path (the bytes as git has them). */
  readonly bytesOf = new Map<string, Uint8Array>();
  /** Python files read and found not to be UTF-8 text, with the reason. */
  readonly skipped = new Map<string, string>();
  /** A FileSkipped warning for each of `skipped`, in the order they were read. */
  readonly warnings: WarningJSON[] = [];
  private readonly texts = new Map<string, SourceText>();
  private readonly reading = new Map<string, Promise<void>>();
  private readonly byPath: Map<string, TreePath>;
  private moduleMap: { skipped: number; modules: ModuleMap; filesOfModule: Map<string, string[]> } | undefined;

  /** `entries`: the Python blobs of the tree in listing order; `allPaths`: every path of the tree. */
  constructor(
    private readonly repo: Repo,
    readonly entries: readonly TreePath[],
    readonly allPaths: Set<string>,
  ) {
    this.byPath = new Map(entries.map((e) => [e.path, e]));
  }

  /** Whether `path` is one of the tree's Python files that an analysis may read (not excluded, selected). */
  has(path: string): boolean {
    return this.byPath.has(path);
  }

  oid(path: string): string | undefined {
    return this.byPath.get(path)?.oid;
  }

  /**
   * The module map of every Python file not known to be unreadable: a file found not to be UTF-8 leaves it, as it
   * does when every file is read first (files not read yet count as readable; a lookup of one reads it).
   */
  get modules(): ModuleMap {
    return this.map().modules;
  }

  get filesOfModule(): Map<string, string[]> {
    return this.map().filesOfModule;
  }

  private map() {
    if (this.moduleMap?.skipped !== this.skipped.size) {
      const paths = this.entries.map((e) => e.path).filter((p) => !this.skipped.has(p));
      const modules = buildModuleMap(paths, sourceRoots(paths));
      this.moduleMap = { skipped: this.skipped.size, modules, filesOfModule: filesByModule(modules) };
    }
    return this.moduleMap;
  }

  /** Reads those of `paths` not read yet (one `git cat-file` for all) and returns every UTF-8 one, in listing order. */
  async read(paths: Iterable<string>): Promise<SourceText[]> {
    const wanted = new Set([...paths].filter((p) => this.byPath.has(p)));
    const fresh = [...wanted].filter((p) => !this.reading.has(p));
    if (fresh.length > 0) {
      const batch = readTreeBlobs(this.repo, fresh.map((p) => this.byPath.get(p)!)).then((blobs) => {
        for (const path of fresh) this.take(path, blobs.get(this.byPath.get(path)!.oid)!);
      });
      for (const path of fresh) this.reading.set(path, batch);
      batch.catch(() => fresh.forEach((p) => this.reading.delete(p)));
    }
    await Promise.all([...new Set([...wanted].map((p) => this.reading.get(p)!))]);
    return this.entries.filter((e) => wanted.has(e.path) && this.texts.has(e.path)).map((e) => this.texts.get(e.path)!);
  }

  /** Every Python file that is UTF-8 text (for a whole load). */
  async readAll(): Promise<SourceText[]> {
    return this.read(this.byPath.keys());
  }

  private take(path: string, bytes: Uint8Array): void {
    const text = decodeText(bytes);
    if (!text.ok) {
      this.skipped.set(path, text.reason);
      this.warnings.push({ code: 'FileSkipped', message: `${path} was not analysed (${text.reason})`, location: { file: path, line: 1, col: 1 } });
      return;
    }
    this.texts.set(path, { path, oid: this.byPath.get(path)!.oid, text: text.text });
    this.bytesOf.set(path, bytes);
  }
}
