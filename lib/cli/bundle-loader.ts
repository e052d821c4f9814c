// Starts the CLI from its one-file CommonJS bundle through V8's code cache: Node 20 caches no compiled code for ES modules, and compiling tug's code was most of a cold start.
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import type { CliIO } from './io.js';

/** Built by `npm run build` next to dist/lib/cli/, so paths relative to `import.meta.url` resolve as they do in the plain modules. */
const BUNDLE = fileURLToPath(new URL('../cli-bundle/main.cjs', import.meta.url));

/**
 * The parameters the bundle's code expects: CommonJS's five, what esbuild put in place of `import.meta.url`, and an
 * `import()` for the review TUI (an ES module). Code that V8 restores from a cache cannot run `import()` itself in
 * Node 20 ("A dynamic import callback was not specified"), so this module, a real ES module, does it.
 */
const WRAPPER_PARAMS = 'exports, require, module, __filename, __dirname, __tugImportMetaUrl, __tugImport';
const importModule = (url: string): Promise<unknown> => import(url);

export interface BundledCli {
  main(argv: readonly string[], io?: CliIO): Promise<number>;
  /** Writes the code cache when this process had none it could use; call it once the command ran, so the cache holds what it compiled. */
  saveCodeCache(): void;
}

/** The bundled CLI, or null when the build did not make one (the caller then loads the plain modules). */
export function loadBundledCli(env: NodeJS.ProcessEnv = process.env): BundledCli | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(BUNDLE);
  } catch {
    return null;
  }
  // V8 checks a cache against the source's length only, so the key names the exact bytes and the runtime that compiled them.
  const key = createHash('sha256').update(bytes).update(`\0${process.version}\0${process.arch}`).digest('hex');
  const cacheFile = codeCacheFile(env);
  const cachedData = cacheFile ? readCodeCache(cacheFile, key) : undefined;
  // The build writes ASCII, for which latin1 decoding is a plain copy into a one-byte string.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const script = new vm.Script(`(function (${WRAPPER_PARAMS}) {${source}\n})`, { filename: BUNDLE, cachedData });
  const module = { exports: {} as { main?: BundledCli['main'] } };
  script.runInThisContext()(module.exports, createRequire(BUNDLE), module, BUNDLE, path.dirname(BUNDLE), pathToFileURL(BUNDLE).href, importModule);
  const main = module.exports.main;
  if (typeof main !== 'function') return null;
  const stale = cacheFile !== null && (cachedData === undefined || script.cachedDataRejected === true);
  return {
    main,
    saveCodeCache: () => {
      if (stale) writeCodeCache(cacheFile, key, script.createCachedData());
    },
  };
}

/**
 * One file per installed bundle (named by its path) under the user's cache dir, so a rebuild replaces it instead of
 * piling up; `TUG_CODE_CACHE=0` turns the cache off.
 */
function codeCacheFile(env: NodeJS.ProcessEnv): string | null {
  if (env['TUG_CODE_CACHE'] === '0') return null;
  const base = env['XDG_CACHE_HOME'] || (os.homedir() ? path.join(os.homedir(), '.cache') : '');
  if (!base || !path.isAbsolute(base)) return null;
  const id = createHash('sha256').update(BUNDLE).digest('hex').slice(0, 16);
  return path.join(base, 'tug', `cli-${id}.v8cache`);
}

/** The file holds the key on its first line, then V8's bytes; any other key (another build or Node) means no cache. */
function readCodeCache(file: string, key: string): Buffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return undefined;
  }
  const header = `${key}\n`;
  if (data.length <= header.length || data.toString('latin1', 0, header.length) !== header) return undefined;
  return data.subarray(header.length);
}

/** Best effort and atomic: a reader sees the old file or the whole new one, and a cache that cannot be written is simply not used. */
function writeCodeCache(file: string, key: string, data: Buffer): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(temp, Buffer.concat([Buffer.from(`${key}\n`, 'latin1'), data]));
    renameSync(temp, file);
  } catch {
    rmSync(temp, { force: true });
  }
}
