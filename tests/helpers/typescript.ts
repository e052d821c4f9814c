// TypeScript fixture repositories: a fixture of fixtures/typescript/ committed in a temp repo, with the packages a user would have installed linked into node_modules (ignored, as npm leaves them).
import { mkdir, symlink, writeFile } from 'node:fs/promises';
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

/**
 * Makes the repository's own `typescript` a stand-in that says it is 4.7.2: tug's compiler, as `real`, with its language
 * service's methods in `service` replaced (`{ getEditsForRefactor: '(…) => …' }`, JavaScript source, `service` and `real`
 * in scope), standing in for an older compiler's behaviour without the registry.
 */
export async function standInCompiler(root: string, service: Record<string, string>, version = '4.7.2'): Promise<void> {
  const dir = path.join(root, 'node_modules', 'typescript');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'typescript', version, main: 'index.js' }));
  const methods = Object.entries(service).map(([name, body]) => `${name}: ${body}`).join(', ');
  await writeFile(
    path.join(dir, 'index.js'),
    [
      `const real = require(${JSON.stringify(INSTALLED['typescript'])});`,
      `const ts = { ...real, version: ${JSON.stringify(version)}, versionMajorMinor: ${JSON.stringify(version.split('.').slice(0, 2).join('.'))} };`,
      'ts.createLanguageService = (...args) => {',
      '  const service = real.createLanguageService(...args);',
      `  return { ...service, ${methods} };`,
      '};',
      'module.exports = ts;',
      '',
    ].join('\n'),
  );
}

/** Counts the rename searches the projects' language services answer from now on (`count()`); `restore()` undoes it. */
export function countSearches(projects: ReadonlyArray<{ service: { findRenameLocations: (...args: never[]) => unknown } }>): { count: () => number; restore: () => void } {
  let searches = 0;
  const originals = projects.map((p) => p.service.findRenameLocations);
  for (const p of projects) {
    const original = p.service.findRenameLocations.bind(p.service) as (...args: never[]) => unknown;
    p.service.findRenameLocations = (...args: never[]) => {
      searches += 1;
      return original(...args);
    };
  }
  return { count: () => searches, restore: () => projects.forEach((p, i) => (p.service.findRenameLocations = originals[i]!)) };
}
