// [session] session_dir: where a repository's session lives when the configuration says so. The user's config names a
// directory that holds one session per repository; a repository's own files may only move the session within its git
// directory, so a cloned repository cannot make tug write anywhere else.
import { realpath, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256 } from '../../core/hash.js';
import type { WarningJSON } from '../../core/schemas.js';
import type { Repo } from '../../git/repo.js';
import { userConfigDir } from '../../trust/store.js';
import { REPOSITORY_SOURCES, resolveConfig, userConfigFile } from './config.js';

/** Whether any config file could hold session_dir: a plain text check, so the common case reads no TOML at all. */
async function mentioned(root: string): Promise<boolean> {
  const files = [path.join(root, 'pyproject.toml'), path.join(root, 'tug.toml'), userConfigFile()];
  const texts = await Promise.all(files.map((file) => readFile(file, 'utf8').catch(() => '')));
  return texts.some((text) => text.includes('session_dir'));
}

/** The nearest existing ancestor of `target`, resolved through symlinks, with the rest of the path added back. */
async function realTarget(target: string): Promise<string> {
  let existing = target;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(await realpath(existing), ...rest.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return target;
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

function inside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/**
 * The session dir the configuration chooses for `repo`, or undefined for the default (<git-common-dir>/tug). A flag and
 * $TUG_SESSION_DIR outrank it (the caller checks those first). A repository value that leaves its git directory is
 * ignored with an UnsafePath warning.
 */
export async function configuredSessionDir(repo: Repo, warnings: WarningJSON[]): Promise<string | undefined> {
  const root = repo.root;
  if (!(await mentioned(root))) return undefined;
  const config = await resolveConfig(root, {});
  const value = config.session_dir;
  const source = config.sources['session_dir'];
  if (value === undefined || source === undefined) return undefined;
  if (!REPOSITORY_SOURCES.includes(source)) {
    // One directory for all repositories: each gets its own session below it, named after the repository.
    const base = path.resolve(userConfigDir(), value.replace(/^~(?=$|\/)/, process.env['HOME'] ?? '~'));
    return path.join(base, `${path.basename(repo.root)}-${sha256(repo.commonDir).slice(0, 12)}`);
  }
  const target = path.resolve(repo.commonDir, value);
  const [realTargetPath, realGitDir] = await Promise.all([realTarget(target), realpath(repo.commonDir)]);
  if (inside(target, repo.commonDir) && inside(realTargetPath, realGitDir)) return target;
  warnings.push({
    code: 'UnsafePath',
    message: `${source} session.session_dir ${JSON.stringify(value)} leaves the repository's git directory and is ignored (the session stays in ${path.join(repo.commonDir, 'tug')})`,
    details: { source, key: 'session.session_dir', path: target, reason: 'a repository may keep its session only inside its git directory' },
  });
  return undefined;
}
