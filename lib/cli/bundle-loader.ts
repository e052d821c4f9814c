// Starts the CLI from its one-file CommonJS bundle through V8's code cache: Node 20 caches no compiled code for ES modules, and compiling tug's code was most of a cold start.
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import type { CliIO } from './io.js';
import { codeCacheDir, touchCodeCache, writeCodeCacheFile } from '../workspace/user-cache.js';

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
  /**
   * Writes the code cache when this process had none it could use or ran a command the cache had not seen; call it
   * once the command ran, so the cache holds what it compiled (what the cache gave it, and what it compiled itself).
   */
  saveCodeCache(): void;
}

/** The bundled CLI, or null when the build did not make one (the caller then loads the plain modules). */
export function loadBundledCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): BundledCli | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(BUNDLE);
  } catch {
    return null;
  }
  // V8 checks a cache against the source's length only, so the key names the exact bytes and the runtime that compiled them.
  const key = createHash('sha256').update(bytes).update(`\0${process.version}\0${process.arch}`).digest('hex');
  const cacheFile = codeCacheFile(env);
  const cached = cacheFile ? readCodeCache(cacheFile, key) : undefined;
  const cachedData = cached?.data;
  // The build writes ASCII, for which latin1 decoding is a plain copy into a one-byte string.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const script = new vm.Script(`(function (${WRAPPER_PARAMS}) {${source}\n})`, { filename: BUNDLE, cachedData });
  const module = { exports: {} as { main?: BundledCli['main'] } };
  script.runInThisContext()(module.exports, createRequire(BUNDLE), module, BUNDLE, path.dirname(BUNDLE), pathToFileURL(BUNDLE).href, importModule);
  const main = module.exports.main;
  if (typeof main !== 'function') return null;
  // V8 compiles a function on its first call, and a cache holds only what had been compiled when it was made: a
  // command the cache has not seen would otherwise compile its own code on every run.
  const word = argv.find((a) => !a.startsWith('-')) ?? '';
  const command = /^[a-z][a-z0-9_-]*$/i.test(word) ? word : '?';
  const valid = cached !== undefined && script.cachedDataRejected !== true;
  if (valid && cacheFile !== null) touchCodeCache(cacheFile);
  const seen = valid ? cached.commands : [];
  const stale = cacheFile !== null && (!valid || (!seen.includes(command) && seen.length < MAX_COMMANDS));
  return {
    main,
    saveCodeCache: () => {
      if (stale) writeCodeCacheFile(cacheFile, `${key} ${[...seen, command].sort().join(',')}`, script.createCachedData());
    },
  };
}

/**
 * One file per installed bundle (named by its path) and per set of Node flags under the user's cache dir, so a rebuild
 * replaces it instead of piling up (other installs' are pruned: workspace/user-cache.ts); `TUG_CODE_CACHE=0` turns the
 * cache off. V8 rejects a cache made under other flags, and tug starts Node three ways (bin/tug's heap flags; none
 * beside a daemon; the daemon's `--expose-gc`): with one file for all three, each start threw away and rewrote the
 * cache the last one left (~0.1-0.2 s of CPU each time).
 */
function codeCacheFile(env: NodeJS.ProcessEnv): string | null {
  const dir = codeCacheDir(env);
  if (dir === null) return null;
  const flags = JSON.stringify([process.execArgv, env['NODE_OPTIONS'] ?? '']);
  const id = createHash('sha256').update(`${BUNDLE}\0${flags}`).digest('hex').slice(0, 16);
  return path.join(dir, `cli-${id}.v8cache`);
}

/** More distinct first words than tug has commands means they are typos; those do not earn a rewrite. */
const MAX_COMMANDS = 40;

/**
 * The file's first line is the key and the commands the cache has seen, then V8's bytes follow; any other key
 * (another build or Node) means no cache.
 */
function readCodeCache(file: string, key: string): { data: Buffer; commands: string[] } | undefined {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return undefined;
  }
  const newline = data.indexOf(0x0a);
  if (newline === -1 || newline + 1 >= data.length) return undefined;
  const [found, commands = ''] = data.toString('latin1', 0, newline).split(' ');
  if (found !== key) return undefined;
  return { data: data.subarray(newline + 1), commands: commands.split(',') };
}

