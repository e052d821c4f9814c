// Loads the TypeScript compiler: the project's own installed `typescript` when it has one, else tug's. Only this adapter requires it, on first use, so no Python or Rust command pays for it.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TS from 'typescript';
import { requireWithCodeCache } from './code-cache.js';

export type TypeScriptModule = typeof TS;

export interface LoadedTypeScript {
  ts: TypeScriptModule;
  version: string;
  /** `project`: `<repo>/node_modules/typescript` (or a parent package's); `tug`: the copy tug depends on. */
  source: 'project' | 'tug';
  /** The package directory the compiler was loaded from. */
  dir: string;
}

/** Oldest compiler tug drives: the language service API it calls (prefix/suffix rename text, organizeImports) is there from 4.0. */
const OLDEST_MAJOR = 4;

const loaded = new Map<string, LoadedTypeScript>();
/** Each compiler's module by its main file's real path. */
const modules = new Map<string, TypeScriptModule>();

/**
 * The project's own compiler is `node_modules/typescript` in the package directory of `dir` or above it, up to the
 * repository root, installed by the user's package manager. A copy committed to the repository (`tracked` says so) is
 * never loaded: it would be the repository choosing code for tug to run in its own process.
 */
export function projectTypeScript(root: string, dir: string, tracked: (repoPath: string) => boolean): string | null {
  for (let current = dir; ; current = path.dirname(current)) {
    const candidate = path.join(current, 'node_modules', 'typescript');
    const manifest = path.join(candidate, 'package.json');
    const rel = path.relative(root, manifest).split(path.sep).join('/');
    if (existsSync(manifest) && !tracked(rel)) {
      const version = versionOf(candidate);
      if (version && Number(version.split('.')[0]) >= OLDEST_MAJOR) return candidate;
    }
    if (current === root || path.dirname(current) === current) return null;
  }
}

function versionOf(dir: string): string | null {
  try {
    return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

/**
 * The compiler from `dir` (a package directory), or tug's own when `dir` is null; each compiler file is loaded once, so
 * a project whose `node_modules/typescript` is tug's own copy (a link) does not load the same 9 MB twice.
 */
export function loadTypeScript(dir: string | null): LoadedTypeScript {
  const source = dir === null ? 'tug' : 'project';
  const cacheKey = `${source}\0${dir ?? ''}`;
  const known = loaded.get(cacheKey);
  if (known) return known;
  // createRequire keeps the compiler out of the CLI bundle: it is read from node_modules when a TypeScript command runs.
  const real = dir === null ? null : realpathSync(dir);
  const main = real === null ? createRequire(import.meta.url).resolve('typescript') : createRequire(path.join(real, 'package.json')).resolve(real);
  const file = realpathSync(main);
  let ts = modules.get(file);
  if (!ts) {
    ts = requireWithCodeCache(file) as TypeScriptModule;
    modules.set(file, ts);
  }
  const result: LoadedTypeScript = { ts, version: ts.version, source, dir: real ?? path.dirname(path.dirname(main)) };
  loaded.set(cacheKey, result);
  return result;
}
