// Doctests are code: the renamed symbol's uses in docstring examples and in the docs files pytest runs as doctests.
import type { WarningJSON } from '../core/schemas.js';
import { blobOid } from '../core/hash.js';
import { readTreeBlobs } from '../git/objects.js';
import type { Repo } from '../git/repo.js';
import { listTreePaths } from '../git/snapshot.js';
import { codeBlockText, doctestCollector, doctestGlobs, doctestText, realOffset, type DoctestText } from './doctest-text.js';
import type { Facts, Span } from './facts.js';
import type { LoadedProject } from './load-project.js';
import { Project, type Entity } from './project.js';
import { Resolver, type Occurrence } from './references.js';
import { factsFor } from './facts-source.js';
import { findUnsure, type UnsureSite } from './unsure.js';
import { dottedPathsInText } from './dotted-strings.js';
import type { SourceText, WorkerPlaces } from './worker-pool.js';

export interface DoctestRequest extends WorkerPlaces {
  repo: Repo;
  tree: string;
  loaded: LoadedProject;
  entities: readonly Entity[];
  oldName: string;
  python: () => Promise<string>;
  factsDir: string;
}

const mentions = (bytes: Uint8Array, name: string) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(name);

const CONFIGS = ['pyproject.toml', 'pytest.ini', 'setup.cfg', 'tox.ini'];

/**
 * Docs files (.md, .rst, .txt) with their contents, and which of them the project's pytest config collects as doctests
 * (`--doctest-glob`): a .txt file counts only then; Markdown and reStructuredText always do.
 */
async function docsFiles(repo: Repo, tree: string, allPaths: ReadonlySet<string>): Promise<{ bytes: Map<string, Uint8Array>; doctests: Set<string> }> {
  // The repository's docs and pytest settings, wherever tug was started (the scope never shrinks to a subdirectory).
  const configPaths = CONFIGS.filter((p) => allPaths.has(p));
  const configEntries = configPaths.length > 0 ? await listTreePaths(repo, tree, configPaths) : [];
  const configBlobs = await readTreeBlobs(repo, configEntries);
  const globs = doctestGlobs(configEntries.map((e) => Buffer.from(configBlobs.get(e.oid)!).toString('utf8')));
  const collected = doctestCollector(globs);
  // Markdown and reStructuredText for their code blocks; plain text only when pytest collects it.
  const wanted = [...allPaths].filter((p) => (/\.(md|rst)$/.test(p) || (p.endsWith('.txt') && collected(p))));
  if (wanted.length === 0) return { bytes: new Map(), doctests: new Set() };
  const entries = await listTreePaths(repo, tree, wanted);
  const blobs = await readTreeBlobs(repo, entries);
  return {
    bytes: new Map(entries.map((e) => [e.path, blobs.get(e.oid)!])),
    doctests: new Set(wanted.filter(collected)),
  };
}

/** Facts for the examples; a file whose examples do not parse as one text is left out (and reported). */
async function exampleFacts(request: Omit<DoctestRequest, 'entities'>, docs: DoctestText[]): Promise<{ facts: Map<string, Facts>; unparsed: string[] }> {
  const files: SourceText[] = docs.map((d) => ({ path: d.file, oid: blobOid(Buffer.from(d.text, 'utf8')), text: d.text }));
  const places = { workersDir: request.workersDir, ...(request.launchMemo ? { launchMemo: request.launchMemo } : {}) };
  const result = await factsFor({ python: request.python, cacheDir: `${request.factsDir}/doctests`, ...places, files, skipUnparsable: true });
  return { facts: result.facts, unparsed: (result.unparsable ?? []).map((u) => u.path) };
}

/**
 * The examples that mention `oldName` as a project: the code's files plus one virtual file per example text
 * (`file#doctest`, `file#code`), resolved together, with the way back from a virtual span to the real file.
 */
export interface ExampleProject {
  resolver: Resolver;
  /** Each example text by its virtual path. */
  docs: Map<string, DoctestText>;
  /** A virtual span → its real file and span; null for tug's prefix and for the code's own files. */
  real(file: string, span: Span): { file: string; span: Span } | null;
  /** Files whose examples could not be read (real paths). */
  unparsed: string[];
  /** The docs files (.md, .rst, collected .txt) by path. */
  bytes: Map<string, Uint8Array>;
}

/**
 * Example projects already built, by the loaded project they extend: a loaded project never changes and the docs come
 * from the same immutable tree, so a warm call (daemon, MCP server, library) asking about the same name reuses one
 * instead of scanning, reading the docs and resolving again (~85 ms a call on the stdlib plus dist-packages).
 */
const builtExamples = new WeakMap<Project, Map<string, Promise<ExampleProject>>>();
const EXAMPLES_PER_PROJECT = 8;

export function exampleProject(request: Omit<DoctestRequest, 'entities'>): Promise<ExampleProject> {
  const key = [request.repo.commonDir, request.tree, request.factsDir, request.oldName].join('\0');
  let built = builtExamples.get(request.loaded.project);
  if (!built) builtExamples.set(request.loaded.project, (built = new Map()));
  const known = built.get(key);
  if (known) return known;
  const building = buildExampleProject(request);
  built.set(key, building);
  if (built.size > EXAMPLES_PER_PROJECT) built.delete(built.keys().next().value!);
  building.catch(() => built.get(key) === building && built.delete(key));
  return building;
}

async function buildExampleProject(request: Omit<DoctestRequest, 'entities'>): Promise<ExampleProject> {
  const { loaded, oldName } = request;
  const docs: Array<DoctestText & { part?: 'code' }> = [];
  for (const info of loaded.project.files.values()) {
    const bytes = loaded.bytesOf.get(info.file);
    if (!bytes || info.file.endsWith('.pyi') || !mentions(bytes, oldName)) continue;
    // Examples in a docstring run with the module's globals.
    const names = [...info.globals.keys()].sort();
    const doc = doctestText(info.file, bytes, names.length > 0 ? `from ${info.module} import (${names.join(', ')})\n` : '');
    if (doc) docs.push(doc);
  }
  const { bytes: docFiles, doctests } = await docsFiles(request.repo, request.tree, loaded.allPaths);
  for (const [file, bytes] of docFiles) {
    if (!mentions(bytes, oldName)) continue;
    // A Markdown or reStructuredText example is code whoever runs it (pytest, Sphinx's doctest, a test's own
    // loader): it follows the rename. Plain text only when pytest collects it.
    const examples = doctests.has(file) || /\.(md|rst)$/.test(file) ? doctestText(file, bytes) : null;
    const code = codeBlockText(file, bytes);
    if (examples) docs.push(examples);
    if (code) docs.push({ ...code, part: 'code' });
  }
  if (docs.length === 0) return { resolver: loaded.resolver, docs: new Map(), real: () => null, unparsed: [], bytes: docFiles };
  const virtualPath = (doc: { file: string; part?: 'code' }) => `${doc.file}#${doc.part ?? 'doctest'}`;
  const { facts, unparsed } = await exampleFacts(request, docs.map((d) => ({ ...d, file: virtualPath(d) })));
  const all = new Map<string, Facts>();
  const byFile = new Map(loaded.project.modules.byFile);
  const byName = new Map(loaded.project.modules.byName);
  for (const info of loaded.project.files.values()) all.set(info.file, info.facts);
  docs.forEach((doc, i) => {
    const example = facts.get(virtualPath(doc));
    if (!example) return;
    all.set(virtualPath(doc), example);
    byFile.set(virtualPath(doc), `__tug_doctest_${i}`);
    byName.set(`__tug_doctest_${i}`, virtualPath(doc));
  });
  const resolver = new Resolver(new Project({ byFile, byName }, all));
  const byVirtual = new Map(docs.map((d) => [virtualPath(d), d]));
  const real = (file: string, span: Span): { file: string; span: Span } | null => {
    const doc = byVirtual.get(file);
    const start = doc ? realOffset(doc, span[0]) : null;
    return doc && start !== null ? { file: doc.file, span: [start, start + (span[1] - span[0])] } : null;
  };
  return { resolver, docs: byVirtual, real, unparsed: [...new Set(unparsed.map((f) => f.replace(/#(doctest|code)$/, '')))], bytes: docFiles };
}

/**
 * An example's receiver is as untyped as any (`>>> root.get_method('GET')`): listed as in the code, in the real files.
 * With `only` (the examples' virtual paths), the code's own files are not searched: their sites map to no example.
 */
export function exampleUnsure(examples: ExampleProject, entity: Entity, name: string, occurrences: readonly Occurrence[], only?: ReadonlySet<string>): UnsureSite[] {
  const out: UnsureSite[] = [];
  for (const site of findUnsure(examples.resolver, entity, name, occurrences, only)) {
    const place = examples.real(site.file, site.span);
    if (place) out.push({ ...site, ...place });
  }
  return out;
}

/** The warning for a file whose examples do not parse as one text. */
export function doctestSkipped(file: string, name: string): WarningJSON {
  return { code: 'DoctestSkipped', message: `the doctest examples or Python code blocks in ${file} do not parse; any use of ${name} in them was left unchanged`, location: { file, line: 1, col: 1 } };
}

/** Spans of the symbol's name in doctest examples, by real file; and the files whose examples could not be read. */
export async function doctestOccurrences(request: DoctestRequest): Promise<{ spans: Array<{ file: string; span: Span; keyword?: string }>; dotted: Array<{ file: string; span: Span }>; unsure: UnsureSite[]; unparsed: string[]; bytes: Map<string, Uint8Array> }> {
  const { loaded, oldName } = request;
  const examples = await exampleProject(request);
  const { resolver, docs, real, unparsed, bytes: docFiles } = examples;
  if (docs.size === 0) return { spans: [], dotted: [], unsure: [], unparsed, bytes: docFiles };
  const spans: Array<{ file: string; span: Span; keyword?: string }> = [];
  const unsure = new Map<string, UnsureSite>();
  // Only the examples are searched: an occurrence in the code's own files maps to no example (`real` is null there),
  // and the rename found those already; resolving them again in this second project was most of the doctest search
  // on a large repository (issue 33 step 22).
  const virtual: ReadonlySet<string> = new Set(docs.keys());
  for (const entity of request.entities) {
    const occurrences = resolver.occurrences(entity, virtual);
    for (const o of occurrences) {
      const place = real(o.file, o.span);
      if (place) spans.push(o.keyword === undefined ? place : { ...place, keyword: o.keyword });
    }
    for (const site of exampleUnsure(examples, entity, oldName, occurrences, virtual)) unsure.set(`${site.file}:${site.span[0]}`, site);
  }
  // The docs' text outside the examples (expected output, prose) names the symbol by its dotted path at times.
  const dotted: Array<{ file: string; span: Span }> = [];
  for (const [file, bytes] of docFiles) {
    if (!mentions(bytes, oldName)) continue;
    for (const span of dottedPathsInText(loaded.project, resolver, request.entities, oldName, Buffer.from(bytes).toString('utf8'))) dotted.push({ file, span });
  }
  return { spans, dotted, unsure: [...unsure.values()], unparsed, bytes: docFiles };
}
