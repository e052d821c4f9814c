// bin/tug's first step for a Python refactor: start the Python worker before the CLI loads, so the interpreter's start
// (~25 ms, more through a shim) overlaps the CLI's own (~60 ms) instead of following it. The worker pool takes it over
// only if the analysis chooses the same interpreter; otherwise it is ended unused. It runs tug's own script only.
import { launchMemoFile, resolveShim } from './launcher.js';
import { resolvePython } from './interpreter.js';
import { spawnWorker, type WorkerProcess } from './worker.js';
import { withinStartDeadline, workerStartMs } from './start-deadline.js';
import type { TugError } from '../core/errors.js';

/** Refactors whose analysis always asks the worker (a rename may answer from the facts cache without one). */
const NEEDS_WORKER = new Set(['extract-variable', 'extract-function', 'inline', 'move-symbol', 'move', 'change-signature', 'organize-imports']);
const TARGET_FLAGS = new Set(['--at', '--range', '--file', '--files']);
/** A source file, alone or with a place after it (`a.py`, `a.rs:4:5`, `a.py:4:5-6:1`): the TARGET positional. */
const SOURCE_TARGET = /^[^:]+\.(?:pyi?|rs|[cm]?[jt]sx?)(?::\d|$)/;
const PY_TARGET = /^[^:]+\.pyi?(?::|$)/;

interface Early {
  /** The interpreter as chosen (a shim's path, when one is): what the pool is asked for. */
  python: string;
  started?: WorkerProcess;
  /** What actually ran (the shim's interpreter when remembered). */
  program: string;
  /** When the start began: the worker start deadline counts from here, not from when the pool takes it over. */
  began: number;
  /** The interpreter did not answer within the start deadline: reported as it is, not waited for again. */
  timedOut?: TugError;
}

/** Shared through the process, since the launcher and the CLI are two bundles with a module copy each. */
const SLOT = Symbol.for('tug.earlyPythonWorker');
const slot = globalThis as { [SLOT]?: Early };

/** The value of `flag` in argv (`--flag value` or `--flag=value`), if given. */
function flagValue(argv: readonly string[], names: ReadonlySet<string>): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (names.has(arg)) return argv[i + 1];
    const eq = arg.indexOf('=');
    if (eq > 0 && names.has(arg.slice(0, eq))) return arg.slice(eq + 1);
  }
  return undefined;
}

/** Whether argv is a Python refactor that will ask the worker: its command, and a .py/.pyi target. */
export function wantsEarlyWorker(argv: readonly string[]): boolean {
  const words = argv.filter((a) => !a.startsWith('-')).slice(0, 2);
  if (!words.some((w) => NEEDS_WORKER.has(w))) return false;
  // The target as a flag, or as the positional that stands for it (`tug move a.py:4:5 pkg.dest`).
  const target = flagValue(argv, TARGET_FLAGS) ?? argv.find((a) => !a.startsWith('-') && SOURCE_TARGET.test(a));
  return target !== undefined && PY_TARGET.test(target);
}

/**
 * Starts the worker for argv when it is a Python refactor, with the interpreter the analysis would choose before
 * it reads the session and the configuration (those may choose another; then this one is not used). Never fails.
 */
export async function startEarlyWorker(argv: readonly string[], script: string): Promise<void> {
  if (slot[SLOT] || !wantsEarlyWorker(argv)) return;
  const began = Date.now();
  let python: string | undefined;
  try {
    const choice = await resolvePython(flagValue(argv, new Set(['--python'])));
    python = choice.path;
    // A shim chooses by the caller's directory; the worker itself then starts from tug's own (worker.ts).
    const program = await withinStartDeadline(resolveShim(choice.path, process.cwd(), launchMemoFile(choice.path)), workerStartMs(), 'the Python interpreter did not answer');
    slot[SLOT] = { python: choice.path, started: spawnWorker(program, script), program, began };
  } catch (error) {
    // A hung interpreter is remembered so the analysis reports it at once; anything else it resolves again and reports.
    if (python && (error as TugError).code === 'WorkerTimeout') slot[SLOT] = { python, program: python, began, timedOut: error as TugError };
  }
}

/** Whether bin/tug started an early worker for `python` that a takeover could use (started, not timed out). */
export function hasEarlyWorker(python: string): boolean {
  const early = slot[SLOT];
  return early !== undefined && early.python === python && early.started !== undefined && early.timedOut === undefined;
}

/** The early worker if it runs `python`, handed over once; otherwise undefined (and it stays for discardEarlyWorker). */
export function takeEarlyWorker(python: string): Omit<Early, 'python'> | undefined {
  const early = slot[SLOT];
  if (!early || early.python !== python) return undefined;
  delete slot[SLOT];
  return early;
}

/** Ends an early worker nobody took (another interpreter was chosen, or the command failed before analysis). */
export function discardEarlyWorker(): void {
  const early = slot[SLOT];
  if (!early) return;
  delete slot[SLOT];
  early.started?.child.kill('SIGKILL');
}
