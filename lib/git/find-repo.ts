// Finds the repository around a directory as git would, in Node, for the plain layouts (a `.git` directory or a
// `gitdir:` file above it): `git rev-parse` was one git process in every command. Anything else is left to git.
import { lstat, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** What repo.ts's Repo holds (not imported from there, which imports this). */
interface Found {
  root: string;
  gitDir: string;
  commonDir: string;
  prefix: string;
}

/**
 * Variables that change where git looks or what it accepts, and that run-git.ts does not drop: with one of them set,
 * git is asked.
 */
const DISCOVERY_VARIABLES = ['GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM', 'GIT_COMMON_DIR', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT'];

/**
 * The repository git would find from `dir`, or undefined whenever the walk is not sure to match it: a bare repository
 * or a directory inside a git directory on the way, a mount point crossed, a file or directory not owned by this user
 * (safe.directory), a `.git` git would skip or refuse, a config that sets `core.bare`, `core.worktree`, includes or
 * extensions. Paths are symlink-free, as git's own answers are.
 */
export async function walkToRepo(dir: string): Promise<Found | undefined> {
  const uid = process.geteuid?.();
  if (uid === undefined || DISCOVERY_VARIABLES.some((name) => process.env[name] !== undefined)) return undefined;
  const start = await realpath(dir).catch(() => undefined);
  if (start === undefined) return undefined;
  const device = (await stat(start)).dev;
  for (let top = start; ; ) {
    const dotGit = path.join(top, '.git');
    const found = await lstat(dotGit).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : undefined));
    if (found === undefined) return undefined;
    if (found) {
      const gitDir = found.isDirectory() ? dotGit : found.isFile() ? await gitFileTarget(dotGit) : undefined;
      const commonDir = gitDir === undefined ? undefined : await gitDirectory(gitDir);
      if (gitDir === undefined || commonDir === undefined) return undefined;
      const owners = await Promise.all([top, dotGit, gitDir, commonDir].map((p) => lstat(p).then((s) => s.uid, () => -1)));
      if (owners.some((owner) => owner !== uid) || !(await plainConfig(commonDir))) return undefined;
      return { root: top, gitDir, commonDir, prefix: path.relative(top, start).split(path.sep).join('/') };
    }
    // A directory that may itself be a git directory (bare, or the inside of one): git's rules there are its own.
    if (await lstat(path.join(top, 'HEAD')).then(() => true, () => false)) return undefined;
    const parent = path.dirname(top);
    if (parent === top || (await stat(parent)).dev !== device) return undefined;
    top = parent;
  }
}

/** Where a `gitdir: PATH` file points (relative to the file's directory), symlink-free. */
async function gitFileTarget(file: string): Promise<string | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const target = /^gitdir: (.+?)[\r\n]*$/.exec(text)?.[1];
  return target === undefined ? undefined : realpath(path.resolve(path.dirname(file), target)).catch(() => undefined);
}

/**
 * The common directory of `gitDir` when it is a git directory by git's test (a HEAD naming a ref or a commit, objects/
 * and refs/ in its common directory), symlink-free; else undefined.
 */
async function gitDirectory(gitDir: string): Promise<string | undefined> {
  const head = await readFile(path.join(gitDir, 'HEAD'), 'utf8').catch(() => '');
  if (!/^(?:ref: refs\/\S+|[0-9a-f]{40}|[0-9a-f]{64})\n?$/.test(head)) return undefined;
  const pointer = await readFile(path.join(gitDir, 'commondir'), 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : undefined));
  if (pointer === undefined) return undefined;
  const commonDir = pointer === null ? gitDir : await realpath(path.resolve(gitDir, pointer.replace(/[\r\n]+$/, ''))).catch(() => undefined);
  if (commonDir === undefined) return undefined;
  const dirs = await Promise.all(['objects', 'refs'].map((name) => stat(path.join(commonDir, name)).then((s) => s.isDirectory(), () => false)));
  return dirs.every(Boolean) ? commonDir : undefined;
}

/**
 * A repository config git reads no differently from the walk: no `core.bare` but false, no `core.worktree`, no include,
 * no extension (a worktree's own config file comes only with one), a known format version. Judged on words, not parsed:
 * a config that only might say one of these is left to git.
 */
async function plainConfig(commonDir: string): Promise<boolean> {
  const text = await readFile(path.join(commonDir, 'config'), 'utf8').catch(() => undefined);
  if (text === undefined || /worktree|include|extensions/i.test(text)) return false;
  for (const line of text.split('\n')) {
    if (/\bbare\b/i.test(line) && !/^\s*bare\s*=\s*false\s*$/i.test(line)) return false;
    if (/repositoryformatversion/i.test(line) && !/^\s*repositoryformatversion\s*=\s*[01]\s*$/i.test(line)) return false;
  }
  return true;
}
