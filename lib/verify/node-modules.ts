// Makes Node checks in a sandbox see the user's installed packages (read-only, never written) while importing the sandbox's own code: node_modules is mirrored entry by entry, workspace links pointing back into the user's checkout are re-pointed at the sandbox, and anything still resolving into the checkout is refused.
import { lstat, mkdir, readdir, readlink, realpath, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { notIsolated } from './python-isolation.js';
import { isInside, type UserRepository } from './user-checkout.js';

/** Folders never holding a package of the workspace. */
const SKIP = new Set(['node_modules', '.git', 'target', 'dist', 'build']);

/** Entries of an installed node_modules a test run may write (tool caches): they start empty in the sandbox instead. */
const LOCAL = new Set(['.cache', '.vite', '.vitest', '.tsbuildinfo']);

const isDir = (p: string) => stat(p).then((s) => s.isDirectory(), () => false);
const exists = (p: string) => lstat(p).then(() => true, () => false);

/** Repository-relative dirs holding a package.json, breadth-first, at most `limit`. */
export async function packageDirs(root: string, limit = 2000): Promise<string[]> {
  const found: string[] = [];
  const queue = [''];
  while (queue.length > 0 && found.length < limit) {
    const rel = queue.shift()!;
    const entries = await readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory() && !SKIP.has(entry.name) && !entry.name.startsWith('.')) queue.push(child);
      else if (entry.isFile() && entry.name === 'package.json') found.push(rel);
    }
  }
  return found;
}

/** The installed package a link inside node_modules stands for: in a node_modules folder (npm, pnpm's store), not the checkout's own code. */
function installed(rel: string): boolean {
  return rel.split(path.sep).includes('node_modules');
}

/**
 * For each package dir of the sandbox without a node_modules of its own, the first of the user's checkouts that has
 * one there is mirrored into it. Returns the dirs mirrored (repository paths).
 */
export async function mirrorNodeModules(sandbox: string, user: UserRepository | null): Promise<string[]> {
  if (!user || user.checkouts.length === 0) return [];
  const mirrored: string[] = [];
  for (const dir of await packageDirs(sandbox)) {
    const target = path.join(sandbox, dir, 'node_modules');
    if (await exists(target)) continue;
    let source: string | undefined;
    for (const checkout of user.checkouts) {
      if (await isDir(path.join(checkout, dir, 'node_modules'))) {
        source = path.join(checkout, dir, 'node_modules');
        break;
      }
    }
    if (!source) continue;
    await mirror(source, target, sandbox, user);
    mirrored.push(dir);
  }
  return mirrored;
}

async function mirror(source: string, target: string, sandbox: string, user: UserRepository): Promise<void> {
  await mkdir(target, { recursive: true });
  for (const entry of await readdir(source, { withFileTypes: true }).catch(() => [])) {
    const from = path.join(source, entry.name);
    const to = path.join(target, entry.name);
    if (LOCAL.has(entry.name)) continue;
    if (entry.isDirectory() && (entry.name.startsWith('@') || entry.name === '.bin')) {
      await mirror(from, to, sandbox, user);
      continue;
    }
    if (entry.isSymbolicLink()) {
      const real = await realpath(from).catch(() => null);
      if (real === null) continue;
      const checkout = user.checkouts.find((c) => isInside(real, c));
      if (checkout && !installed(path.relative(checkout, real))) {
        // A workspace package (npm/yarn/pnpm workspaces link it here): the sandbox's copy is the one under test.
        const inSandbox = path.join(sandbox, path.relative(checkout, real));
        if (!(await exists(inSandbox))) throw notIsolated('tests', path.relative(path.dirname(path.dirname(target)), to), real, sandbox, 'is linked to');
        await symlink(path.relative(path.dirname(to), inSandbox), to);
        continue;
      }
      // `.bin` links keep their relative text, so they land on the mirror's packages (a workspace package's bin too).
      if (path.basename(source) === '.bin') {
        await symlink(await readlink(from), to);
        continue;
      }
    }
    await symlink(from, to);
  }
}

/**
 * Refuses when a package the sandbox's Node checks would load still resolves into the user's checkout outside its
 * installed packages: a committed or mirrored node_modules link, a tsconfig path (`baseUrl`, `paths`, `rootDirs`,
 * `typeRoots`) naming the checkout by absolute path.
 */
export async function auditNodeIsolation(sandbox: string, user: UserRepository | null, tsconfigs: ReadonlyMap<string, unknown>): Promise<void> {
  if (!user || user.checkouts.length === 0) return;
  const intoCheckout = (real: string) => {
    const checkout = user.checkouts.find((c) => isInside(real, c));
    return checkout !== undefined && !isInside(real, sandbox) && !installed(path.relative(checkout, real));
  };
  for (const dir of await packageDirs(sandbox)) {
    const modules = path.join(sandbox, dir, 'node_modules');
    const names: string[] = [];
    for (const entry of await readdir(modules, { withFileTypes: true }).catch(() => [])) {
      if (entry.name.startsWith('@') && entry.isDirectory()) {
        for (const scoped of await readdir(path.join(modules, entry.name)).catch(() => [] as string[])) names.push(`${entry.name}/${scoped}`);
      } else if (!entry.name.startsWith('.')) names.push(entry.name);
    }
    for (const name of names) {
      const real = await realpath(path.join(modules, name)).catch(() => null);
      if (real && intoCheckout(real)) throw notIsolated('tests', name, real, sandbox, 'resolves to');
    }
  }
  for (const [file, json] of tsconfigs) {
    const options = (json as { compilerOptions?: Record<string, unknown> } | null)?.compilerOptions ?? {};
    const named = [options['baseUrl'], ...Object.values((options['paths'] as Record<string, unknown>) ?? {}).flat(), ...((options['rootDirs'] as unknown[]) ?? []), ...((options['typeRoots'] as unknown[]) ?? [])];
    for (const value of named) {
      if (typeof value !== 'string' || !path.isAbsolute(value)) continue;
      const real = await realpath(value.replace(/\*.*$/, '')).catch(() => value);
      if (intoCheckout(real)) throw notIsolated('type check', file, real, sandbox, 'maps modules to');
    }
  }
}

/** NODE_PATH entries into the user's checkout moved to the same place in the sandbox, as PYTHONPATH's are. */
export async function nodePathEnv(baseEnv: Record<string, string>, sandbox: string, user: UserRepository | null): Promise<Record<string, string>> {
  const value = baseEnv['NODE_PATH'];
  if (!value || !user) return baseEnv;
  const entries: string[] = [];
  for (const entry of value.split(path.delimiter)) {
    if (entry === '') continue;
    const real = path.isAbsolute(entry) ? await realpath(entry).catch(() => entry) : entry;
    const checkout = user.checkouts.find((c) => isInside(real, c));
    entries.push(checkout ? path.join(sandbox, path.relative(checkout, real)) : entry);
  }
  return { ...baseEnv, NODE_PATH: entries.join(path.delimiter) };
}
