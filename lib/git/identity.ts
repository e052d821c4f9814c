// The user's identity for result commits (user.name, user.email): one `git config` a change, or none in a long-lived tug while no config file git reads has changed.
import { existsSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { keepsInMemory, Recent } from '../core/memory.js';
import type { Repo } from './repo.js';
import { git } from './run-git.js';

export interface Identity {
  name: string;
  email: string;
}

interface Known {
  /** Every config file git may read for this repository, and their contents when the identity was read. */
  files: string[];
  contents: string;
  identity: Identity | undefined;
}

/** Per repository and config environment. Each `git config` from a large process (the daemon) blocks it ~5 ms in fork. */
const known = new Recent<Known>(32);

/** The user's configured identity, when both name and email are set; results are authored by them. */
export async function userIdentity(repo: Repo): Promise<Identity | undefined> {
  if (!keepsInMemory()) return (await readIdentity(repo)).identity;
  const env = process.env;
  const key = JSON.stringify([repo.root, repo.gitDir, repo.commonDir, Object.entries(env).filter(([name]) => CONFIG_ENV.test(name)).sort()]);
  const files = configFiles(repo, env);
  const hit = known.get(key);
  // Another git on PATH may read another system file: one not read then makes the entry stale.
  if (hit && files.every((file) => hit.files.includes(file)) && hit.contents === (await contentsOf(hit.files))) return hit.identity && { ...hit.identity };
  const before = await contentsOf(files);
  const read = await readIdentity(repo);
  if (read.cacheable && before !== undefined) {
    // The files git named are read too (a system config elsewhere than guessed); none changed while git read them.
    const all = [...new Set([...files, ...read.origins])];
    const after = await contentsOf(all);
    if (after?.startsWith(before)) known.set(key, { files: all, contents: after, identity: read.identity });
  }
  return read.identity;
}

/** What decides which config files git reads and what it adds: the homes and the config variables (PATH: configFiles). */
const CONFIG_ENV = /^(GIT_CONFIG.*|HOME|XDG_CONFIG_HOME)$/;

/**
 * Every file `git config` may read here, a superset: the system file (named by GIT_CONFIG_SYSTEM, /etc/gitconfig, or
 * beside the git on PATH), the global ones, the repository's and the worktree's. A file that does not exist yet is
 * recorded as absent, so creating it is seen.
 */
export function configFiles(repo: Repo, env: NodeJS.ProcessEnv): string[] {
  const home = env['HOME'] ?? '';
  const files = [
    ...(env['GIT_CONFIG_SYSTEM'] ? [env['GIT_CONFIG_SYSTEM']] : []),
    '/etc/gitconfig',
    ...gitPrefixes(env['PATH'] ?? '').map((prefix) => path.join(prefix, 'etc', 'gitconfig')),
    ...(env['GIT_CONFIG_GLOBAL'] ? [env['GIT_CONFIG_GLOBAL']] : []),
    path.join(env['XDG_CONFIG_HOME'] || path.join(home, '.config'), 'git', 'config'),
    path.join(home, '.gitconfig'),
    path.join(repo.commonDir, 'config'),
    path.join(repo.gitDir, 'config.worktree'),
    path.join(repo.commonDir, 'config.worktree'),
  ];
  return [...new Set(files.map((file) => path.resolve(repo.root, file)))];
}

const prefixes = new Map<string, string[]>();

/** The installation prefix of the first git on PATH (its real path's grandparent), where git looks for etc/gitconfig. */
function gitPrefixes(searchPath: string): string[] {
  let found = prefixes.get(searchPath);
  if (found) return found;
  found = [];
  for (const dir of searchPath.split(path.delimiter)) {
    const candidate = path.join(dir || '.', 'git');
    if (!existsSync(candidate)) continue;
    try {
      found = [path.dirname(path.dirname(realpathSync(candidate)))];
    } catch {
      // A dangling link: git would not run from there either.
    }
    break;
  }
  prefixes.set(searchPath, found);
  return found;
}

/**
 * The bytes of each file, or that it is absent; undefined when one cannot be read (nothing is kept then). Compared by
 * content, not by modification time: a file rewritten within one tick of the clock keeps its time, and `git branch -d`
 * rewrites the repository's config (to drop the branch's section) without changing what it says.
 */
async function contentsOf(files: readonly string[]): Promise<string | undefined> {
  const parts = await Promise.all(
    files.map((file) =>
      // latin1: one character a byte, so two different files never read the same (UTF-8 would fold bad bytes together).
      readFile(file, 'latin1').then(
        (text) => `${file}\0${text.length}\0${text}`,
        (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' || error.code === 'ENOTDIR' ? `${file}\0-` : undefined),
      ),
    ),
  );
  return parts.includes(undefined) ? undefined : `${parts.join('\0')}\0`;
}

/**
 * One `git config` listing everything (the last value of each key wins, as `git config --get` answers) with where each
 * came from. Kept only when git read nothing but files (no includes, whose conditions may follow the branch) and
 * answered normally.
 */
async function readIdentity(repo: Repo): Promise<{ identity: Identity | undefined; origins: string[]; cacheable: boolean }> {
  const out = await git(['config', '-z', '--show-origin', '--list'], { cwd: repo.root, allowFailure: true });
  const found = new Map<string, string>();
  const origins = new Set<string>();
  let cacheable = out.exitCode === 0;
  const items = out.stdout.split('\0');
  for (let i = 0; i + 1 < items.length; i += 2) {
    const origin = items[i]!;
    const item = items[i + 1]!;
    if (origin.startsWith('file:')) origins.add(path.resolve(repo.root, origin.slice('file:'.length)));
    // A key set without a value (`[user] name`) comes without the newline: an empty value, as `--get` prints.
    const newline = item.indexOf('\n');
    const name = (newline < 0 ? item : item.slice(0, newline)).toLowerCase();
    if (name.startsWith('include.') || name.startsWith('includeif.')) cacheable = false;
    if (name === 'user.name' || name === 'user.email') found.set(name, newline < 0 ? '' : item.slice(newline + 1));
  }
  const name = found.get('user.name');
  const email = found.get('user.email');
  const identity = name === undefined || email === undefined ? undefined : { name: name.trim(), email: email.trim() };
  return { identity, origins: [...origins], cacheable };
}
