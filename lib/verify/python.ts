// Checks Python syntax with the interpreter tug runs (lib/python/interpreter.ts chooses it), isolated: the files are
// compiled, never imported, and no module of the repository can shadow one the check imports (a root `json.py`).
import path from 'node:path';
import { runCheck, type CheckResult } from './run-check.js';
import { mark } from '../core/timing.js';
import { ISOLATED_CWD, ISOLATED_FLAGS, isolatedEnv } from '../python/isolated.js';
import { resolveShim } from '../python/launcher.js';
import { interpreterVersion, isSupportedVersion, unsupportedInterpreter } from '../python/supported.js';
import { runningWorker, type WorkerPlaces } from '../python/worker-pool.js';

/** Compiles each file in memory (no .pyc written) and reports every syntax error with its position. */
const SYNTAX_SCRIPT = `
import json, sys
errors = []
for name in sys.argv[1:]:
    try:
        with open(name, "rb") as handle:
            compile(handle.read(), name, "exec", dont_inherit=True)
    except SyntaxError as error:
        errors.append({"file": name, "line": error.lineno, "col": error.offset, "message": error.msg})
    except ValueError as error:
        errors.append({"file": name, "line": None, "col": None, "message": str(error)})
print(json.dumps(errors))
sys.exit(1 if errors else 0)
`;

/**
 * Isolated, and without `site` (as the worker): the check needs only the standard library, and `site` would run every
 * `.pth` file of the interpreter's site-packages, code nobody asked tug to run (on this project's CI machines one imports
 * certifi: ~0.1 s of every check).
 */
const SYNTAX_FLAGS: readonly string[] = [...ISOLATED_FLAGS, '-S'];

/**
 * Compiles `files` (relative to `cwd`, the sandbox) with `python -I -S` started from tug's own folder with the allowlisted
 * environment: the sandbox is only where the files are, and where a version manager's shim chooses the interpreter.
 * When this process already runs a worker of `python` (`workers`: the analysis's, or the one bin/tug started early),
 * the worker compiles them the same way first: a pass then costs no new interpreter (~40-60 ms of a cold rename). A
 * failure, or any trouble in the worker, runs the script as before, so a failed check reads exactly as it always did.
 */
export async function checkPythonSyntax(python: string, cwd: string, files: readonly string[], timeoutMs: number, baseEnv: Record<string, string>, workers?: WorkerPlaces): Promise<CheckResult> {
  const absolute = files.map((file) => path.resolve(cwd, file));
  const command = [python, ...SYNTAX_FLAGS, '-c', '<compile each file>', ...files];
  const started = Date.now();
  if (workers && (await compiledByWorker(python, workers, absolute, timeoutMs))) {
    return { name: 'python-syntax', status: 'passed', command, exit_code: 0, output: '', duration_ms: Date.now() - started, errors: [] };
  }
  const program = await resolveShim(python, cwd);
  const byAbsolute = new Map(absolute.map((file, i) => [file, files[i]!]));
  const argv = [program, ...SYNTAX_FLAGS, '-c', SYNTAX_SCRIPT, ...absolute];
  const result = await runCheck({ name: 'python-syntax', argv, cwd: ISOLATED_CWD, timeoutMs, baseEnv: isolatedEnv(baseEnv) });
  try {
    const parsed = JSON.parse(result.output?.trim().split('\n').pop() ?? '[]') as CheckResult['errors'];
    const errors = (parsed ?? []).map((error) => ({ ...error, file: byAbsolute.get(error.file) ?? error.file }));
    const output = errors.length > 0 ? (result.output ?? '').split(cwd + path.sep).join('') : '';
    return { ...result, command, errors, output };
  } catch {
    // No JSON line: an interpreter that could not run the check (Python 2 rejects -I; a program that is no Python).
    if (!result.timed_out) {
      const version = await interpreterVersion(program);
      if (!isSupportedVersion(version)) throw unsupportedInterpreter(python, version);
    }
    return { ...result, command };
  }
}

/** Whether a running worker compiled every file; false when none runs, one does not compile, or the worker fails. */
async function compiledByWorker(python: string, workers: WorkerPlaces, files: readonly string[], timeoutMs: number): Promise<boolean> {
  const worker = runningWorker(python, workers);
  if (!worker) return false;
  try {
    const answer = await (await worker).request<{ ok?: unknown }>('compile_check', { files }, timeoutMs);
    if (answer.ok === true) mark('python: changed files compiled by the running worker');
    return answer.ok === true;
  } catch {
    return false;
  }
}
