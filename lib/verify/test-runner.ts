// Finds how a project runs its Python tests (pytest config, a tests folder, unittest) without a configured command.
import { access, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { runCheck } from './run-check.js';
import type { CheckConfinement } from './check-confinement.js';

export interface DetectedRunner {
  /** argv with a {python} placeholder. */
  argv: string[];
  /** Why this runner: shown when it cannot run. */
  because: string;
}

const PYTEST = ['{python}', '-m', 'pytest', '-q'];

/**
 * pytest when the project configures it (pyproject, pytest.ini, setup.cfg, tox.ini, a top-level conftest.py) or has
 * a tests/ (or test/) folder, at the top or inside a package, and pytest is importable; else `unittest discover` over
 * that folder. pytest reads its own
 * config, so doctests the project enables there (`--doctest-modules`, `--doctest-glob`) run with it.
 */
export async function detectPythonTests(cwd: string, pytestImportable: () => Promise<boolean>): Promise<DetectedRunner | { skip: string } | undefined> {
  const read = (name: string) => readFile(path.join(cwd, name), 'utf8').catch(() => '');
  const exists = (name: string) => access(path.join(cwd, name)).then(() => true, () => false);
  let configured: string | undefined;
  if ((await read('pyproject.toml')).includes('[tool.pytest')) configured = 'pyproject.toml [tool.pytest]';
  else if (await exists('pytest.ini')) configured = 'pytest.ini';
  else if ((await read('setup.cfg')).includes('[tool:pytest]')) configured = 'setup.cfg [tool:pytest]';
  else if ((await read('tox.ini')).includes('[pytest]')) configured = 'tox.ini [pytest]';
  else if (await exists('conftest.py')) configured = 'conftest.py';
  // A tests/ folder counts only with Python test modules in it: a Rust crate keeps its integration tests there too.
  // Many packages keep theirs inside the package (pkg/tests/, src/pkg/tests/), which pytest from the root finds as well.
  const folder = (await hasTestModules(path.join(cwd, 'tests'))) ? 'tests' : (await hasTestModules(path.join(cwd, 'test'))) ? 'test' : await packageTests(cwd);
  if (!configured && !folder) return undefined;
  if (await pytestImportable()) return { argv: PYTEST, because: configured ?? `${folder}/ folder` };
  if (folder) {
    return { argv: ['{python}', '-m', 'unittest', 'discover', '-s', folder, '-t', '.'], because: `${folder}/ folder, pytest not importable` };
  }
  return configured ? { skip: `${configured} configures pytest, but the interpreter cannot import it (install pytest, or pass --test-command)` } : undefined;
}

/** Folders that hold someone else's code or build output, never the project's own tests. */
const NOT_THE_PROJECT = new Set(['node_modules', 'site-packages', 'dist-packages', 'venv', 'env', 'build', 'dist', '__pycache__', 'target']);

/**
 * The first `tests`/`test` folder with test modules inside a package, up to `src/<pkg>/tests` deep, in name order
 * (hidden folders, virtual environments and build output skipped); undefined when there is none.
 */
async function packageTests(cwd: string, dir = '', depth = 0): Promise<string | undefined> {
  if (depth > 2) return undefined;
  const entries = await readdir(path.join(cwd, dir), { withFileTypes: true }).catch(() => []);
  const folders = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && !NOT_THE_PROJECT.has(e.name)).map((e) => e.name).sort();
  for (const name of folders) {
    const relative = dir ? `${dir}/${name}` : name;
    if (depth > 0 && (name === 'tests' || name === 'test') && (await hasTestModules(path.join(cwd, relative)))) return relative;
  }
  for (const name of folders) {
    const found = await packageTests(cwd, dir ? `${dir}/${name}` : name, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** unittest discover with nothing to find exits non-zero on new Pythons; only run it where test modules exist. */
async function hasTestModules(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return entries.some((entry) => /(^|\/)(test[^/]*|[^/]*_test)\.py$/.test(String(entry)));
}

/** Whether `python` can import pytest, asked in the sandbox (the project may vendor or pin it). */
export async function canImportPytest(python: string, cwd: string, baseEnv: Record<string, string>, confine?: CheckConfinement): Promise<boolean> {
  const result = await runCheck({ name: 'pytest-probe', argv: [python, '-c', 'import pytest'], cwd, timeoutMs: 60_000, baseEnv, confine });
  return result.status === 'passed';
}
