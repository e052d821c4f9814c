// Which paths git ignores, asked of git itself so every .gitignore, info/exclude and core.excludesFile rule applies.
import { TugError } from '../core/errors.js';
import type { Repo } from './repo.js';
import { git } from './run-git.js';

/** The subset of repo-relative `paths` that .gitignore rules exclude. */
export async function ignoredPaths(repo: Repo, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const out = await git(['check-ignore', '--no-index', '-z', '--stdin'], { cwd: repo.root, input: `${paths.join('\0')}\0`, allowFailure: true });
  if (out.exitCode > 1) throw new TugError('InternalError', `git check-ignore failed: ${out.stderr.trim()}`, { details: { exit_code: out.exitCode } });
  return new Set(out.stdout.split('\0').filter(Boolean));
}
