// How tug starts Python for its own purposes (the syntax check, the worker, probes): isolated, so that no module of
// the repository (a `json.py` at its root shadows the standard library), no PYTHON* variable and no user site runs.
// Only the project's own tests, when trusted or asked for, run with the project on the path (lib/verify/test-runner.ts).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * `-I`: neither the script's folder nor the working directory on sys.path, no user site-packages, every PYTHON*
 * variable ignored. Every interpreter tug supports has it (lib/python/supported.ts refuses older ones).
 */
export const ISOLATED_FLAGS: readonly string[] = ['-I'];

/**
 * The working directory of tug's own interpreters: tug's python-worker folder, which is no repository and holds only
 * tug's files (at the same depth from dist/lib/python/ as from the bundles in dist/lib/cli-bundle/).
 */
export const ISOLATED_CWD = fileURLToPath(new URL('../../../python-worker/', import.meta.url));

/** What an interpreter (or a version manager's shim in front of it) needs from the caller's environment. */
const KEPT = /^(PATH|HOME|USER|LOGNAME|LANG|LANGUAGE|LC_[A-Z]+|TZ|TMPDIR|SYSTEMROOT|(PYENV|ASDF|MISE|RTX)_[A-Z0-9_]+)$/;
/** Credential-like names are dropped even inside those families (MISE_GITHUB_TOKEN). */
const SECRET = /TOKEN|SECRET|PASSW|PWD|CREDENTIAL|AUTH|KEY/;

/** The allowlisted environment of tug's own interpreters: locale, home, PATH and the shims' steering variables. */
export function isolatedEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && KEPT.test(name) && !SECRET.test(name)) out[name] = value;
  }
  return out;
}

/** What an isolated run of a small script printed, its exit code (null: it did not start or was killed), and stderr. */
export interface ScriptRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `python -I -c script args…` in ISOLATED_CWD with the allowlisted environment: how tug asks an interpreter
 * anything (versions, features). `cwd` is only for a shim's choice of version (see launcher.ts); never for imports.
 */
export function runIsolated(python: string, script: string, args: readonly string[] = [], options: { timeoutMs?: number; cwd?: string; extraFlags?: readonly string[] } = {}): Promise<ScriptRun> {
  return new Promise((resolve) => {
    execFile(
      python,
      [...ISOLATED_FLAGS, ...(options.extraFlags ?? []), '-c', script, ...args],
      { cwd: options.cwd ?? ISOLATED_CWD, env: isolatedEnv(), timeout: options.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : null) : 0;
        resolve({ exitCode: code, stdout: String(stdout ?? ''), stderr: String(stderr ?? '') });
      },
    );
  });
}

