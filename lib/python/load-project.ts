// Loads a snapshot's Python files into a resolved Project: every file, or for a rename only the files it can touch.
import path from 'node:path';
import type { WarningJSON } from '../core/schemas.js';
import { Recent } from '../core/memory.js';
import { lineStarts, offsetOf } from '../core/text.js';
import type { Repo } from '../git/repo.js';
import { listTreePaths } from '../git/snapshot.js';
import { resolvePython } from './interpreter.js';
import { identifierAt, treeFilesMentioning, withPackages } from './candidates.js';
import { FactsSource } from './facts-source.js';
import { Sources } from './sources.js';
import { Project } from './project.js';
import { nameOf, Resolver } from './references.js';
import { selects, type FileSelection } from '../core/file-selection.js';
import { FactsCache } from './facts-cache.js';
import { askWorker, prestartWorkers, type SourceText, type Unparsable, type WorkerPlaces } from './worker-pool.js';
import { countWarm } from '../ops/resources.js';
import { mark } from '../core/timing.js';

/** Paths never analysed even when committed: environments and vendored trees. */
const EXCLUDED = /(^|\/)(\.venv|venv|\.tox|node_modules|site-packages|__pycache__|\.git)\//;

export interface LoadedProject {
  project: Project;
  resolver: Resolver;
  /**
   * The snapshot's Python files read so far that are UTF-8 text, loaded into the project or not: all of them after a
   * whole load; after a rename's partial load, at least every file that mentions its old or new name.
   */
  bytesOf: Map<string, Uint8Array>;
  /** Every path in the snapshot, Python or not (module renames must not move onto one). */
  allPaths: Set<string>;
  /** Python files that could not be read as UTF-8, with the reason. */
  skipped: Map<string, string>;
  warnings: WarningJSON[];
  parsed: number;
  /** Loaded Python files that do not parse: left out of the project (each has a FileSkipped warning). */
  unparsable: Map<string, Unparsable>;
}

export type PythonSession = { dir: string; paths: { facts: string; workers: string } };

/** A rename's cursor and new name: enough to tell which files it can touch. */
export interface RenameFocus {
  at: { file: string; line: number; col: number };
  /** A rename's new name, whose files matter too; other refactors (change-signature, inline) have none. */
  newName?: string | undefined;
  /** include/exclude globs: files left out are never read. */
  selection?: FileSelection | undefined;
}

function workerPlaces(session: PythonSession): WorkerPlaces {
  return { workersDir: session.paths.workers };
}

/**
 * With no facts cached at all, the worker will be needed: start it now, so the interpreter starts while git
 * snapshots, lists and reads the files instead of after. Never fails; a real start reports errors later.
 */
export async function startPythonEarly(session: PythonSession, python: string | undefined | Promise<string | undefined>): Promise<void> {
  const [empty, explicit] = await Promise.all([new FactsCache(session.paths.facts).isEmpty(), python]);
  if (!empty) return;
  prestartWorkers(
    resolvePython(explicit, session.dir).then((choice) => choice.path),
    workerPlaces(session),
  );
}

/** Starts the session's worker now (a single-file refactor will ask it), so the interpreter starts while git works. */
export function startPythonWorker(session: PythonSession, python: Promise<string | undefined>): void {
  prestartWorkers(
    python.then((explicit) => resolvePython(explicit, session.dir)).then((choice) => choice.path),
    workerPlaces(session),
  );
}

/** Sends one request to the session's Python worker, with the interpreter the analysis uses. */
export async function askPython<T>(session: PythonSession, python: string | undefined, op: string, params: Record<string, unknown>): Promise<T> {
  const choice = await resolvePython(python, session.dir);
  return askWorker<T>(choice.path, workerPlaces(session), op, params);
}

/**
 * Loads lately made, by repository, tree (and a rename's names). Trees are immutable and a loaded project is
 * never changed after it is built, so a long-lived process (daemon, MCP server) asked again answers from memory.
 */
const recent = new Recent<Promise<LoadedProject>>(2);
/** Renames' partial projects, by tree and names: smaller, so a few more are kept. */
const recentFocus = new Recent<Promise<LoadedProject>>(4);
const recentSources = new Recent<Promise<Sources>>(2);
/** The byte scan's answer, by tree, names and cursor file: a warm call skips reading every file again. */
const recentScans = new Recent<Set<string>>(8);
countWarm('python_projects', () => recent.size + recentFocus.size);

const ALL: FileSelection = { include: [], exclude: [] };
const treeKey = (repo: Repo, session: PythonSession, tree: string, selection: FileSelection = ALL) =>
  [repo.commonDir, tree, session.paths.facts, JSON.stringify(selection)].join('\0');

/** Every Python file of the snapshot, parsed and resolved (symbol listings, and renames that need the whole repository). */
export async function loadPythonProject(
  repo: Repo,
  session: PythonSession,
  tree: string,
  python: string | undefined,
  selection: FileSelection = ALL,
): Promise<LoadedProject> {
  const key = treeKey(repo, session, tree, selection);
  const known = recent.get(key);
  if (known) return reused(await known);
  const loading = (async () => {
    const sources = await sourcesOf(repo, session, tree, python, selection);
    const files = await sources.readAll();
    mark('python: files read');
    const facts = factsSource(session, python, files);
    await facts.load(files);
    mark(`python: facts ready (${facts.parsed} parsed)`);
    await facts.store(files);
    return assemble(sources, files, facts);
  })();
  recent.set(key, loading);
  loading.catch(() => recent.drop(key, loading));
  return loading;
}

/**
 * Runs `probe` (a rename's whole analysis, free of side effects; change-signature's and inline's too) on a project
 * holding only what it can touch: the files whose bytes mention the old or the new name, with their packages, plus every module the
 * analysis looked up and did not find loaded, round after round until it asks for nothing new. The answer is the
 * one a load of every file gives. Module renames, and cursors not on a plain ASCII name, load everything.
 * `finish` (the slower end of the analysis, e.g. what needs the worker again) runs on the probe's answer only once
 * the probe asks for nothing new; what it looks up counts too.
 */
export async function withPythonProject<T, R = T>(
  repo: Repo,
  session: PythonSession,
  tree: string,
  python: string | undefined,
  focus: RenameFocus,
  probe: (loaded: LoadedProject) => T | Promise<T>,
  finish: (loaded: LoadedProject, value: T) => R | Promise<R> = (_loaded, value) => value as unknown as R,
): Promise<R> {
  const whole = () => loadPythonProject(repo, session, tree, python, focus.selection).then(async (loaded) => finish(loaded, await probe(loaded)));
  const base = treeKey(repo, session, tree, focus.selection);
  if (recent.get(base)) return whole();
  const sources = await sourcesOf(repo, session, tree, python, focus.selection);
  await sources.read([focus.at.file]);
  const bytes = sources.bytesOf.get(focus.at.file);
  const offset = bytes && offsetOf(bytes, lineStarts(bytes), focus.at.line, focus.at.col);
  const oldName = bytes && offset !== null && offset !== undefined ? identifierAt(bytes, offset) : null;
  if (!bytes || offset === null || offset === undefined) {
    // The analysis reports a missing file or a position outside it before looking at anything else.
    await probe(assemble(sources, [], factsSource(session, python, [])));
  }
  if (!oldName) return whole();
  const key = `${base}\0${oldName}\0${focus.newName ?? ''}`;
  const known = recentFocus.get(key);
  const scanKey = `${key}\0${focus.at.file}`;
  const mentioning = async () => [...(await treeFilesMentioning(repo, tree, focus.newName ? [oldName, focus.newName] : [oldName]))].filter((f) => sources.has(f));
  // Their packages' `__init__` files are not read up front: a lookup of a module not loaded is noted (module-table.ts),
  // and the next round reads it. On the standard library none was needed (7 files of 17, ~18% of the worker's time).
  const first = recentScans.get(scanKey) ?? withPackages([focus.at.file, ...(await mentioning())], sources.modules, sources.filesOfModule, false);
  recentScans.set(scanKey, first);
  mark(`python: ${first.size} files mention the names or hold their packages`);
  const facts = factsSource(session, python, sources.entries.filter((f) => first.has(f.path)));
  let loaded = known ? reused(await known) : undefined;
  let wanted = loaded ? new Set([...first, ...loadedFiles(loaded)]) : first;
  let rebuilt = false;
  for (let round = 1; ; round++) {
    if (!loaded || [...wanted].some((f) => !loadedFiles(loaded!).has(f))) {
      rebuilt = true;
      const files = await sources.read(wanted);
      await facts.load(files);
      loaded = assemble(sources, files, facts);
      mark(`python: round ${round}, ${files.length} of ${sources.entries.length} files loaded (${facts.parsed} parsed)`);
    }
    const lookedUp = (project: LoadedProject) => [...project.project.byModule.missed].flatMap((m) => sources.filesOfModule.get(m) ?? []).filter((f) => !wanted.has(f));
    let outcome: { ok: true; value: R } | { ok: false; error: unknown } | undefined;
    try {
      const value = await probe(loaded);
      // Another round comes anyway when the probe looked up more files: finishing now would be wasted.
      if (lookedUp(loaded).length === 0) outcome = { ok: true, value: await finish(loaded, value) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    const info = loaded.project.files.get(focus.at.file);
    const entity = info ? loaded.resolver.entityAt(info, offset!) : null;
    const more = lookedUp(loaded);
    if (more.length > 0) {
      mark(`python: round ${round} looked up ${more.length} more files (${[...loaded.project.byModule.missed].slice(0, 5).join(', ')})`);
      wanted = withPackages([...wanted, ...more], sources.modules, sources.filesOfModule, false);
      continue;
    }
    if (entity && (entity.kind === 'module' || nameOf(entity) !== oldName)) {
      // What was parsed is kept: the whole load finds it in the newest pack.
      await facts.store(await sources.read(wanted));
      return whole();
    }
    if (rebuilt) {
      await facts.store(await sources.read(wanted));
      recentFocus.set(key, Promise.resolve(loaded));
    }
    if (!outcome!.ok) throw outcome!.error;
    return outcome!.value;
  }
}

/** Paths whose facts a loaded project was built from. */
const loadedFilesOf = new WeakMap<LoadedProject, Set<string>>();
const loadedFiles = (loaded: LoadedProject) => loadedFilesOf.get(loaded) ?? new Set<string>();

/** A project from memory, answered again: nothing parsed this time. */
function reused(loaded: LoadedProject): LoadedProject {
  const again = { ...loaded, parsed: 0 };
  loadedFilesOf.set(again, loadedFiles(loaded));
  return again;
}

function factsSource(session: PythonSession, python: string | undefined, keyFiles: ReadonlyArray<{ oid: string }>): FactsSource {
  const interpreter = async () => (await resolvePython(python, session.dir)).path;
  // A file that does not parse is left out with a warning; a rename refuses when it mentions the name (rename-plan.ts).
  return new FactsSource({ python: interpreter, cacheDir: session.paths.facts, ...workerPlaces(session), skipUnparsable: true }, keyFiles.map((f) => f.oid));
}

function assemble(sources: Sources, files: readonly SourceText[], facts: FactsSource): LoadedProject {
  const byPath = new Map<string, NonNullable<ReturnType<FactsSource['get']>>>();
  const unparsable = new Map<string, Unparsable>();
  for (const file of files) {
    const found = facts.get(file.path);
    if (found) byPath.set(file.path, found);
    const failure = facts.unparsable(file.path);
    if (failure) unparsable.set(file.path, failure);
  }
  const project = new Project(sources.modules, byPath);
  const { bytesOf, allPaths, skipped } = sources;
  const warnings = [...sources.warnings];
  for (const file of facts.corrupt.filter((f) => files.some((g) => g.path === f))) {
    warnings.push({ code: 'CacheCorrupt', message: `the cached facts of ${file} were damaged; tug dropped them and analysed the file again`, location: { file, line: 1, col: 1 } });
  }
  for (const u of [...unparsable.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    warnings.push({ code: 'FileSkipped', message: `${u.path}:${u.line ?? '?'} does not parse (${u.message}); it was not analysed`, location: { file: u.path, line: u.line ?? 1, col: u.col ?? 1 } });
  }
  const loaded: LoadedProject = { project, resolver: new Resolver(project), bytesOf, allPaths, skipped, warnings, parsed: facts.parsed, unparsable };
  loadedFilesOf.set(loaded, new Set(files.map((f) => f.path)));
  return loaded;
}

async function sourcesOf(repo: Repo, session: PythonSession, tree: string, python: string | undefined, selection: FileSelection = ALL): Promise<Sources> {
  const key = treeKey(repo, session, tree, selection);
  const known = recentSources.get(key);
  if (known) return known;
  const reading = readSources(repo, session, tree, python, selection);
  recentSources.set(key, reading);
  reading.catch(() => recentSources.drop(key, reading));
  return reading;
}

/** Lists the snapshot's Python files (reading none yet) while the worker starts when the facts cache is empty. */
async function readSources(repo: Repo, session: PythonSession, tree: string, python: string | undefined, selection: FileSelection): Promise<Sources> {
  const [everything] = await Promise.all([listTreePaths(repo, tree), startPythonEarly(session, python)]);
  mark('python: files listed');
  // include/exclude globs are relative to the repository's root, as the scope is: where tug was started changes neither.
  const entries = everything.filter(
    (e) => e.type === 'blob' && e.mode !== '120000' && /\.pyi?$/.test(e.path) && !EXCLUDED.test(e.path) && selects(selection, e.path),
  );
  return new Sources(repo, entries, new Set(everything.map((e) => e.path)));
}
