// Module resolutions a project keeps across the programs its language service builds: the completeness check's renamed text and the way back re-resolved every import of every renamed file (about a quarter of building a 500-file check's program).
import type * as TS from 'typescript';
import type { TypeScriptModule } from './load.js';

/** Read from the host by the service though left out of the published types: the cache, and the program's own host. */
type ResolvingHost = Pick<TS.LanguageServiceHost, 'resolveModuleNameLiterals'> & {
  getModuleResolutionCache?(): TS.ModuleResolutionCache;
  setCompilerHost?(host: TS.CompilerHost): void;
};

/** A project's kept cache, made by the first of its services to resolve and shared by the others (the check's trial services). */
export interface KeptResolutions {
  cache?: TS.ModuleResolutionCache;
}

export function keptResolutions(): KeptResolutions {
  return {};
}

/**
 * Host methods resolving modules the way the compiler does by default (TypeScript 5.3 and later: `resolveModuleName`
 * with the mode `getModeForUsageLocation` gives, through the program's own compiler host, which a program with project
 * references points at the referenced sources), through one cache per project instead of one per program.
 *
 * The cache holds while the files that exist stay the same: a warm workspace gets new projects (and caches) when a file
 * is added or removed, a JSON file changes or installed packages change (warm.ts), and an edit of a script's text
 * changes no resolution. Only a text put in for a file the snapshot lacks (a move's new module) changes what exists:
 * while `addsFiles()` says so, each program resolves with a cache of its own, as the compiler does, and the kept one
 * is neither read nor written. Older compilers resolve on their own, as before.
 */
export function moduleResolutions(ts: TypeScriptModule, directory: string, options: TS.CompilerOptions, serviceHost: TS.ModuleResolutionHost, addsFiles: () => boolean, shared: KeptResolutions = keptResolutions()): ResolvingHost {
  const [major = 0, minor = 0] = ts.versionMajorMinor.split('.').map(Number);
  if (major < 5 || (major === 5 && minor < 3)) return {};
  const fresh = () => ts.createModuleResolutionCache(directory, (name) => name, options);
  const kept = (shared.cache ??= fresh());
  let own = fresh();
  let compilerHost: TS.ModuleResolutionHost = serviceHost;
  return {
    // The service hands over the host of the program it is about to build, then asks once for that program's cache.
    setCompilerHost: (host) => {
      compilerHost = host;
    },
    getModuleResolutionCache: () => (addsFiles() ? (own = fresh()) : kept),
    resolveModuleNameLiterals(literals, containingFile, redirected, compilerOptions, containingSourceFile) {
      const cache = addsFiles() ? own : kept;
      const modeOptions = redirected?.commandLine.options ?? compilerOptions;
      const seen = new Map<string, TS.ResolvedModuleWithFailedLookupLocations>();
      return literals.map((literal) => {
        const mode = ts.getModeForUsageLocation(containingSourceFile, literal, modeOptions);
        const key = `${mode ?? ''}\0${literal.text}`;
        let resolved = seen.get(key);
        if (!resolved) seen.set(key, (resolved = ts.resolveModuleName(literal.text, containingFile, compilerOptions, compilerHost, cache, redirected, mode)));
        return resolved;
      });
    },
  };
}
