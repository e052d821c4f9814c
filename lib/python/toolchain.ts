// `tug toolchain python info|check|setup`: which interpreter tug would use, whether LibCST works there, and a managed venv.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { loadExeca } from '../verify/execa.js';
import { TugError } from '../core/errors.js';
import { writeJson } from '../session/files.js';
import { managedPython, resolvePython, type PythonChoice } from './interpreter.js';
import { ISOLATED_CWD, ISOLATED_FLAGS, isolatedEnv, runIsolated } from './isolated.js';
import { resolveShim } from './launcher.js';
import { interpreterVersion, isSupportedVersion, unsupportedInterpreter } from './supported.js';

export interface PythonInfo {
  found: boolean;
  interpreter: string | null;
  source: string | null;
  version: string | null;
  libcst: string | null;
  searched: string[];
  managed_venv: string;
}

const PROBE = `
import json, sys
try:
    from importlib.metadata import version
    import libcst
    cst = version("libcst")
except Exception:
    cst = None
print(json.dumps({"version": "%d.%d.%d" % sys.version_info[:3], "libcst": cst}))
`;

const FEATURES = `
import json, sys
from importlib.util import find_spec
def version(name):
    if find_spec(name) is None:
        return None
    try:
        from importlib.metadata import version as v
        return v(name)
    except Exception:
        return "unknown version"
print(json.dumps({"version": "%d.%d.%d" % sys.version_info[:3], "libcst": version("libcst"), "pytest": version("pytest")}))
`;

/**
 * What an interpreter offers tug: its version, and LibCST and pytest when importable (null when missing or not
 * runnable). Asked isolated (isolated.ts), so a module of the repository named like one the probe imports never runs;
 * `from` is only where a version manager's shim chooses the interpreter.
 */
export async function pythonFeatures(python: string, from = process.cwd()): Promise<{ version: string | null; libcst: string | null; pytest: string | null }> {
  const run = await runIsolated(await resolveShim(python, from), FEATURES);
  if (run.exitCode !== 0) return { version: null, libcst: null, pytest: null };
  return parseLast(run.stdout, { version: null, libcst: null, pytest: null });
}

async function probe(python: string, from: string): Promise<{ version: string | null; libcst: string | null }> {
  const real = await resolveShim(python, from);
  const run = await runIsolated(real, PROBE);
  // Python 2 rejects -I, and an old Python 3 may lack what the probe imports: its version still says why.
  if (run.exitCode !== 0) return { version: await interpreterVersion(real), libcst: null };
  return parseLast(run.stdout, { version: null, libcst: null });
}

/** The last line of a probe's output as JSON; `fallback` when something else printed it (not a Python, or an old one). */
function parseLast<T>(stdout: string, fallback: T): T {
  try {
    return JSON.parse(stdout.trim().split('\n').pop() ?? '') as T;
  } catch {
    return fallback;
  }
}

export async function pythonInfo(sessionDir: string, explicit?: string, from = process.cwd()): Promise<PythonInfo> {
  const managed = managedPython(sessionDir).venv;
  let choice: PythonChoice;
  try {
    choice = await resolvePython(explicit, sessionDir);
  } catch (error) {
    const searched = error instanceof TugError ? ((error.details?.['searched_paths'] as string[]) ?? []) : [];
    return { found: false, interpreter: null, source: null, version: null, libcst: null, searched, managed_venv: managed };
  }
  const facts = await probe(choice.path, from);
  return { found: facts.version !== null, interpreter: choice.path, source: choice.source, ...facts, searched: choice.searched, managed_venv: managed };
}

/**
 * PythonNotFound, with the resolution trace and what to do, when tug cannot use the interpreter. LibCST is optional:
 * facts and renames use the standard library's `ast`; only a worker request that rewrites structure asks for LibCST
 * (the worker answers LibCSTNotAvailable then), so `info` reports it and `check` does not require it.
 */
export function assertUsable(info: PythonInfo): void {
  if (!info.found && info.interpreter) throw unsupportedInterpreter(info.interpreter, null);
  if (!info.found) {
    throw new TugError('PythonNotFound', 'no usable Python interpreter', {
      details: { searched_paths: info.searched, remedy: 'pass --python PATH, set TUG_PYTHON, or activate a virtualenv' },
    });
  }
  if (!isSupportedVersion(info.version)) throw unsupportedInterpreter(info.interpreter!, info.version);
}

/**
 * A venv in the session dir that sees the base interpreter's site packages (no package index is needed),
 * recorded as the session's sticky interpreter.
 */
export async function setupPython(sessionDir: string, explicit?: string, from = process.cwd()): Promise<PythonInfo> {
  const base = await pythonInfo(sessionDir, explicit, from);
  assertUsable(base);
  const managed = managedPython(sessionDir);
  if (base.interpreter !== managed.python) {
    await rm(managed.venv, { recursive: true, force: true });
    await mkdir(path.dirname(managed.venv), { recursive: true });
    const execa = await loadExeca();
    // -m would put the working directory first on the path: isolated, from tug's own folder (isolated.ts).
    const real = await resolveShim(base.interpreter!, from);
    const made = await execa(real, [...ISOLATED_FLAGS, '-m', 'venv', '--system-site-packages', managed.venv], { reject: false, timeout: 120_000, cwd: ISOLATED_CWD, env: isolatedEnv(), extendEnv: false });
    if (made.exitCode !== 0) {
      throw new TugError('PythonNotFound', `could not create a venv with ${base.interpreter}: ${String(made.stderr).trim()}`, { details: { searched_paths: base.searched } });
    }
  }
  const facts = await probe(managed.python, from);
  const info: PythonInfo = { found: facts.version !== null, interpreter: managed.python, source: 'managed venv', ...facts, searched: base.searched, managed_venv: managed.venv };
  assertUsable(info);
  await writeJson(managed.config, { interpreter_path: managed.python, version: info.version, libcst_version: info.libcst, resolved_at: new Date().toISOString(), resolution_source: 'managed venv', base_interpreter: base.interpreter });
  return info;
}
