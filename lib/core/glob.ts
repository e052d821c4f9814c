// Glob patterns for the listing and search tools (`*`, `**`, `?`, `[...]`, `{a,b}`), matched without touching the disk.

function escape(char: string): string {
  return /[.+^$|()\\/]/.test(char) ? `\\${char}` : char;
}

function body(glob: string): string {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') {
          i++;
          re += '(?:.*/)?';
        } else re += '.*';
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{' && glob.indexOf('}', i) > i) {
      const close = glob.indexOf('}', i);
      re += `(?:${glob.slice(i + 1, close).split(',').map(body).join('|')})`;
      i = close;
    } else if (c === '[' && glob.indexOf(']', i + 2) > i) {
      const close = glob.indexOf(']', i + 2);
      const set = glob.slice(i + 1, close).replace(/\\/g, '\\\\');
      re += `[${set.startsWith('!') ? `^${set.slice(1)}` : set}]`;
      i = close;
    } else re += escape(c);
  }
  return re;
}

export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${body(glob)}$`);
}

/** A pattern without a slash matches the file name at any depth (like .gitignore and rg --glob); with one, the relative path. */
export function matchesGlob(relativePath: string, glob: string): boolean {
  const target = glob.includes('/') ? relativePath : relativePath.slice(relativePath.lastIndexOf('/') + 1);
  return globToRegExp(glob.replace(/^\.\//, '')).test(target);
}
