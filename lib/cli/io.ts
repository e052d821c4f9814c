// Where the CLI reads and writes: the real process, or a client of `tug daemon` whose output travels over a socket.
import { isatty } from 'node:tty';

export interface CliIO {
  cwd: string;
  out(text: string): void;
  err(text: string): void;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Only `tug review` reads keys; a daemon caller never gets here (the client runs review in-process). */
  stdinIsTTY?: boolean;
  columns: number | undefined;
  /** True inside `tug daemon`: keep warm helpers (Python workers) alive after the command. */
  longLived?: boolean;
  /** Told what a rename or analysis is about to load, so a daemon started after it can warm up on the same target. */
  analysing?: (target: AnalysisTarget) => void;
}

/** The part of a rename that decides what gets loaded: the project around `at`, with these toolchains. */
export interface AnalysisTarget {
  at: string;
  to: string;
  python?: string;
  rust_analyzer?: string;
}

export function processIO(): CliIO {
  return {
    cwd: process.cwd(),
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    // Asking the descriptors rather than process.stdin/stderr: those streams are built on first use, a few ms for a pipe.
    stderrIsTTY: isatty(2),
    stdinIsTTY: isatty(0),
    columns: process.stdout.columns,
  };
}
