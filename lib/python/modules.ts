// Maps Python files to dotted module names and back, for workspace-only import resolution (seed D09).
import path from 'node:path';

export interface ModuleMap {
  /** Module name → repo-relative file ('pkg' → 'pkg/__init__.py'). */
  byName: Map<string, string>;
  /** File → module name. */
  byFile: Map<string, string>;
}

/**
 * Directories that hold top-level packages: the repository's root and a `src/` layout if present. They never depend on
 * where tug was started (`cd pkg`, `-C pkg`): a root taken from there named `pkg/a.py` module `a`, so `from pkg.a import f`
 * elsewhere no longer reached it and a rename left it behind without a word.
 */
export function sourceRoots(files: readonly string[]): string[] {
  const roots = [''];
  if (files.some((f) => f.startsWith('src/') && f.endsWith('.py'))) roots.push('src');
  return roots;
}

export function buildModuleMap(files: readonly string[], roots: readonly string[]): ModuleMap {
  const byName = new Map<string, string>();
  const byFile = new Map<string, string>();
  // Deeper roots first, so `src/pkg/a.py` is `pkg.a`, not `src.pkg.a`.
  const ordered = [...roots].sort((a, b) => b.length - a.length);
  for (const file of [...files].sort()) {
    if (!file.endsWith('.py') && !file.endsWith('.pyi')) continue;
    const root = ordered.find((r) => r === '' || file.startsWith(`${r}/`));
    if (root === undefined) continue;
    const relative = root === '' ? file : file.slice(root.length + 1);
    const name = moduleName(relative);
    if (name === null) continue;
    if (!byName.has(name) || file.endsWith('.py')) byName.set(name, file);
    byFile.set(file, name);
  }
  return { byName, byFile };
}

function moduleName(relative: string): string | null {
  const withoutExt = relative.replace(/\.pyi?$/, '');
  const parts = withoutExt.split('/');
  if (parts[parts.length - 1] === '__init__') parts.pop();
  if (parts.length === 0 || !parts.every((p) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(p))) return null;
  return parts.join('.');
}

/** The package a module's relative imports start from (`from . import x`). */
export function packageOf(file: string, module: string): string {
  return path.posix.basename(file).startsWith('__init__.') ? module : module.split('.').slice(0, -1).join('.');
}

/** Resolves `from ..a import b` in `module` to an absolute module name, or null when it climbs out. */
export function absoluteModule(file: string, module: string, level: number, target: string | null): string | null {
  if (level === 0) return target;
  let base = packageOf(file, module).split('.').filter(Boolean);
  if (level - 1 > base.length) return null;
  base = base.slice(0, base.length - (level - 1));
  return [...base, ...(target ? [target] : [])].join('.') || null;
}
