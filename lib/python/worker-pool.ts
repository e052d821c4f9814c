// Facts for many files: the cache lookup by blob id, and parsing in a pool of workers sized by the machine's cores.
import os from 'node:os';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import type { Facts } from './facts.js';
import { FactsCache } from './facts-cache.js';
import { countWarm, onRelease, trackHelper } from '../ops/resources.js';
import { launchMemoFile, resolveShim } from './launcher.js';
import { PythonWorker, WORKER_SCRIPT } from './worker.js';
import { hasEarlyWorker, takeEarlyWorker } from './early-worker.js';
import { mark } from '../core/timing.js';
import { startTimeoutError, withinStartDeadline, workerStartMs } from './start-deadline.js';


export interface SourceText {
  path: string;
  oid: string;
  text: string;
}

export interface ParseRequest extends WorkerPlaces {
  /** Resolved only when some file needs parsing: a fully warm run never starts Python. */
  python: () => Promise<string>;
  files: readonly SourceText[];
  maxWorkers?: number;
  /** Given, a file that does not parse is handed here instead of failing the whole request (SourceSyntaxError). */
  onUnparsable?: (file: SourceText, failure: Omit<Unparsable, 'path'>) => void;
}

/** A file the worker could not parse, and where. */
export interface Unparsable {
  path: string;
  line: number | null;
  col: number | null;
  message: string;
}

/** The facts text the cache has for a set of blobs, and the set's pack key. */
export interface CachedFacts {
  key: string;
  lines: Map<string, string>;
}

/** Looks the blobs up in the facts cache; needs only their ids, so it can run while git reads the contents. */
export async function cachedFacts(cacheDir: string, oids: readonly string[], wanted?: (oid: string) => boolean): Promise<CachedFacts> {
  const key = FactsCache.key(oids);
  return { key, lines: await new FactsCache(cacheDir).lookup(key, wanted) };
}

interface BatchResult {
  results: Array<{ path: string; ok: boolean; facts?: Facts; error?: { code: string; message: string; details?: Record<string, unknown> } }>;
  /** Where each file's facts lie in the reply's JSON line (start, end), null for a file that does not parse. */
  facts_spans?: Array<[number, number] | null>;
}

/** A file's facts as the worker wrote them: the facts cache stores this text as it is, not the facts stringified again. */
function factsText(line: string, span: [number, number] | null | undefined): string | undefined {
  if (!span) return undefined;
  const text = line.slice(span[0], span[1]);
  return text.startsWith('{') && text.endsWith('}') ? text : undefined;
}

/** Files per request: small enough that a worker which starts late still takes a share. */
const BATCH = 25;
/**
 * Source characters per request: a reply holds ~10 characters of facts per character of source, and the reply's text
 * and its parse are in memory at once, so a batch of 25 large files would cost tens of megabytes at its peak.
 */
const BATCH_CHARS = 128 * 1024;
/**
 * A second worker pays for its start-up (~0.1 s of a core, more through a version manager's shim) only with
 * this many files to parse: measured on 2 cores, it did not pay for itself at 200 small files.
 */
const FILES_PER_EXTRA_WORKER = 400;

/** A worker that is starting or started; a failed start is remembered so the caller that needs it sees the error. */
interface Slot {
  started: Promise<PythonWorker>;
  worker?: PythonWorker;
  failed?: boolean;
  /** When the start hit its deadline: the same command asking again gets that error, not a second full wait. */
  timedOutAt?: number;
}

/**
 * Workers stay alive for the life of the process: a daemon or MCP server answers the next request with
 * warm interpreters. Short-lived callers (the CLI) end them with shutdownWorkers().
 */
const pool = new Map<string, Slot[]>();
let workersStarted = 0;

/** Where workers keep their files: pid files, and the memo of what a version manager's shim ran. */
export interface WorkerPlaces {
  workersDir: string;
  /** See launcher.ts; by default the user's cache (launchMemoFile). */
  launchMemo?: string;
}

/** By code, not class: the early worker's error comes from the launcher's bundle, with its own copy of TugError. */
const isTimeout = (error: unknown) => (error as { code?: unknown } | undefined)?.code === 'WorkerTimeout';

async function startWorker(python: string, places: WorkerPlaces): Promise<PythonWorker> {
  // One deadline for the whole start (shim probe and worker), not one per step: a hung interpreter costs it once.
  const ms = workerStartMs();
  const began = Date.now();
  const left = () => Math.max(ms - (Date.now() - began), 1);
  const options = (program: string) => ({
    python: program,
    script: WORKER_SCRIPT,
    pidFile: path.join(places.workersDir, `python-${process.pid}-${workersStarted++}.pid`),
    startTimeoutMs: left(),
  });
  const named = (error: unknown) => {
    throw isTimeout(error) ? startTimeoutError(ms) : error;
  };
  const early = takeEarlyWorker(python);
  if (early?.timedOut) throw startTimeoutError(ms, 'the Python interpreter did not answer');
  if (early?.started) {
    // Started by bin/tug for this interpreter; one that crashed is replaced like any failed start, one that timed out
    // is reported (starting another would wait a second deadline for the same interpreter).
    const worker = await PythonWorker.attach(early.started, { ...options(early.program), startTimeoutMs: Math.max(ms - (Date.now() - early.began), 1) }).catch((error: unknown) => {
      if (isTimeout(error)) named(error);
      return undefined;
    });
    if (worker) {
      mark('python: took over the early worker');
      return tracked(worker, places);
    }
  }
  // A shim chooses by the caller's directory; the worker itself then starts from tug's own (worker.ts).
  const program = await withinStartDeadline(resolveShim(python, process.cwd(), places.launchMemo ?? launchMemoFile(python)), left(), 'the Python interpreter did not answer').catch(named);
  mark('python: launcher chosen');
  return tracked(await PythonWorker.start(options(program)).catch(named), places);
}

/** A daemon measures its workers' memory and ends those of repositories it evicts (lib/daemon/budget.ts). */
function tracked(worker: PythonWorker, places: WorkerPlaces): PythonWorker {
  trackHelper({ kind: 'python_worker', pid: worker.ready.pid, scope: places.workersDir, alive: () => worker.alive, stop: () => worker.shutdown() });
  return worker;
}

/** Starts workers until `count` are alive or starting, all at once, and returns those slots without waiting. */
/** A slot still worth asking: its worker starting or alive, or one that timed out moments ago (reported, not restarted). */
function usable(s: Slot): boolean {
  const recentTimeout = s.timedOutAt !== undefined && Date.now() - s.timedOutAt < workerStartMs();
  return (!s.failed || recentTimeout) && (s.worker === undefined || s.worker.alive);
}

function ensureWorkers(python: string, count: number, places: WorkerPlaces): Slot[] {
  const slots = (pool.get(python) ?? []).filter(usable);
  while (slots.length < count) {
    mark('python: starting a worker');
    const slot: Slot = { started: startWorker(python, places) };
    slot.started.then(
      (worker) => (slot.worker = worker),
      (error: unknown) => {
        slot.failed = true;
        if (isTimeout(error)) slot.timedOutAt = Date.now();
      },
    );
    slots.push(slot);
  }
  pool.set(python, slots);
  onRelease(shutdownWorkers);
  countWarm('python_workers', () => [...pool.values()].flat().filter((s) => s.worker?.alive).length);
  return slots.slice(0, count);
}

/**
 * Starts a worker ahead of need, e.g. while git lists and reads the files, when the caller expects facts to be
 * parsed. Never fails: if the start goes wrong, factsFor starts again and reports the error then.
 */
export function prestartWorkers(python: Promise<string>, places: WorkerPlaces, count = 1): void {
  python.then(
    (p) => {
      mark('python: interpreter resolved');
      for (const slot of ensureWorkers(p, count, places)) slot.started.catch(() => undefined);
    },
    () => undefined,
  );
}

/** One request to a warm worker of `python` (started if none is): for the single-file refactors. */
export async function askWorker<T>(python: string, places: WorkerPlaces, op: string, params: Record<string, unknown>): Promise<T> {
  const worker = await ensureWorkers(python, 1, places)[0]!.started;
  return worker.request<T>(op, params);
}

/**
 * A worker of `python` this process already runs or is starting (its own, or the one bin/tug started early), else
 * undefined: for a question a fresh interpreter would answer as cheaply as a new worker's start.
 */
export function runningWorker(python: string, places: WorkerPlaces): Promise<PythonWorker> | undefined {
  if (!(pool.get(python) ?? []).some(usable) && !hasEarlyWorker(python)) return undefined;
  return ensureWorkers(python, 1, places)[0]!.started;
}

export async function shutdownWorkers(): Promise<void> {
  const all = [...pool.values()].flat();
  pool.clear();
  await Promise.all(all.map(async (slot) => (await slot.started.catch(() => undefined))?.shutdown()));
}

/**
 * Parses `files` in as many workers as the machine has cores (a second one only for enough files to pay for its
 * start) and hands each file's facts to `onFacts` as its batch comes back, so the caller keeps only what it needs.
 */
export async function parseFacts(request: ParseRequest, onFacts: (file: SourceText, facts: Facts, text: string | undefined) => void): Promise<void> {
  if (request.files.length === 0) return;
  mark(`python: parsing ${request.files.length} files`);
  const wanted = Math.ceil(request.files.length / FILES_PER_EXTRA_WORKER);
  const count = Math.max(1, Math.min(request.maxWorkers ?? os.availableParallelism(), wanted));
  const python = await request.python();
  // Whichever worker is ready first starts on the queue; a later one takes what is left.
  const slots = ensureWorkers(python, count, request);
  const queue = [...request.files];
  const shared = os.availableParallelism() > 1 ? sharedBatches(queue, sharedHalfChars(queue)) : undefined;
  const next = () => (shared ? (shared.shift() ?? []) : nextBatch(queue));
  const work = async (slot: Slot, first: boolean) => {
    let worker: PythonWorker;
    try {
      worker = await slot.started;
    } catch (error) {
      // The first worker's start failure is the caller's error; a spare that fails just leaves the queue to it.
      if (first) throw error;
      return;
    }
    mark('python: worker ready');
    // Two requests in flight, so the worker starts on the next batch while this process reads the last reply.
    const lane = async () => {
      for (let batch = next(); batch.length > 0; batch = next()) {
        const { result: reply, text } = await worker.requestWithText<BatchResult>('facts_batch', { files: batch.map((f) => ({ path: f.path, content: f.text })) }, 120_000);
        for (const [i, result] of reply.results.entries()) {
          const source = batch[i]!;
          if (!result.ok || !result.facts) {
            const details = result.error?.details ?? {};
            if (request.onUnparsable && result.error?.code === 'SyntaxError') {
              request.onUnparsable(source, { line: (details['line'] as number | undefined) ?? null, col: (details['col'] as number | undefined) ?? null, message: result.error.message });
              continue;
            }
            throw new TugError('SourceSyntaxError', `${source.path}:${details['line'] ?? '?'}: ${result.error?.message ?? 'cannot parse'}`, {
              details: { file: source.path, line: details['line'] ?? null, col: details['col'] ?? null, message: result.error?.message ?? '' },
            });
          }
          onFacts(source, result.facts, factsText(text, reply.facts_spans?.[i]));
        }
      }
    };
    await Promise.all([lane(), lane()]);
  };
  try {
    await Promise.all(slots.map((slot, i) => work(slot, i === 0)));
  } catch (error) {
    // A worker that failed mid-batch may be in any state: start clean next time.
    await Promise.all(slots.map(async (s) => (await s.started.catch(() => undefined))?.shutdown()));
    throw error;
  }
  mark('python: parsed');
}

/**
 * A shared request's half: 128 KB, or 256 KB when that puts all of the files in one request (a rename's ten files
 * in the standard library, 373 KB): the two processes then split all of them, which beat two requests there (a
 * second fork, ~40 ms of CPU, and less even halves).
 */
export function sharedHalfChars(files: readonly SourceText[]): number {
  return files.reduce((sum, f) => sum + f.text.length, 0) <= 4 * BATCH_CHARS ? 2 * BATCH_CHARS : BATCH_CHARS;
}

/**
 * Requests for a worker that shares each one with a forked copy of itself (python-worker/tugworker/protocol.py, issue
 * 33 step 27): the worker splits a request largest file first, each to the lighter half, so a request is as slow as
 * its heavier half. Requests are made the same way, from the largest file down, as two halves of up to BATCH_CHARS
 * each (a larger file alone in its half, and files over four halves' worth alone in a request) and BATCH files: two
 * large files share a request and both cores, where requests cut in the files' order left a large file with a few
 * small ones (or alone), built by one core while the other waited (docs/PERFORMANCE.md, issue 33, pyfacts helper).
 * Files of equal size are taken in their given order.
 */
export function sharedBatches(files: readonly SourceText[], halfChars = BATCH_CHARS): SourceText[][] {
  const sorted = [...files].sort((a, b) => b.text.length - a.text.length);
  const out: SourceText[][] = [];
  let pending: SourceText[] = [];
  let next = 0;
  while (pending.length > 0 || next < sorted.length) {
    const halves: [SourceText[], SourceText[]] = [[], []];
    const loads = [0, 0];
    const skipped: SourceText[] = [];
    // A request's reply and its parse are in memory at once: two large files pair only within four halves' worth.
    const fits = (side: number, size: number) =>
      (halves[side]!.length === 0 || loads[side]! + size <= halfChars) && (loads[0]! + loads[1]! === 0 || loads[0]! + loads[1]! + size <= 4 * halfChars);
    const take = (file: SourceText) => {
      const lighter = loads[0]! <= loads[1]! ? 0 : 1;
      const side = fits(lighter, file.text.length) ? lighter : fits(1 - lighter, file.text.length) ? 1 - lighter : -1;
      if (side < 0 || halves[0].length + halves[1].length >= BATCH) return skipped.push(file);
      halves[side]!.push(file);
      loads[side]! += file.text.length;
    };
    // Files a request had no room for come first in the next (each is larger than any file not yet looked at).
    pending.forEach(take);
    while (next < sorted.length && halves[0].length + halves[1].length < BATCH) take(sorted[next++]!);
    pending = skipped;
    out.push([...halves[0], ...halves[1]]);
  }
  return out;
}

/** The next request's files from the front of `queue`: up to BATCH files and `maxChars` of source, at least one. */
export function nextBatch(queue: SourceText[], maxChars = BATCH_CHARS): SourceText[] {
  let count = 0;
  for (let chars = 0; count < Math.min(BATCH, queue.length) && (count === 0 || chars + queue[count]!.text.length <= maxChars); count++) chars += queue[count]!.text.length;
  return queue.splice(0, count);
}
