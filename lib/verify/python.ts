// Checks Python syntax with the interpreter tug runs (lib/python/interpreter.ts chooses it).
import { runCheck, type CheckResult } from './run-check.js';

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

export async function checkPythonSyntax(python: string, cwd: string, files: readonly string[], timeoutMs: number, baseEnv: Record<string, string>): Promise<CheckResult> {
  const result = await runCheck({ name: 'python-syntax', argv: [python, '-c', SYNTAX_SCRIPT, ...files], cwd, timeoutMs, baseEnv });
  const command = [python, '-c', '<compile each file>', ...files];
  try {
    const errors = JSON.parse(result.output?.trim().split('\n').pop() ?? '[]') as CheckResult['errors'];
    return { ...result, command, errors: errors ?? [], output: errors && errors.length > 0 ? result.output : '' };
  } catch {
    return { ...result, command };
  }
}
