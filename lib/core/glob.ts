// Glob patterns for the listing and search tools and the include/exclude configuration (`*`, `**`, `?`, `[...]`,
// `{a,b}`), matched without touching the disk. A repository's tug.toml supplies them, so they compile to RE2 (re2js):
// matching is linear in the path, and a malformed glob is an error naming it instead of an exception deep in a matcher.
import { RE2JS } from 're2js';
import { TugError } from './errors.js';

/** A glob tug cannot read: InvalidArgument where a caller passed it; configuration turns it into InvalidConfig. */
export class GlobError extends TugError {
  constructor(
    readonly glob: string,
    readonly reason: string,
  ) {
    super('InvalidArgument', `invalid glob ${JSON.stringify(glob)}: ${reason}`, { details: { argument: 'glob', glob, reason } });
  }
}

/** Escapes every punctuation character: RE2 accepts `\` before any of them, and a literal stays literal. */
function escape(char: string): string {
  return /[\p{P}\p{S}]/u.test(char) && char.charCodeAt(0) < 128 ? `\\${char}` : char;
}

function body(glob: string, whole: string): string {
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
    else if (c === '{') {
      const close = glob.indexOf('}', i);
      if (close < 0) throw new GlobError(whole, 'a { has no closing }');
      re += `(?:${glob
        .slice(i + 1, close)
        .split(',')
        .map((part) => body(part, whole))
        .join('|')})`;
      i = close;
    } else if (c === '[') {
      // `]` right after `[` (or `[!`) is a member, as in POSIX globs.
      const start = glob[i + 1] === '!' ? i + 2 : i + 1;
      const close = glob.indexOf(']', start + 1);
      if (close < 0) throw new GlobError(whole, 'a [ has no closing ]');
      const members = glob.slice(start, close).replace(/\\/g, '\\\\').replace(/\[/g, '\\[');
      re += `[${start === i + 2 ? '^' : ''}${members}]`;
      i = close;
    } else re += escape(c);
  }
  return re;
}

/** What a compiled glob offers: a whole-string test (named like RegExp's, which it replaces). */
export interface GlobMatcher {
  test(target: string): boolean;
}

const compiled = new Map<string, GlobMatcher>();

/** Compiles a glob (cached: file selection tests every path against the same few); throws GlobError when malformed. */
export function globToRegExp(glob: string): GlobMatcher {
  const known = compiled.get(glob);
  if (known) return known;
  let re: RE2JS;
  try {
    re = RE2JS.compile(`^(?:${body(glob, glob)})$`, RE2JS.DOTALL);
  } catch (error) {
    if (error instanceof GlobError) throw error;
    throw new GlobError(glob, (error as Error).message.replace(/^error parsing regexp: /, ''));
  }
  const matcher = { test: (target: string) => re.matches(target) };
  if (compiled.size > 1000) compiled.clear();
  compiled.set(glob, matcher);
  return matcher;
}

/** The reason a glob is malformed, or undefined when it compiles: for validating configuration up front. */
export function globProblem(glob: string): string | undefined {
  try {
    globToRegExp(glob.replace(/^\.\//, ''));
    return undefined;
  } catch (error) {
    if (error instanceof GlobError) return error.reason;
    throw error;
  }
}

/** A pattern without a slash matches the file name at any depth (like .gitignore and rg --glob); with one, the relative path. */
export function matchesGlob(relativePath: string, glob: string): boolean {
  const target = glob.includes('/') ? relativePath : relativePath.slice(relativePath.lastIndexOf('/') + 1);
  return globToRegExp(glob.replace(/^\.\//, '')).test(target);
}
