// What organize-imports takes from a project: its own top-level modules (first party) and its isort settings, from
// [tool.ruff.lint.isort] / [tool.ruff.isort] / ruff.toml (ruff's names, passed on) or [tool.isort] (isort's names, mapped).
import type { WarningJSON } from '../core/schemas.js';
import type { IsortSettings } from './organize-imports.js';

export interface ImportSettings {
  firstParty: string[];
  isort: IsortSettings;
  lineLength?: number;
  warnings: WarningJSON[];
}

/** isort's own option names and ruff's for the same thing; the others are reported, not guessed at. */
const FROM_ISORT: Record<string, string> = {
  known_first_party: 'known-first-party',
  known_third_party: 'known-third-party',
  known_local_folder: 'known-local-folder',
  extra_standard_library: 'extra-standard-library',
  force_single_line: 'force-single-line',
  combine_as_imports: 'combine-as-imports',
  force_sort_within_sections: 'force-sort-within-sections',
  lines_after_imports: 'lines-after-imports',
  lines_between_types: 'lines-between-types',
  order_by_type: 'order-by-type',
  case_sensitive: 'case-sensitive',
  no_lines_before: 'no-lines-before',
  split_on_trailing_comma: 'split-on-trailing-comma',
  force_wrap_aliases: 'force-wrap-aliases',
  force_to_top: 'force-to-top',
  from_first: 'from-first',
  length_sort: 'length-sort',
  single_line_exclusions: 'single-line-exclusions',
};
/** isort options that only shape line wrapping, which ruff decides from line-length (and black's style, its default). */
const WRAPPING = new Set(['profile', 'line_length', 'multi_line_output', 'include_trailing_comma', 'use_parentheses', 'ensure_newline_before_comments', 'skip_gitignore', 'skip', 'skip_glob', 'extend_skip', 'extend_skip_glob']);

type Table = Record<string, unknown>;
const table = (value: unknown): Table | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Table) : undefined);

/**
 * Top-level modules and packages under the source roots (ruff's `src`, by default the root and `src/`). A top-level
 * folder without `__init__.py` is a namespace package whose other parts may live elsewhere: as ruff does (it looks
 * for the whole module path on disk), only the parts this repository holds count, as `top.part`.
 */
export function firstPartyOf(paths: readonly string[], roots: readonly string[] = ['.', 'src']): string[] {
  const names = new Set<string>();
  const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;
  const present = new Set(paths);
  for (const root of roots) {
    const prefix = root.replace(/^\.\/?/, '').replace(/\/+$/, '');
    const base = prefix === '' ? '' : `${prefix}/`;
    for (const file of paths) {
      if (!/\.pyi?$/.test(file) || !file.startsWith(base)) continue;
      const rest = file.slice(base.length).split('/');
      const top = rest[0]!.replace(/\.pyi?$/, '');
      if (!identifier.test(top)) continue;
      const regular = rest.length === 1 || present.has(`${base}${top}/__init__.py`) || present.has(`${base}${top}/__init__.pyi`);
      const part = rest[1]?.replace(/\.pyi?$/, '');
      if (regular) names.add(top);
      else if (part && identifier.test(part)) names.add(`${top}.${part}`);
    }
  }
  return [...names].sort();
}

/** Source roots as the configuration names them (ruff's `src`, isort's `src_paths`), inside the repository only. */
function rootsOf(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return undefined;
  return (value as string[]).filter((v) => !v.startsWith('/') && !v.split('/').includes('..'));
}

/** `pyproject` and `ruff` are the parsed pyproject.toml and ruff.toml (or .ruff.toml) of the repository, when present. */
export function importSettings(paths: readonly string[], pyproject: Table | undefined, ruff: Table | undefined): ImportSettings {
  const warnings: WarningJSON[] = [];
  const tool = table(pyproject?.['tool']);
  const ruffTable = ruff ?? table(tool?.['ruff']);
  const ruffIsort = table(table(ruffTable?.['lint'])?.['isort']) ?? table(ruffTable?.['isort']);
  const lineLength = typeof ruffTable?.['line-length'] === 'number' ? (ruffTable['line-length'] as number) : undefined;
  let isort: IsortSettings = {};
  let lineFromIsort: number | undefined;
  if (ruffIsort) isort = { ...ruffIsort };
  else if (table(tool?.['isort'])) {
    for (const [key, value] of Object.entries(table(tool!['isort'])!)) {
      if (FROM_ISORT[key]) isort[FROM_ISORT[key]!] = value;
      else if (key === 'line_length' && typeof value === 'number') lineFromIsort = value;
      else if (key === 'src_paths' && rootsOf(value)) continue;
      else if (!WRAPPING.has(key)) {
        warnings.push({ code: 'IsortSettingIgnored', message: `pyproject.toml [tool.isort] ${key} has no ruff equivalent tug knows; organize-imports ignores it`, details: { key } });
      }
    }
  }
  const roots = rootsOf(ruffTable?.['src']) ?? (ruffIsort ? undefined : rootsOf(table(tool?.['isort'])?.['src_paths']));
  return { firstParty: firstPartyOf(paths, roots), isort, ...(lineLength ?? lineFromIsort ? { lineLength: lineLength ?? lineFromIsort } : {}), warnings };
}
