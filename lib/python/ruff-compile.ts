// Runs in a worker thread (lib/python/ruff-wasm.ts): reads ruff's WebAssembly, marks the functions organize-imports
// calls for eager compilation, compiles it, and posts the module back. The compile runs here and on V8's background
// threads while the main thread loads the CLI and asks git for the snapshot; on the main thread it would wait for both.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { withHints } from './ruff-hints.js';

export interface CompileRequest {
  tugRuffCompile: true;
  wasm: string;
  hints: string;
}

/** What scripts/ruff-hints.mjs writes: the wasm file it profiled (by size) and the functions a check called. */
interface HintList {
  wasm_size: number;
  /** Indices among the module's own (not imported) functions. */
  functions: number[];
}

function hintList(file: string): HintList | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as HintList;
    return Number.isInteger(parsed.wasm_size) && Array.isArray(parsed.functions) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

const request = workerData as Partial<CompileRequest> | null;
if (parentPort && request?.tugRuffCompile === true && request.wasm && request.hints) {
  const wasm = readFileSync(request.wasm);
  const hints = hintList(request.hints);
  const hinted = hints && hints.wasm_size === wasm.length ? withHints(wasm, hints.functions) : null;
  // Without a list that fits this file, the compile is lazy as usual (and quick): still off the main thread.
  parentPort.postMessage(new (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => object } }).WebAssembly.Module(hinted ?? wasm));
}
