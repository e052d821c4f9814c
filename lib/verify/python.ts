// Checks Python syntax with the interpreter tug runs (lib/python/interpreter.ts chooses it), isolated: the files are
// compiled, never imported, and no module of the repository can shadow one the check imports (a root `json.py`).
import path from 'node:path';
import { runCheck, type CheckResult } from './run-check.js';
import { ISOLATED_CWD, ISOLATED_FLAGS, isolatedEnv } from '../python/isolated.js';
import { resolveShim } from '../python/launcher.js';
import { interpreterVersion, isSupportedVersion, unsupportedInterpreter } from '../python/supported.js';

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
 * Compiles `files` (relative to `cwd`, the sandbox) with `python -I` started from tug's own folder with the allowlisted
 * environment: the sandbox is only where the files are, and where a version manager's shim chooses the interpreter.
 */
export async function checkPythonSyntax(python: string, cwd: string, files: readonly string[], timeoutMs: number, baseEnv: Record<string, string>): Promise<CheckResult> {
  const program = await resolveShim(python, cwd);
  const absolute = files.map((file) => path.resolve(cwd, file));
  const byAbsolute = new Map(absolute.map((file, i) => [file, files[i]!]));
  const argv = [program, ...ISOLATED_FLAGS, '-c', SYNTAX_SCRIPT, ...absolute];
  const result = await runCheck({ name: 'python-syntax', argv, cwd: ISOLATED_CWD, timeoutMs, baseEnv: isolatedEnv(baseEnv) });
  const command = [python, ...ISOLATED_FLAGS, '-c', '<compile each file>', ...files];
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
