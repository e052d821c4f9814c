// Which files analysis considers: the include and exclude globs of the configuration, TUG_INCLUDE/TUG_EXCLUDE and flags.
import { globToRegExp } from './glob.js';

export interface FileSelection {
  include: readonly string[];
  exclude: readonly string[];
}

/**
 * A path relative to the workspace is selected when some include matches (or there are none) and no exclude does.
 * Globs match the whole relative path: `**` crosses directories, `*` does not (`*.py` is top-level files only).
 */
export function selects(selection: FileSelection, file: string): boolean {
  const match = (globs: readonly string[]) => globs.some((g) => globToRegExp(g.replace(/^\.\//, '')).test(file));
  return (selection.include.length === 0 || match(selection.include)) && !match(selection.exclude);
}
