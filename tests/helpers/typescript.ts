// TypeScript fixture repositories: a fixture of fixtures/typescript/ committed in a temp repo, with the packages a user would have installed linked into node_modules (ignored, as npm leaves them).
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from './golden.js';
import { fixtureRepo } from './rename-cases.js';
import type { TestRepo } from './repo.js';

/** tug's own installed packages stand in for the user's `npm ci` (the registry is not needed). */
const INSTALLED: Record<string, string> = {
  typescript: path.join(PROJECT_ROOT, 'node_modules', 'typescript'),
  '@types/node': path.join(PROJECT_ROOT, 'node_modules', '@types', 'node'),
};

/**
 * `install` names packages to link into `<dir>/node_modules` (a tug package, or `name=relative/dir` for a workspace
 * package linked the way npm workspaces link them).
 */
export async function tsFixture(name: string, install: Record<string, string[]> = {}): Promise<TestRepo> {
  const repo = await fixtureRepo('typescript', name);
  for (const [dir, packages] of Object.entries(install)) {
    for (const spec of packages) {
      const [pkg, local] = spec.split('=') as [string, string | undefined];
      const at = path.join(repo.root, dir, 'node_modules', pkg);
      await mkdir(path.dirname(at), { recursive: true });
      await symlink(local ? path.relative(path.dirname(at), path.join(repo.root, local)) : INSTALLED[pkg]!, at);
      if (pkg === 'typescript') {
        // npm links a package's bins into node_modules/.bin with relative links.
        await mkdir(path.join(repo.root, dir, 'node_modules', '.bin'), { recursive: true });
        await symlink('../typescript/bin/tsc', path.join(repo.root, dir, 'node_modules', '.bin', 'tsc'));
      }
    }
  }
  return repo;
}

export const TS_ENV = { TUG_LOCK_TIMEOUT_MS: '2000', TUG_NO_DAEMON: '1' };
