// A long-lived tug (the daemon, the MCP server) starts git through a small helper process of its own: on Linux Node starts a child with fork(), which blocks the caller while the kernel copies its page tables, ~10 ms from a process holding warm TypeScript projects (~200 MB) against ~1.5 ms from the helper (docs/PERFORMANCE.md, issue 31).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { keepsInMemory } from '../core/memory.js';
import { FrameReader, frame } from './frames.js';
import type { RawResult, SpawnGitOptions } from './spawn-git.js';

/** Beside this module in dist/lib/git/ (the CLI bundle in dist/lib/cli-bundle/ resolves it the same way). */
const SCRIPT = fileURLToPath(new URL('../git/git-helper-main.js', import.meta.url));
/** A helper that keeps dying is not started again: git is then started directly, as in a one-shot process. */
const MAX_STARTS = 3;

interface Helper {
  child: ChildProcess;
  /** Set when the helper has said so: until then git is started directly, not queued behind Node's start-up. */
  ready: boolean;
  alive: boolean;
  pending: Map<number, (result: RawResult) => void>;
}

let helper: Helper | undefined;
let starts = 0;
let nextId = 1;

/** Only where the fork is what costs (libuv uses posix_spawn on macOS), and only in processes that live long. */
function wanted(): boolean {
  return process.platform === 'linux' && keepsInMemory() && process.env['TUG_GIT_HELPER'] !== '0';
}

/**
 * git run by the helper process, or undefined when the caller should start it itself: not a long-lived process, the
 * helper still starting (the first call starts it), or gone. If the helper dies with git calls in flight, those end
 * as a failed git (exit -1, the reason in stderr): whether git ran is not known, so they are not run again.
 */
export function gitViaHelper(args: readonly string[], options: SpawnGitOptions): Promise<RawResult> | undefined {
  if (!wanted()) return undefined;
  const running = helper?.alive ? helper : start();
  if (!running?.ready) return undefined;
  return new Promise((resolve) => {
    const id = nextId++;
    running.pending.set(id, resolve);
    if (running.pending.size === 1) hold(running, true);
    const input = options.input === undefined ? [] : [typeof options.input === 'string' ? Buffer.from(options.input) : options.input];
    const request = { id, args, cwd: options.cwd, env: options.env, input: options.input !== undefined, timeoutMs: options.timeoutMs };
    running.child.stdin!.write(frame(request, input));
  });
}

function start(): Helper | undefined {
  if (starts >= MAX_STARTS) return undefined;
  starts += 1;
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [SCRIPT], { stdio: ['pipe', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
  const started: Helper = { child, ready: false, alive: true, pending: new Map() };
  helper = started;
  const reader = new FrameReader((header, parts) => {
    if (header['ready'] === true) return void (started.ready = true);
    const id = header['id'] as number;
    const done = started.pending.get(id);
    if (!done) return;
    started.pending.delete(id);
    if (started.pending.size === 0) hold(started, false);
    const pid = header['pid'] as number | undefined;
    done({ exitCode: header['exitCode'] as number, stdout: parts[0]!, stderr: parts[1]!, ...(pid === undefined ? {} : { pid }) });
  });
  child.stdout!.on('data', (chunk: Buffer) => reader.push(chunk));
  const gone = (why: string) => {
    if (!started.alive) return;
    started.alive = false;
    const ended = { exitCode: -1, stdout: Buffer.alloc(0), stderr: Buffer.from(`tug's git helper process ended (${why}) before git answered`) };
    for (const done of started.pending.values()) done(ended);
    started.pending.clear();
  };
  child.on('exit', (code, signal) => gone(signal ?? `exit ${code}`));
  child.on('error', (error) => gone(error.message));
  child.stdin!.on('error', () => undefined);
  hold(started, false);
  return started;
}

/** The helper keeps this process alive only while git calls are in flight through it. */
function hold(running: Helper, on: boolean): void {
  for (const stream of [running.child.stdin, running.child.stdout] as Array<{ ref?: () => void; unref?: () => void } | null>) {
    if (on) stream?.ref?.();
    else stream?.unref?.();
  }
  if (on) running.child.ref();
  else running.child.unref();
}

/** Ends the helper (the daemon's shutdown: nothing it started outlives it); it would also go by itself once this process exits. */
export async function endGitHelper(): Promise<void> {
  const running = helper;
  if (!running?.alive) return;
  const exited = new Promise((resolve) => running.child.once('exit', resolve));
  running.child.stdin!.end();
  const timer = setTimeout(() => running.child.kill('SIGKILL'), 2_000);
  await exited;
  clearTimeout(timer);
}
