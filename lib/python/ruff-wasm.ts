// ruff's WebAssembly for organize-imports, compiled off the main thread and, for the functions a check calls, before
// the first call. V8 compiles a WebAssembly function when it is first called, one at a time on the main thread: a
// first check compiled ~650 of ruff's functions that way (~220 ms here). The build records which functions checking
// tug's own Python calls (scripts/ruff-hints.mjs); a worker thread (ruff-compile.ts) marks them in a
// compilation-hints section and compiles, on its own thread and V8's, while the files are read and the worker's engine
// answers. It starts only once organize-imports knows a file needs ruff: most calls never need it. A hint changes when a function is compiled, never what it does: a missing or stale list only costs time.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import vm from 'node:vm';
import { mark } from '../core/timing.js';
import type { Worker } from 'node:worker_threads';
import type { CompileRequest } from './ruff-compile.js';

export type RuffModule = typeof import('@astral-sh/ruff-wasm-nodejs');

/** Built by `npm run build`; the same paths from dist/lib/python/ and from the bundles in dist/lib/cli-bundle/. */
const HINTS = fileURLToPath(new URL('../ruff-hints.json', import.meta.url));
const COMPILER = new URL('../python/ruff-compile.js', import.meta.url);
const PACKAGE = '@astral-sh/ruff-wasm-nodejs';
/** The glue's own compile step, which tug answers with the module compiled by the worker (see instantiate). */
const GLUE_COMPILE = 'new WebAssembly.Module(wasmBytes)';

interface Compiling {
  worker: Worker;
  module: Promise<object | null>;
  loaded?: Promise<RuffModule>;
}

/** Shared through the process: the launcher may start the compile, and the CLI (another bundle) uses it. */
const SLOT = Symbol.for('tug.ruffWasm');
const slot = globalThis as { [SLOT]?: Compiling };

/**
 * Starts compiling ruff in a worker thread without waiting for it. The worker does not keep the process alive: a
 * command that fails before it checks a file exits at once.
 */
export function warmRuff(): void {
  if (slot[SLOT]) return;
  setWasmFlags();
  const request: CompileRequest = { tugRuffCompile: true, wasm: path.join(path.dirname(gluePath()), 'ruff_wasm_bg.wasm'), hints: HINTS };
  // Loaded here, not with this module: the launcher bundles this file, and every other command would pay for it.
  const { Worker: WorkerThread } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
  const worker = new WorkerThread(COMPILER, { workerData: request });
  worker.unref();
  const module = new Promise<object | null>((resolve) => {
    worker.once('message', (compiled: object) => resolve(compiled));
    worker.once('error', () => resolve(null));
    worker.once('exit', () => resolve(null));
  });
  slot[SLOT] = { worker, module };
  mark('ruff: compile started');
}

/**
 * V8's flags for ruff's WebAssembly (they concern WebAssembly only; ruff is tug's only module). Baseline code only:
 * V8 would otherwise optimize hot functions on background threads, and a process cannot exit before that ends (~2 s
 * more for a one-shot command); each function validated as it is compiled; compilation hints read. Flags are the
 * process's, so they hold in the worker too. bin/tug sets them first in every process: V8 refuses a code cache made
 * under other flags, and the CLI's cache would otherwise be rewritten after every organize-imports.
 */
export function setWasmFlags(): void {
  setFlagsFromString('--liftoff-only');
  setFlagsFromString('--wasm-lazy-validation');
  setFlagsFromString('--experimental-wasm-compilation-hints');
}

/** ruff, loaded once per process (compiled by the worker when that worked, else by the package itself). */
export function loadRuff(): Promise<RuffModule> {
  warmRuff();
  const compiling = slot[SLOT]!;
  // Waited for now: the worker keeps the process alive until it answers.
  compiling.worker.ref();
  compiling.loaded ??= compiling.module.then((compiled) => {
    compiling.worker.unref();
    mark('ruff: compiled');
    const glue = gluePath();
    const source = readFileSync(glue, 'utf8');
    return compiled && source.includes(GLUE_COMPILE) ? instantiate(source, glue, compiled) : (createRequire(import.meta.url)(glue) as RuffModule);
  });
  return compiling.loaded;
}

function gluePath(): string {
  return createRequire(import.meta.url).resolve(PACKAGE);
}

/**
 * Runs the package's glue (wasm-bindgen's CommonJS output, unchanged) with `WebAssembly.Module` answering the module
 * the worker compiled, and its own read of the .wasm skipped; the instance, imports and exports are the glue's own.
 */
function instantiate(source: string, file: string, compiled: object): RuffModule {
  const realRequire = createRequire(file);
  const glueRequire = (id: string): unknown => (id === 'fs' ? { readFileSync: () => new Uint8Array(0) } : realRequire(id));
  const webAssembly: unknown = Object.create(WebAssemblyApi(), { Module: { value: function Module() { return compiled; } } });
  const run = vm.compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname', 'WebAssembly'], { filename: file });
  const module = { exports: {} as RuffModule };
  run(module.exports, glueRequire, module, file, path.dirname(file), webAssembly);
  return module.exports;
}

/** tsconfig's libraries do not declare the WebAssembly namespace. */
function WebAssemblyApi(): object {
  return (globalThis as unknown as { WebAssembly: object }).WebAssembly;
}
