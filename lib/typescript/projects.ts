// The TypeScript projects of a snapshot: one per tsconfig.json/jsconfig.json (project references followed to their sources), and inferred ones for the script files no config covers, each a language service over the snapshot's files.
import path from 'node:path';
import type * as TS from 'typescript';
import type { TypeScriptModule } from './load.js';
import type { SnapshotFileSystem } from './file-system.js';
import { inNodeModules, isScriptFile } from './files.js';
import { keptResolutions, moduleResolutions } from './module-resolutions.js';
import { trialRegistry } from './trial-registry.js';

export interface TsProject {
  /** Repository path of the config, or null for an inferred project. */
  config: string | null;
  service: TS.LanguageService;
  /** Absolute root files. */
  fileNames: string[];
  options: TS.CompilerOptions;
  references: readonly TS.ProjectReference[];
  /**
   * A second language service over the same files, made when first asked and kept with the project, which reads its
   * own overlay's texts in place of theirs (trial.ts): what the completeness check asks, so `service` stays on the
   * snapshot's program, and each check's program is built from the last check's (only the files whose text changed).
   */
  trial(): { service: TS.LanguageService; overlay: Overlay };
}

const CONFIG_NAMES = new Set(['tsconfig.json', 'jsconfig.json']);

/**
 * Text the caller put in place of a file's snapshot text (the completeness check's renamed files). Each text put in
 * gets a version of its own whatever the caller passes: the document registry, shared by warm language services,
 * hands back the file it parsed for a version, so two texts must never share one.
 */
export class Overlay extends Map<string, { text: string; version: number }> {
  private count = 0;
  /** The files put in that the snapshot lacks: while there are any, what exists is not the snapshot's. */
  private readonly added = new Set<string>();
  constructor(private readonly exists: (file: string) => boolean) {
    super();
  }
  override set(file: string, value: { text: string; version: number }): this {
    if (!this.exists(file)) this.added.add(file);
    return super.set(file, { text: value.text, version: ++this.count });
  }
  override delete(file: string): boolean {
    this.added.delete(file);
    return super.delete(file);
  }
  override clear(): void {
    this.added.clear();
    super.clear();
  }
  addsFiles(): boolean {
    return this.added.size > 0;
  }
}

export class TsProjects {
  private readonly registry: TS.DocumentRegistry;
  /** The registry itself, without keepingSnapshotFiles' wrapper: the trial services wrap it their own way. */
  private readonly shared: TS.DocumentRegistry;
  readonly overlay: Overlay;
  private built: TsProject[] | undefined;
  /** Config problems, reported as warnings (a config that does not parse still leaves its files to an inferred project). */
  readonly problems: Array<{ config: string; message: string }> = [];

  /** `registry` is a warm workspace's, kept across snapshots so unchanged files are not parsed again (warm.ts). */
  constructor(
    private readonly ts: TypeScriptModule,
    private readonly fs: SnapshotFileSystem,
    registry?: TS.DocumentRegistry,
  ) {
    this.shared = registry ?? ts.createDocumentRegistry(true, fs.root);
    this.registry = keepingSnapshotFiles(ts, this.shared);
    this.overlay = new Overlay((file) => fs.fileExists(file));
  }

  /** Releases the services' files from the registry (a warm workspace rebuilt or evicted). */
  dispose(): void {
    for (const project of this.built ?? []) project.service.dispose();
    for (const dispose of this.trials) dispose();
    this.trials.length = 0;
    this.built = undefined;
  }

  /** How to dispose of the trial services made so far (each project's, when the completeness check first asked). */
  private readonly trials: Array<() => void> = [];

  /** Config files of the snapshot, outside installed packages, nearest the root first. */
  configs(paths: Iterable<string>): string[] {
    return [...paths].filter((p) => CONFIG_NAMES.has(path.posix.basename(p)) && !inNodeModules(p)).sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
  }

  all(scriptPaths: readonly string[], configPaths: readonly string[]): TsProject[] {
    if (this.built) return this.built;
    const { ts, fs } = this;
    const projects: TsProject[] = [];
    const covered = new Set<string>();
    const parsedByDir = new Map<string, TS.ParsedCommandLine>();
    for (const config of configPaths) {
      const parsed = this.parseConfig(config);
      if (!parsed) continue;
      parsedByDir.set(path.posix.dirname(config), parsed);
      for (const f of parsed.fileNames) covered.add(path.resolve(f));
      projects.push(this.project(config, parsed.fileNames.map((f) => path.resolve(f)), parsed.options, parsed.projectReferences ?? []));
    }
    // Files no config lists (tests a build config excludes, plain JavaScript) get the options of the nearest config above them.
    const groups = new Map<string, string[]>();
    for (const file of scriptPaths.map((f) => fs.absolute(f))) {
      if (covered.has(file)) continue;
      const rel = fs.relative(file)!;
      let owner = '\0';
      for (let dir = path.posix.dirname(rel); ; dir = path.posix.dirname(dir)) {
        if (parsedByDir.has(dir)) {
          owner = dir;
          break;
        }
        if (dir === '.' || dir === '') break;
      }
      const list = groups.get(owner) ?? [];
      if (!list.includes(file)) list.push(file);
      groups.set(owner, list);
    }
    for (const [owner, files] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const base = parsedByDir.get(owner)?.options ?? this.defaultOptions();
      projects.push(this.project(null, files.sort(), { ...base, allowJs: true, noEmit: true, composite: false }, []));
    }
    this.built = projects;
    return projects;
  }

  /** What tsserver's inferred projects assume for loose JavaScript: modern syntax, JSX kept, any module form resolved. */
  private defaultOptions(): TS.CompilerOptions {
    const { ts } = this;
    const bundler = (ts.ModuleResolutionKind as unknown as Record<string, number>)['Bundler'];
    return {
      allowJs: true,
      checkJs: false,
      noEmit: true,
      target: ts.ScriptTarget.ESNext,
      module: ts.ModuleKind.ESNext,
      moduleResolution: bundler ?? ts.ModuleResolutionKind.NodeJs,
      jsx: ts.JsxEmit.Preserve,
      resolveJsonModule: true,
      esModuleInterop: true,
      allowSyntheticDefaultImports: true,
      maxNodeModuleJsDepth: 0,
    };
  }

  private parseConfig(config: string): TS.ParsedCommandLine | null {
    const { ts, fs } = this;
    const absolute = fs.absolute(config);
    const read = ts.readConfigFile(absolute, (p) => fs.readFile(p));
    if (read.error) {
      this.problems.push({ config, message: ts.flattenDiagnosticMessageText(read.error.messageText, '\n') });
      return null;
    }
    const host: TS.ParseConfigHost = {
      useCaseSensitiveFileNames: true,
      readDirectory: (root, extensions, excludes, includes, depth) => this.readDirectory(root, extensions, excludes, includes, depth),
      fileExists: (p) => fs.fileExists(p),
      readFile: (p) => fs.readFile(p),
    };
    return ts.parseJsonConfigFileContent(read.config, host, path.dirname(absolute), undefined, absolute);
  }

  readDirectory(root: string, extensions?: readonly string[], excludes?: readonly string[], includes?: readonly string[], depth?: number): string[] {
    const { fs } = this;
    // matchFiles is the compiler's own glob walk (what ts.sys uses), driven here by the snapshot's directory listing.
    const matchFiles = (this.ts as unknown as { matchFiles: (...args: unknown[]) => string[] }).matchFiles;
    return matchFiles(root, extensions, excludes, includes, true, fs.root, depth, (p: string) => fs.entries(p), (p: string) => fs.realpath(p));
  }

  private project(config: string | null, fileNames: string[], options: TS.CompilerOptions, references: readonly TS.ProjectReference[]): TsProject {
    const { ts, fs } = this;
    const directory = config ? path.dirname(fs.absolute(config)) : fs.root;
    // One module-resolution cache for the project, shared by its service and the check's trial services.
    const resolutions = keptResolutions();
    const hostOver = (overlay: Overlay) => {
      const host: TS.LanguageServiceHost & { useSourceOfProjectReferenceRedirect(): boolean } = {
        getCompilationSettings: () => options,
        getScriptFileNames: () => fileNames,
        // Overlay and snapshot versions never meet: `o1` is a text the caller put in, `1` the snapshot's own.
        getScriptVersion: (f) => (overlay.has(f) ? `o${overlay.get(f)!.version}` : String(fs.version(f))),
        getScriptSnapshot: (f) => {
          if (!overlay.has(f) && fs.readsDisk(f)) return fs.fileExists(f) ? diskSnapshot(ts, () => fs.readFile(f) ?? '') : undefined;
          const text = overlay.get(f)?.text ?? fs.readFile(f);
          return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
        },
        getCurrentDirectory: () => directory,
        getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
        fileExists: (p) => overlay.has(p) || fs.fileExists(p),
        readFile: (p) => overlay.get(p)?.text ?? fs.readFile(p),
        readDirectory: (root, extensions, excludes, includes, depth) => this.readDirectory(root, extensions, excludes, includes, depth),
        directoryExists: (p) => fs.directoryExists(p),
        getDirectories: (p) => fs.getDirectories(p),
        realpath: (p) => fs.realpath(p),
        useCaseSensitiveFileNames: () => true,
        getProjectReferences: () => references,
        // As tsserver does: a referenced project is read from its sources, not its built .d.ts, so a rename reaches it.
        useSourceOfProjectReferenceRedirect: () => true,
      };
      Object.assign(host, moduleResolutions(ts, directory, options, host, () => overlay.addsFiles(), resolutions));
      return host;
    };
    let trial: ReturnType<TsProject['trial']> | undefined;
    const makeTrial = () => {
      const overlay = new Overlay((file) => fs.fileExists(file));
      const made = { overlay, service: ts.createLanguageService(hostOver(overlay), trialRegistry(ts, this.shared)) };
      this.trials.push(() => made.service.dispose());
      return made;
    };
    return {
      config,
      service: ts.createLanguageService(hostOver(this.overlay), this.registry),
      fileNames,
      options,
      references,
      trial: () => (trial ??= makeTrial()),
    };
  }
}

/**
 * The shared registry, except that a service moving a file to a text the caller put in (an overlay version, `o…`) gets
 * that text parsed for itself, and the registry keeps the snapshot's file: going back to the snapshot after the
 * completeness check then parses nothing again (it parsed every renamed file twice, each warm rename). Only updates
 * are kept out: a service holds its one count on the file from acquiring it, whatever text it moves to since.
 */
function keepingSnapshotFiles(ts: TypeScriptModule, shared: TS.DocumentRegistry): TS.DocumentRegistry {
  return {
    ...shared,
    updateDocumentWithKey(fileName, path, settings, key, snapshot, version, kind, options) {
      if (!version.startsWith('o')) return shared.updateDocumentWithKey(fileName, path, settings, key, snapshot, version, kind, options);
      const host = settings as TS.MinimalResolutionCacheHost;
      const target = options ?? (typeof host.getCompilationSettings === 'function' ? host.getCompilationSettings() : (settings as TS.CompilerOptions)).target ?? ts.ScriptTarget.ES5;
      return ts.createLanguageServiceSourceFile(fileName, snapshot, target, version, false, kind);
    },
  };
}

/**
 * A file on disk (a compiler lib, an installed package) read only when the service parses it. The service asks for the
 * snapshot of every file each time it builds a program, before it sees that the version (always 0 for these) is the
 * one it parsed: read eagerly, the compiler's libs (~1 MB) were read again at every program (twice per warm rename).
 */
function diskSnapshot(ts: TypeScriptModule, read: () => string): TS.IScriptSnapshot {
  let text: TS.IScriptSnapshot | undefined;
  const loaded = () => (text ??= ts.ScriptSnapshot.fromString(read()));
  return {
    getText: (start, end) => loaded().getText(start, end),
    getLength: () => loaded().getLength(),
    getChangeRange: () => undefined,
  };
}

/** Whether a file is one tug may edit: a script of the snapshot, outside installed packages. */
export function editable(fs: SnapshotFileSystem, absolute: string, paths: ReadonlySet<string>): string | null {
  const rel = fs.relative(absolute);
  return rel !== null && !inNodeModules(rel) && paths.has(rel) && isScriptFile(rel) ? rel : null;
}
