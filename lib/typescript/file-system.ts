// The file system the language service sees: the snapshot's files (never the working tree), plus installed packages and the compiler's own lib files read from disk.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { inNodeModules } from './files.js';

export interface SnapshotFiles {
  /** Absolute, symlink-free repository root: repository paths are joined to it. */
  root: string;
  /** Text of the files the service may read (scripts, JSON), by repository path. */
  texts: Map<string, string>;
  /** Every file of the snapshot, by repository path, so a file of another kind still exists. */
  paths: ReadonlySet<string>;
  /** A warm workspace's count of changes per repository path (lib/typescript/warm.ts); a file not in it is at 0. */
  versions?: ReadonlyMap<string, number>;
}

/**
 * Paths inside the repository come from the snapshot; of those that are not in it, only installed packages
 * (`node_modules`) are read from disk, where the user's package manager put them. Paths outside the repository are the
 * compiler's libs and packages installed above it.
 */
export class SnapshotFileSystem {
  readonly root: string;
  private readonly dirs = new Map<string, { files: string[]; directories: string[] }>();

  constructor(private readonly snapshot: SnapshotFiles) {
    this.root = snapshot.root;
    const add = (dir: string, name: string, kind: 'files' | 'directories') => {
      let entry = this.dirs.get(dir);
      if (!entry) this.dirs.set(dir, (entry = { files: [], directories: [] }));
      if (!entry[kind].includes(name)) entry[kind].push(name);
    };
    this.dirs.set('', { files: [], directories: [] });
    for (const file of snapshot.paths) {
      const parts = file.split('/');
      for (let i = 0; i < parts.length; i++) add(parts.slice(0, i).join('/'), parts[i]!, i === parts.length - 1 ? 'files' : 'directories');
    }
  }

  /** Both directions of the path mapping, remembered: the service asks for every file's version on every request. */
  private readonly relatives = new Map<string, string | null>();
  private readonly absolutes = new Map<string, string>();

  /** Repository path of an absolute path inside the root, else null. */
  relative(absolute: string): string | null {
    const known = this.relatives.get(absolute);
    if (known !== undefined) return known;
    const normal = path.resolve(absolute);
    const rel = normal === this.root ? '' : normal.startsWith(this.root + path.sep) ? normal.slice(this.root.length + 1).split(path.sep).join('/') : null;
    this.relatives.set(absolute, rel);
    return rel;
  }

  /** The language service's script version: it re-reads a file only when this changes. */
  version(absolute: string): number {
    const versions = this.snapshot.versions;
    if (!versions || versions.size === 0) return 0;
    const rel = this.relative(absolute);
    return rel === null ? 0 : (versions.get(rel) ?? 0);
  }

  absolute(file: string): string {
    let known = this.absolutes.get(file);
    if (known === undefined) this.absolutes.set(file, (known = file === '' ? this.root : path.join(this.root, ...file.split('/'))));
    return known;
  }

  /** Whether the path is read from disk: outside the repository, or an installed package inside it. */
  private onDisk(rel: string | null): boolean {
    return rel === null || inNodeModules(rel);
  }

  /** Whether reading the file means reading the disk (the compiler's libs, installed packages), not the snapshot. */
  readsDisk(absolute: string): boolean {
    return this.onDisk(this.relative(absolute));
  }

  fileExists(absolute: string): boolean {
    const rel = this.relative(absolute);
    if (!this.onDisk(rel)) return this.snapshot.paths.has(rel!);
    return statSync(absolute, { throwIfNoEntry: false })?.isFile() ?? false;
  }

  readFile(absolute: string): string | undefined {
    const rel = this.relative(absolute);
    if (!this.onDisk(rel)) return this.snapshot.texts.get(rel!);
    try {
      return readFileSync(absolute, 'utf8');
    } catch {
      return undefined;
    }
  }

  directoryExists(absolute: string): boolean {
    const rel = this.relative(absolute);
    if (!this.onDisk(rel)) return this.dirs.has(rel!);
    return statSync(absolute, { throwIfNoEntry: false })?.isDirectory() ?? false;
  }

  entries(absolute: string): { files: string[]; directories: string[] } {
    const rel = this.relative(absolute);
    if (!this.onDisk(rel)) {
      const entry = this.dirs.get(rel!);
      return entry ? { files: [...entry.files].sort(), directories: [...entry.directories].sort() } : { files: [], directories: [] };
    }
    const files: string[] = [];
    const directories: string[] = [];
    try {
      for (const entry of readdirSync(absolute, { withFileTypes: true })) {
        const kind = entry.isSymbolicLink() ? statSync(path.join(absolute, entry.name), { throwIfNoEntry: false }) : entry;
        if (kind?.isDirectory()) directories.push(entry.name);
        else if (kind?.isFile()) files.push(entry.name);
      }
    } catch {
      // An unreadable directory has no entries for the service.
    }
    return { files: files.sort(), directories: directories.sort() };
  }

  getDirectories(absolute: string): string[] {
    return this.entries(absolute).directories;
  }

  /**
   * Symlinks are followed on disk only (a workspace package linked from `node_modules` lands back in the repository,
   * where the snapshot answers again); the snapshot's own paths are taken as they are.
   */
  realpath(absolute: string): string {
    const rel = this.relative(absolute);
    if (!this.onDisk(rel)) return absolute;
    try {
      return realpathSync(absolute);
    } catch {
      return absolute;
    }
  }
}
