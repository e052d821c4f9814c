// Finds the Python interpreter tug runs (the agent's own, by seed D10's order) and checks Python syntax with it.
import { access, constants } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import { runCheck, type CheckResult } from './run-check.js';

export interface PythonChoice {
  path: string;
  source: '--python' | '$TUG_PYTHON' | '$VIRTUAL_ENV' | '$CONDA_PREFIX' | 'PATH';
}

export async function resolvePython(explicit?: string): Promise<PythonChoice> {
  const env = process.env;
  const candidates: Array<[PythonChoice['source'], string | undefined]> = [
    ['--python', explicit],
    ['$TUG_PYTHON', env['TUG_PYTHON']],
    ['$VIRTUAL_ENV', env['VIRTUAL_ENV'] && path.join(env['VIRTUAL_ENV'], 'bin', 'python')],
    ['$CONDA_PREFIX', env['CONDA_PREFIX'] && path.join(env['CONDA_PREFIX'], 'bin', 'python')],
  ];
  const searched: string[] = [];
  for (const [source, candidate] of candidates) {
    if (!candidate) continue;
    searched.push(`${source}: ${candidate}`);
    if (await isExecutable(candidate)) return { path: path.resolve(candidate), source };
    if (source === '--python' || source === '$TUG_PYTHON') break;
  }
  if (searched.length === 0 || !(explicit || env['TUG_PYTHON'])) {
    for (const dir of (env['PATH'] ?? '').split(path.delimiter)) {
      if (!dir) continue;
      const candidate = path.join(dir, 'python3');
      searched.push(`PATH: ${candidate}`);
      if (await isExecutable(candidate)) return { path: candidate, source: 'PATH' };
    }
  }
  throw new TugError('PythonNotFound', 'no Python interpreter found', { details: { searched_paths: searched } });
}

async function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(() => true, () => false);
}

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

export async function checkPythonSyntax(python: string, cwd: string, files: readonly string[], timeoutMs: number): Promise<CheckResult> {
  const result = await runCheck({ name: 'python-syntax', argv: [python, '-c', SYNTAX_SCRIPT, ...files], cwd, timeoutMs });
  const command = [python, '-c', '<compile each file>', ...files];
  try {
    const errors = JSON.parse(result.output?.trim().split('\n').pop() ?? '[]') as CheckResult['errors'];
    return { ...result, command, errors: errors ?? [], output: errors && errors.length > 0 ? result.output : '' };
  } catch {
    return { ...result, command };
  }
}
