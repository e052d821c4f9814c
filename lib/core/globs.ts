// File selection by glob (`src/**/*.py`, `**/migrations/**`): include and exclude patterns of the configuration and flags.

/** `**` any number of path segments, `*` anything but `/`, `?` one character but `/`; the rest literal. */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

export interface FileSelection {
  include: readonly string[];
  exclude: readonly string[];
}

/** A path (relative to the workspace) is selected when some include matches (or there are none) and no exclude does. */
export function selects(selection: FileSelection, file: string): boolean {
  const match = (globs: readonly string[]) => globs.some((g) => globToRegExp(g).test(file));
  return (selection.include.length === 0 || match(selection.include)) && !match(selection.exclude);
}
