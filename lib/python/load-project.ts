// Loads every Python file of a snapshot into a resolved Project: file list, contents, facts (cached), modules, resolver.
import path from 'node:path';
import type { WarningJSON } from '../core/schemas.js';
import { Recent } from '../core/memory.js';
import { decodeText } from '../core/text.js';
import { readBlobs } from '../git/objects.js';
import type { Repo } from '../git/repo.js';
import { listTreePaths } from '../git/snapshot.js';
import { resolvePython } from '../verify/python.js';
import { buildModuleMap, sourceRoots } from './modules.js';
import { Project } from './project.js';
import { Resolver } from './references.js';
import { selects, type FileSelection } from '../core/file-selection.js';
import { FactsCache } from './facts-cache.js';
import { cachedFacts, factsFor, prestartWorkers, type SourceText, type WorkerPlaces } from './worker-pool.js';
import { countWarm } from '../ops/resources.js';
import { mark } from '../ops/timing.js';

/** Paths never analysed even when committed: environments and vendored trees. */
const EXCLUDED = /(^|\/)(\.venv|venv|\.tox|node_modules|site-packages|__pycache__|\.git)\//;

export interface LoadedProject {
  project: Project;
  resolver: Resolver;
  bytesOf: Map<string, Uint8Array>;
  /** Every path in the snapshot, Python or not (module renames must not move onto one). */
  allPaths: Set<string>;
  /** Python files that could not be read as UTF-8, with the reason. */
  skipped: Map<string, string>;
  warnings: WarningJSON[];
  parsed: number;
}

type PythonSession = { dir: string; paths: { facts: string; workers: string } };

function workerPlaces(session: PythonSession): WorkerPlaces {
  // Beside the managed venv: like the venv's choice, it is no cache of the project and survives `tug clean --cache`.
  return { workersDir: session.paths.workers, launchMemo: path.join(session.dir, 'python', 'launch.json') };
}

/**
 * With no facts cached at all, every file will need the worker: start it now, so the interpreter starts while
 * git snapshots, lists and reads the files instead of after. Never fails; a real start reports errors later.
 */
export async function startPythonEarly(session: PythonSession, python: string | undefined | Promise<string | undefined>): Promise<void> {
  const [empty, explicit] = await Promise.all([new FactsCache(session.paths.facts).isEmpty(), python]);
  if (!empty) return;
  prestartWorkers(
    resolvePython(explicit, session.dir).then((choice) => choice.path),
    workerPlaces(session),
  );
}

/**
 * Projects loaded lately, by repository, tree and prefix. Trees are immutable and a loaded project is never changed
 * after it is built, so a long-lived process (daemon, MCP server) asked about the same tree again answers from memory.
 */
const recent = new Recent<Promise<LoadedProject>>(2);
countWarm('python_projects', () => recent.size);

export async function loadPythonProject(
  repo: Repo,
  session: PythonSession,
  tree: string,
  python: string | undefined,
  selection: FileSelection = { include: [], exclude: [] },
): Promise<LoadedProject> {
  const key = [repo.commonDir, tree, repo.prefix, session.paths.facts, JSON.stringify(selection)].join('\0');
  const known = recent.get(key);
  if (known) return { ...(await known), parsed: 0 };
  const loading = loadAfresh(repo, session, tree, python, selection);
  recent.set(key, loading);
  loading.catch(() => recent.drop(key, loading));
  return loading;
}

async function loadAfresh(repo: Repo, session: PythonSession, tree: string, python: string | undefined, selection: FileSelection): Promise<LoadedProject> {
  const [everything] = await Promise.all([listTreePaths(repo, tree), startPythonEarly(session, python)]);
  mark('python: files listed');
  const allPaths = new Set(everything.map((e) => e.path));
  // include/exclude globs are relative to the workspace, which may be a directory inside the repository.
  const inWorkspace = (file: string) => (repo.prefix && file.startsWith(`${repo.prefix}/`) ? file.slice(repo.prefix.length + 1) : file);
  const entries = everything.filter((e) => e.type === 'blob' && e.mode !== '120000' && /\.pyi?$/.test(e.path) && !EXCLUDED.test(e.path) && selects(selection, inWorkspace(e.path)));
  const cached = cachedFacts(session.paths.facts, entries.map((e) => e.oid));
  const blobs = await readBlobs(repo, entries.map((e) => e.oid));
  mark('python: files read');
  const sources: SourceText[] = [];
  const bytesOf = new Map<string, Uint8Array>();
  const skipped = new Map<string, string>();
  const warnings: WarningJSON[] = [];
  for (const entry of entries) {
    const bytes = blobs.get(entry.oid)!;
    const text = decodeText(bytes);
    if (!text.ok) {
      skipped.set(entry.path, text.reason);
      warnings.push({ code: 'FileSkipped', message: `${entry.path} was not analysed (${text.reason})`, location: { file: entry.path, line: 1, col: 1 } });
      continue;
    }
    sources.push({ path: entry.path, oid: entry.oid, text: text.text });
    bytesOf.set(entry.path, bytes);
  }
  const interpreter = async () => (await resolvePython(python, session.dir)).path;
  const { facts, parsed, corrupt } = await factsFor({ python: interpreter, cacheDir: session.paths.facts, ...workerPlaces(session), files: sources, cached });
  for (const file of corrupt) {
    warnings.push({ code: 'CacheCorrupt', message: `the cached facts of ${file} were damaged; tug dropped them and analysed the file again`, location: { file, line: 1, col: 1 } });
  }
  mark(`python: facts ready (${parsed} parsed)`);
  const modules = buildModuleMap([...facts.keys()], sourceRoots([...facts.keys()], repo.prefix));
  const project = new Project(modules, facts);
  return { project, resolver: new Resolver(project), bytesOf, allPaths, skipped, warnings, parsed };
}
