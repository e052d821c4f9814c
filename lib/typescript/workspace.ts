// Opens the TypeScript view of one snapshot: its script and JSON files read in one batch, the compiler chosen (the project's own, else tug's), and the projects built over them.
import path from 'node:path';
import { TugError } from '../core/errors.js';
import { decodeText } from '../core/text.js';
import { readBlobs } from '../git/objects.js';
import type { Repo } from '../git/repo.js';
import { listTreePaths } from '../git/snapshot.js';
import { SnapshotFileSystem } from './file-system.js';
import { inNodeModules, isScriptFile, isServiceFile } from './files.js';
import { loadTypeScript, projectTypeScript, type LoadedTypeScript } from './load.js';
import { TsProjects, type TsProject } from './projects.js';

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
  /** The projects whose program holds `file` (a repository path), the one of its nearest config first. */
  containing(file: string): TsProject[];
}

/** Installed JSON files can be huge data; the service reads a workspace JSON file only below this size. */
const MAX_JSON_BYTES = 4 * 1024 * 1024;

export async function openTsWorkspace(repo: Repo, tree: string, near: string): Promise<TsWorkspace> {
  const entries = (await listTreePaths(repo, tree)).filter((e) => e.type === 'blob');
  const paths = new Set(entries.map((e) => e.path));
  const wanted = entries.filter((e) => e.mode !== '120000' && isServiceFile(e.path) && !inNodeModules(e.path));
  const blobs = await readBlobs(repo, wanted.map((e) => e.oid));
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
  const fs = new SnapshotFileSystem({ root: repo.root, texts, paths });
  const own = projectTypeScript(repo.root, path.dirname(fs.absolute(near)), (p) => paths.has(p));
  const compiler = loadTypeScript(own);
  const projects = new TsProjects(compiler.ts, fs);
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
    containing(file) {
      const absolute = fs.absolute(file);
      const all = projects.all(scripts, configs);
      const holding = all.filter((p) => p.service.getProgram()?.getSourceFile(absolute) !== undefined);
      // The project of the config nearest the file answers first (its options are the ones the file is written for).
      const depth = (p: TsProject) => (p.config && (file.startsWith(path.posix.dirname(p.config) + '/') || path.posix.dirname(p.config) === '.') ? p.config.split('/').length : 0);
      return holding.sort((a, b) => depth(b) - depth(a) || (a.config === null ? 1 : 0) - (b.config === null ? 1 : 0));
    },
  };
}

/** The file a TypeScript operation was pointed at must be a script of the snapshot. */
export function requireScript(ws: TsWorkspace, file: string): Uint8Array {
  const data = ws.bytes.get(file);
  if (!data || !isScriptFile(file)) throw new TugError('FileNotFound', `${file} is not a TypeScript or JavaScript file of the workspace`, { details: { path: file } });
  return data;
}
