// Makes Python checks import the sandbox's code: its import roots first on PYTHONPATH, then an audit that refuses when a project package still resolves elsewhere (an editable install, a stale copy, a finder hook).
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import { runCheck } from './run-check.js';
import type { CheckConfinement } from './check-confinement.js';
import { isInside, type UserRepository } from './user-checkout.js';

/** Folders at an import root that are never the project's own packages. */
const NOT_PACKAGES = new Set(['node_modules', 'site-packages', 'dist-packages', 'venv', 'env', 'build', 'dist', '__pycache__', 'target']);

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

const isDir = (dir: string) => stat(dir).then((s) => s.isDirectory(), () => false);
const isFile = (file: string) => stat(file).then((s) => s.isFile(), () => false);

/** Where the project's top-level modules live in the sandbox: `src/` (src layout) before the root (flat layout). */
export async function importRoots(sandbox: string): Promise<string[]> {
  const src = path.join(sandbox, 'src');
  return (await isDir(src)) ? [src, sandbox] : [sandbox];
}

/**
 * The project's top-level import names: packages (a folder with `__init__.py`) at every import root, and under `src/`
 * also plain modules and namespace packages (a src folder holds nothing else). Root-level modules are left out: there
 * `setup.py` or `conftest.py` sit beside the code and a stray one may share a standard module's name.
 */
export async function projectPackages(sandbox: string, roots: readonly string[]): Promise<string[]> {
  const names = new Set<string>();
  for (const root of roots) {
    const src = root !== sandbox;
    const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const name = entry.name.endsWith('.py') ? entry.name.slice(0, -3) : entry.name;
      if (!IDENTIFIER.test(name) || NOT_PACKAGES.has(name)) continue;
      if (entry.isDirectory() && (await isFile(path.join(root, entry.name, '__init__.py')))) names.add(name);
      else if (src && entry.isDirectory() && (await readdir(path.join(root, entry.name)).catch(() => [] as string[])).some((f) => f.endsWith('.py'))) names.add(name);
      else if (src && entry.isFile() && entry.name.endsWith('.py')) names.add(name);
    }
  }
  return [...names].sort();
}

/**
 * The environment every Python check runs with: the sandbox's import roots first on PYTHONPATH, then the caller's own
 * entries, each that points into one of the user's checkouts moved to the same place in the sandbox (a developer's
 * `PYTHONPATH=~/proj/src` would otherwise import the unpatched code).
 */
export async function pythonPathEnv(baseEnv: Record<string, string>, sandbox: string, user: UserRepository | null): Promise<Record<string, string>> {
  const entries = [...(await importRoots(sandbox))];
  for (const entry of (baseEnv['PYTHONPATH'] ?? '').split(path.delimiter)) {
    if (entry === '') continue;
    let moved = entry;
    if (path.isAbsolute(entry) && user) {
      const real = await realpath(entry).catch(() => path.resolve(entry));
      const checkout = user.checkouts.find((dir) => isInside(real, dir));
      if (checkout) moved = path.join(sandbox, path.relative(checkout, real));
    }
    if (!entries.includes(moved)) entries.push(moved);
  }
  return { ...baseEnv, PYTHONPATH: entries.join(path.delimiter) };
}

/**
 * Asks, in the check's own interpreter, environment and cwd, where each name would be imported from: `find_spec` of a
 * top-level name runs the finders (what .pth files and editable hooks installed) but not the package. The cwd is off
 * sys.path while importlib.util loads, so a project file named like a standard module is not run for this. One process
 * for all names; prints `name NUL kind NUL path NUL` per location found.
 */
const AUDIT_SCRIPT = `
import sys, os
saved = list(sys.path)
sys.path[:] = [p for p in sys.path if p not in ("", ".") and os.path.abspath(p) != os.getcwd()]
import importlib.util
sys.path[:] = saved
out = []
for name in sys.argv[1:]:
    try:
        spec = importlib.util.find_spec(name)
    except BaseException as error:
        out.append((name, "error", type(error).__name__ + ": " + str(error)))
        continue
    if spec is None:
        continue
    if spec.origin and spec.origin not in ("built-in", "frozen", "namespace"):
        out.append((name, "origin", os.path.realpath(spec.origin)))
    else:
        for location in spec.submodule_search_locations or ():
            out.append((name, "portion", os.path.realpath(location)))
sys.stdout.write("TUG-AUDIT\\0" + "".join(a + "\\0" + b + "\\0" + c + "\\0" for a, b, c in out))
`;

export interface AuditSpec {
  python: string;
  sandbox: string;
  env: Record<string, string>;
  user: UserRepository | null;
  timeoutMs: number;
  /** The confinement of the check it precedes. */
  confine?: CheckConfinement;
  /** What the audit precedes, for the error message. */
  check: string;
}

/** Throws VerificationNotIsolated when a project package resolves outside the sandbox; does nothing when it cannot tell. */
export async function auditPythonImports(spec: AuditSpec): Promise<void> {
  const roots = await importRoots(spec.sandbox);
  const names = await projectPackages(spec.sandbox, roots);
  if (names.length === 0) return;
  const argv = [spec.python, '-c', AUDIT_SCRIPT, ...names];
  const result = await runCheck({ name: 'import-audit', argv, cwd: spec.sandbox, timeoutMs: spec.timeoutMs, baseEnv: spec.env, confine: spec.confine });
  const output = result.output ?? '';
  const start = output.indexOf('TUG-AUDIT\0');
  // An interpreter that cannot start fails the check itself, with its own message; the audit has nothing to add.
  if (start < 0) return;
  const fields = output.slice(start + 'TUG-AUDIT\0'.length).split('\0');
  const sandbox = await realpath(spec.sandbox).catch(() => spec.sandbox);
  const found = new Map<string, Array<{ kind: string; path: string }>>();
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const list = found.get(fields[i]!) ?? [];
    list.push({ kind: fields[i + 1]!, path: fields[i + 2]! });
    found.set(fields[i]!, list);
  }
  for (const [name, locations] of found) {
    const error = locations.find((l) => l.kind === 'error');
    const origin = locations.find((l) => l.kind === 'origin');
    const portions = locations.filter((l) => l.kind === 'portion');
    // A namespace package may have portions in other distributions; only those in the user's checkout, or none in the
    // sandbox at all, mean the tests would read other code than the sandbox's.
    const outside = error
      ? error.path
      : origin
        ? isInside(origin.path, sandbox) ? undefined : origin.path
        : portions.find((p) => spec.user?.checkouts.some((dir) => isInside(p.path, dir)) && !isInside(p.path, sandbox))?.path ??
          (portions.some((p) => isInside(p.path, sandbox)) ? undefined : portions[0]?.path);
    if (outside !== undefined) throw notIsolated(spec.check, name, outside, spec.sandbox);
  }
}

/** `name` is a package (Python) or the manifest or cargo config naming the path (Rust). */
export function notIsolated(check: string, name: string, where: string, sandbox: string, verb = 'imports from'): TugError {
  return new TugError(
    'VerificationNotIsolated',
    `the ${check} would not test the change: ${name} ${verb} ${where}, outside the sandbox ${sandbox}; nothing was run`,
    { details: { check, package: name, path: where, sandbox } },
  );
}
