// The files `ruff check .` leaves out, so that organize-imports --all leaves out the same ones: ruff's default
// exclusions (or the project's `exclude`, which replaces them) plus `extend-exclude`, from [tool.ruff] or ruff.toml.
// Patterns come from the repository, so they are matched by re2js (linear time): no pattern can make tug spin.
import { RE2JS } from 're2js';

/** ruff's own `exclude` default (ruff_workspace's DEFAULT_EXCLUDES). */
export const RUFF_DEFAULT_EXCLUDE: readonly string[] = [
  '.bzr', '.direnv', '.eggs', '.git', '.git-rewrite', '.hg', '.ipynb_checkpoints', '.mypy_cache', '.nox', '.pants.d', '.pyenv',
  '.pytest_cache', '.pytype', '.ruff_cache', '.svn', '.tox', '.venv', '.vscode', '__pypackages__', '_build', 'buck-out', 'dist',
  'node_modules', 'site-packages', 'venv',
];

type Table = Record<string, unknown>;

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
}

interface Pattern {
  /** Matched against a path relative to the repository root (ruff joins a pattern to the project root). */
  path: RE2JS;
  /** A pattern without a slash also matches a file or directory by its own name, at any depth. */
  name: RE2JS | null;
}

/**
 * globset's syntax as ruff builds it: `*`, `**` and `?` cross `/` (no literal_separator), `[...]`/`[!...]` classes,
 * `{a,b}` alternatives. Null for a pattern ruff would refuse too (an unclosed class); it excludes nothing.
 */
function globSource(glob: string): string | null {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      while (glob[i + 1] === '*') i++;
      out += '.*';
    } else if (c === '?') out += '.';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) return null;
      const set = glob.slice(i + 1, close);
      const negated = set.startsWith('!');
      out += `[${negated ? '^' : ''}${(negated ? set.slice(1) : set).replace(/[\\\]^[]/g, '\\$&')}]`;
      i = close;
    } else if (c === '{') {
      const close = glob.indexOf('}', i);
      if (close < 0) return null;
      const parts = glob.slice(i + 1, close).split(',').map(globSource);
      if (parts.some((p) => p === null)) return null;
      out += `(?:${parts.join('|')})`;
      i = close;
    } else if (c === '\\' && i + 1 < glob.length) out += RE2JS.quote(glob[++i]!);
    else out += RE2JS.quote(c);
  }
  return out;
}

function compile(glob: string): Pattern | null {
  const relative = glob.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  const source = globSource(relative);
  if (source === null || relative === '' || relative.startsWith('/')) return null;
  // As ruff: a pattern written with a slash (`./scripts/` included) is a path, never a name.
  return { path: RE2JS.compile(source), name: glob.includes('/') ? null : RE2JS.compile(source) };
}

/** The exclusions ruff applies in this project: `ruff` is the parsed ruff.toml, or pyproject's [tool.ruff]. */
export function ruffExclusions(ruff: Table | undefined): Pattern[] {
  const globs = [...(strings(ruff?.['exclude']) ?? RUFF_DEFAULT_EXCLUDE), ...(strings(ruff?.['extend-exclude']) ?? [])];
  return globs.map(compile).filter((p): p is Pattern => p !== null);
}

/** Whether ruff skips `file` (repository-relative): the file or one of its directories matches a pattern. */
export function excludedByRuff(file: string, patterns: readonly Pattern[]): boolean {
  if (patterns.length === 0) return false;
  const parts = file.split('/');
  for (let depth = 1; depth <= parts.length; depth++) {
    const prefix = parts.slice(0, depth).join('/');
    const name = parts[depth - 1]!;
    if (patterns.some((p) => p.path.matches(prefix) || (p.name !== null && p.name.matches(name)))) return true;
  }
  return false;
}
