// `tug toolchain python info|check|setup`: which interpreter tug would use, whether LibCST works there, and a managed venv.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { loadExeca } from '../verify/execa.js';
import { TugError } from '../core/errors.js';
import { writeJson } from '../session/files.js';
import { managedPython, resolvePython, type PythonChoice } from './interpreter.js';

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

/** What an interpreter offers tug: its version, and LibCST and pytest when importable (null when missing or not runnable). */
export async function pythonFeatures(python: string): Promise<{ version: string | null; libcst: string | null; pytest: string | null }> {
  const execa = await loadExeca();
  const run = await execa(python, ['-c', FEATURES], { reject: false, timeout: 30_000, stdin: 'ignore' });
  if (run.exitCode !== 0) return { version: null, libcst: null, pytest: null };
  return JSON.parse(String(run.stdout).trim().split('\n').pop() ?? '{}');
}

async function probe(python: string): Promise<{ version: string | null; libcst: string | null }> {
  const execa = await loadExeca();
  const run = await execa(python, ['-c', PROBE], { reject: false, timeout: 30_000 });
  if (run.exitCode !== 0) return { version: null, libcst: null };
  return JSON.parse(String(run.stdout).trim().split('\n').pop() ?? '{}');
}

export async function pythonInfo(sessionDir: string, explicit?: string): Promise<PythonInfo> {
  const managed = managedPython(sessionDir).venv;
  let choice: PythonChoice;
  try {
    choice = await resolvePython(explicit, sessionDir);
  } catch (error) {
    const searched = error instanceof TugError ? ((error.details?.['searched_paths'] as string[]) ?? []) : [];
    return { found: false, interpreter: null, source: null, version: null, libcst: null, searched, managed_venv: managed };
  }
  const facts = await probe(choice.path);
  return { found: facts.version !== null, interpreter: choice.path, source: choice.source, ...facts, searched: choice.searched, managed_venv: managed };
}

/**
 * PythonNotFound, with the resolution trace and what to do, when tug cannot use the interpreter. LibCST is optional:
 * facts and renames use the standard library's `ast`; only a worker request that rewrites structure asks for LibCST
 * (the worker answers LibCSTNotAvailable then), so `info` reports it and `check` does not require it.
 */
export function assertUsable(info: PythonInfo): void {
  if (!info.found) {
    throw new TugError('PythonNotFound', 'no usable Python interpreter', {
      details: { searched_paths: info.searched, remedy: 'pass --python PATH, set TUG_PYTHON, or activate a virtualenv' },
    });
  }
}

/**
 * A venv in the session dir that sees the base interpreter's site packages (no package index is needed),
 * recorded as the session's sticky interpreter.
 */
export async function setupPython(sessionDir: string, explicit?: string): Promise<PythonInfo> {
  const base = await pythonInfo(sessionDir, explicit);
  assertUsable(base);
  const managed = managedPython(sessionDir);
  if (base.interpreter !== managed.python) {
    await rm(managed.venv, { recursive: true, force: true });
    await mkdir(path.dirname(managed.venv), { recursive: true });
    const execa = await loadExeca();
    const made = await execa(base.interpreter!, ['-m', 'venv', '--system-site-packages', managed.venv], { reject: false, timeout: 120_000 });
    if (made.exitCode !== 0) {
      throw new TugError('PythonNotFound', `could not create a venv with ${base.interpreter}: ${String(made.stderr).trim()}`, { details: { searched_paths: base.searched } });
    }
  }
  const facts = await probe(managed.python);
  const info: PythonInfo = { found: facts.version !== null, interpreter: managed.python, source: 'managed venv', ...facts, searched: base.searched, managed_venv: managed.venv };
  assertUsable(info);
  await writeJson(managed.config, { interpreter_path: managed.python, version: info.version, libcst_version: info.libcst, resolved_at: new Date().toISOString(), resolution_source: 'managed venv', base_interpreter: base.interpreter });
  return info;
}
