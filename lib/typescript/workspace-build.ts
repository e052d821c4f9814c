// Builds the TypeScript view of one snapshot: which of its files the service reads, their text read in one batch, and the workspace object over the file system and projects (cold, or reused by warm.ts).
import path from 'node:path';
import type * as TS from 'typescript';
import { decodeText } from '../core/text.js';
import { readBlobs, readTreeBlobs } from '../git/objects.js';
import type { Repo } from '../git/repo.js';
import type { TreePath } from '../git/snapshot.js';
import { SnapshotFileSystem } from './file-system.js';
import { inNodeModules, isScriptFile, isServiceFile } from './files.js';
import type { LoadedTypeScript } from './load.js';
import { TsProjects, type TsProject } from './projects.js';

/** The TypeScript view of one snapshot as the operations see it (opened through workspace.ts). */
export interface TsWorkspace {
  repo: Repo;
  fs: SnapshotFileSystem;
  compiler: LoadedTypeScript;
  projects: TsProjects;
  /** Every file path of the snapshot. */
  paths: ReadonlySet<string>;
  /** Script files of the snapshot outside installed packages, sorted. */
  scripts: string[];
  configs: string[];
  /** Bytes of the service files, by repository path (what edits are anchored to). */
  bytes: Map<string, Uint8Array>;
  /**
   * The projects whose program holds `file` (a repository path), the one of its nearest config first; their programs as
   * `serviceOf` sees them (the completeness check's trial services), else their own services'.
   */
  containing(file: string, serviceOf?: (project: TsProject) => TS.LanguageService): TsProject[];
}

/** Installed JSON files can be huge data; the service reads a workspace JSON file only below this size. */
const MAX_JSON_BYTES = 4 * 1024 * 1024;

/** The snapshot's files the service reads itself (scripts, JSON), outside installed packages and symlinks, by path. */
export function serviceEntries(entries: readonly TreePath[]): TreePath[] {
  return entries.filter((e) => e.type === 'blob' && e.mode !== '120000' && isServiceFile(e.path) && !inNodeModules(e.path));
}

/**
 * Text and bytes of these entries; a file that is not text, or JSON too big to be source, is left out. `fromFiles`: each
 * read from its working-tree file when that still is the blob (readTreeBlobs), for the few files a new snapshot changed,
 * which it has just hashed from there: no `cat-file` process (a fork of a large daemon) for them.
 */
export async function readServiceFiles(repo: Repo, wanted: readonly TreePath[], fromFiles = false): Promise<{ texts: Map<string, string>; bytes: Map<string, Uint8Array> }> {
  const blobs = fromFiles ? await readTreeBlobs(repo, wanted) : await readBlobs(repo, wanted.map((e) => e.oid));
  const texts = new Map<string, string>();
  const bytes = new Map<string, Uint8Array>();
  for (const entry of wanted) {
    const data = blobs.get(entry.oid);
    if (!data || (entry.path.endsWith('.json') && data.length > MAX_JSON_BYTES)) continue;
    const text = decodeText(data);
    if (!text.ok) continue;
    texts.set(entry.path, text.text);
    bytes.set(entry.path, data);
  }
  return { texts, bytes };
}

export interface WorkspaceParts {
  repo: Repo;
  compiler: LoadedTypeScript;
  paths: ReadonlySet<string>;
  texts: Map<string, string>;
  bytes: Map<string, Uint8Array>;
  versions: ReadonlyMap<string, number>;
  /** A warm workspace's registry: files parsed for an earlier snapshot at the same version are not parsed again. */
  registry?: TS.DocumentRegistry | undefined;
}

/** The workspace over these files. `texts`, `bytes` and `versions` stay the caller's: a warm update changes them in place. */
export function assembleWorkspace(parts: WorkspaceParts): TsWorkspace {
  const { repo, compiler, paths, texts, bytes } = parts;
  const fs = new SnapshotFileSystem({ root: repo.root, texts, paths, versions: parts.versions });
  const projects = new TsProjects(compiler.ts, fs, parts.registry);
  const scripts = [...texts.keys()].filter(isScriptFile).sort();
  const configs = projects.configs(paths);
  return {
    repo,
    fs,
    compiler,
    projects,
    paths,
    scripts,
    configs,
    bytes,
    containing(file, serviceOf = (p) => p.service) {
      const absolute = fs.absolute(file);
      const all = projects.all(scripts, configs);
      const holding = all.filter((p) => serviceOf(p).getProgram()?.getSourceFile(absolute) !== undefined);
      // The project of the config nearest the file answers first (its options are the ones the file is written for).
      const depth = (p: TsProject) => (p.config && (file.startsWith(path.posix.dirname(p.config) + '/') || path.posix.dirname(p.config) === '.') ? p.config.split('/').length : 0);
      return holding.sort((a, b) => depth(b) - depth(a) || (a.config === null ? 1 : 0) - (b.config === null ? 1 : 0));
    },
  };
}
