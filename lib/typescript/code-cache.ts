// Runs the TypeScript compiler's CommonJS main file through a V8 code cache, as lib/cli/bundle-loader.ts runs the CLI:
// compiling typescript.js (9 MB) and the functions a rename calls cost each cold process ~0.2 s of CPU, which the cache
// spares the next one. (Node 22's module.enableCompileCache does this for tsc and tsserver; Node 20 has only cachedData.)
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { mark } from '../core/timing.js';
import { codeCacheDir, touchCodeCache, writeCodeCacheFile } from '../workspace/user-cache.js';

/**
 * `file`'s exports, run as Node runs a CommonJS module (its `require` resolves from it). The cache sits beside the
 * CLI's in the user's cache directory; `TUG_CODE_CACHE=0` turns both off (then Node's own require loads the file).
 */
export function requireWithCodeCache(file: string, env: NodeJS.ProcessEnv = process.env): unknown {
  const cache = cacheOf(file, env);
  if (!cache) return createRequire(file)(file);
  const cachedData = readCache(cache);
  let script: vm.Script;
  try {
    script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`, { filename: file, ...(cachedData ? { cachedData } : {}) });
  } catch {
    // Not a CommonJS script after all (a compiler shipped as an ES module): Node loads it its own way.
    return createRequire(file)(file);
  }
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, path.dirname(file));
  const used = cachedData !== undefined && !script.cachedDataRejected;
  mark(`typescript: compiler loaded (code cache ${used ? 'used' : 'made at exit'})`);
  // Made at exit, so the functions this process compiled while it worked are in it too.
  if (used) touchCodeCache(cache.file);
  else process.once('exit', () => writeCodeCacheFile(cache.file, cache.key, script.createCachedData()));
  return module.exports;
}

interface Cache {
  file: string;
  /** The compiler file's size and time and the runtime: V8 itself checks a cache against the source's length only. */
  key: string;
}

/** One file per compiler file and Node flags (the daemon runs with --expose-gc; NODE_OPTIONS too), so a new install replaces it. */
function cacheOf(file: string, env: NodeJS.ProcessEnv): Cache | null {
  const dir = codeCacheDir(env);
  if (dir === null) return null;
  const info = statSync(file, { throwIfNoEntry: false });
  if (!info) return null;
  const id = createHash('sha256').update(JSON.stringify([file, process.execArgv, env['NODE_OPTIONS'] ?? ''])).digest('hex').slice(0, 16);
  const key = createHash('sha256').update(JSON.stringify([info.size, info.mtimeMs, process.version, process.arch])).digest('hex');
  return { file: path.join(dir, `typescript-${id}.v8cache`), key };
}

/** The first line is the key; V8's bytes follow. Another key (another install, another Node) means no cache. */
function readCache(cache: Cache): Buffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(cache.file);
  } catch {
    return undefined;
  }
  const newline = data.indexOf(0x0a);
  if (newline === -1 || data.toString('latin1', 0, newline) !== cache.key) return undefined;
  return data.subarray(newline + 1);
}

