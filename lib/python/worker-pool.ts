// Facts for many files: cached ones from disk, the rest parsed by up to two workers in parallel (one per core).
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import type { Facts } from './facts.js';
import { FactsCache } from './facts-cache.js';
import { countWarm, onRelease } from '../ops/resources.js';
import { PythonWorker } from './worker.js';

export const WORKER_SCRIPT = fileURLToPath(new URL('../../../python-worker/tug_worker.py', import.meta.url));

export interface SourceText {
  path: string;
  oid: string;
  text: string;
}

export interface FactsRequest {
  /** Resolved only when some file is not cached: a fully warm run never starts Python. */
  python: () => Promise<string>;
  cacheDir: string;
  workersDir: string;
  files: readonly SourceText[];
  maxWorkers?: number;
}

interface BatchResult {
  results: Array<{ path: string; ok: boolean; facts?: Facts; error?: { code: string; message: string; details?: Record<string, unknown> } }>;
}

const BATCH = 40;

/**
 * Workers stay alive for the life of the process: a daemon or MCP server answers the next request with
 * warm interpreters. Short-lived callers (the CLI) end them with shutdownWorkers().
 */
const pool = new Map<string, PythonWorker[]>();

async function workersFor(python: string, count: number, workersDir: string): Promise<PythonWorker[]> {
  const alive = (pool.get(python) ?? []).filter((w) => w.alive);
  while (alive.length < count) {
    alive.push(await PythonWorker.start({ python, script: WORKER_SCRIPT, pidFile: path.join(workersDir, `python-${process.pid}-${alive.length}.pid`) }));
  }
  pool.set(python, alive);
  onRelease(shutdownWorkers);
  countWarm('python_workers', () => [...pool.values()].flat().filter((w) => w.alive).length);
  return alive.slice(0, count);
}

export async function shutdownWorkers(): Promise<void> {
  const all = [...pool.values()].flat();
  pool.clear();
  await Promise.all(all.map((w) => w.shutdown()));
}

export async function factsFor(request: FactsRequest): Promise<{ facts: Map<string, Facts>; parsed: number }> {
  const cache = new FactsCache(request.cacheDir);
  const facts = new Map<string, Facts>();
  const missing: SourceText[] = [];
  const cached = await Promise.all(request.files.map((file) => cache.get<Facts>(file.oid)));
  request.files.forEach((file, i) => {
    const hit = cached[i];
    if (hit) facts.set(file.path, hit);
    else missing.push(file);
  });
  if (missing.length === 0) return { facts, parsed: 0 };
  const count = Math.max(1, Math.min(request.maxWorkers ?? os.availableParallelism(), 2, Math.ceil(missing.length / BATCH)));
  const python = await request.python();
  const workers = await workersFor(python, count, request.workersDir);
  if (!workers[0]!.ready.libcst) {
    // Facts alone would not need it, but the Python adapter's structural rewrites do: say so up front.
    throw new TugError('LibCSTNotAvailable', `LibCST is not importable by ${python}`, {
      details: { python_path: python, remedy: `${python} -m pip install libcst, or pass --python / run \`tug toolchain python setup\` with an interpreter that has it` },
    });
  }
  const writes: Array<Promise<void>> = [];
  try {
    const queue = [...missing];
    await Promise.all(
      workers.map(async (worker) => {
        for (let batch = queue.splice(0, BATCH); batch.length > 0; batch = queue.splice(0, BATCH)) {
          const reply = await worker.request<BatchResult>('facts_batch', { files: batch.map((f) => ({ path: f.path, content: f.text })) }, 120_000);
          for (const [i, result] of reply.results.entries()) {
            const source = batch[i]!;
            if (!result.ok || !result.facts) {
              const details = result.error?.details ?? {};
              throw new TugError('SourceSyntaxError', `${source.path}:${details['line'] ?? '?'}: ${result.error?.message ?? 'cannot parse'}`, {
                details: { file: source.path, line: details['line'] ?? null, col: details['col'] ?? null, message: result.error?.message ?? '' },
              });
            }
            facts.set(source.path, result.facts);
            writes.push(cache.put(source.oid, result.facts));
          }
        }
      }),
    );
  } catch (error) {
    // A worker that failed mid-batch may be in any state: start clean next time.
    await Promise.all(workers.map((w) => w.shutdown()));
    throw error;
  }
  await Promise.all(writes);
  return { facts, parsed: missing.length };
}
