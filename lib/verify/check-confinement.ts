// What a confined command may touch: the user's repository read-only, tug's own config and trust store out of sight; shared by run_command and verification's project commands.
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { availableConfinement, confineArgv, type Confinement, type Isolation, type Mounts } from './isolation.js';
import type { UserRepository } from './user-checkout.js';
import { userAllowsNetwork } from '../trust/user-only.js';

/**
 * tug's config dirs as the caller's tug and a tug started inside the sandbox would find them (`$XDG_CONFIG_HOME/tug`,
 * `~/.config/tug`): a command that could write there could plant a `test_command` or trust a repository for the user.
 * The same rule as lib/trust/store.ts, repeated because that module reads config through this layer.
 */
export function tugConfigDirs(env: NodeJS.ProcessEnv): string[] {
  const dirs = new Set<string>();
  const xdg = env['XDG_CONFIG_HOME'];
  if (xdg && path.isAbsolute(xdg)) dirs.add(path.join(xdg, 'tug'));
  if (env['HOME'] && path.isAbsolute(env['HOME'])) dirs.add(path.join(env['HOME'], '.config', 'tug'));
  return [...dirs].sort();
}

/**
 * A tmpfs needs its mount point: each dir is made (empty, mode 0700) when missing, else a command could create it and
 * plant a file there. A dir that cannot be made (a read-only home) is left out: nothing run can create it either.
 */
async function existingDirs(dirs: readonly string[]): Promise<string[]> {
  const made: string[] = [];
  for (const dir of dirs) if (await mkdir(dir, { recursive: true, mode: 0o700 }).then(() => true, () => false)) made.push(dir);
  return made;
}

export interface CheckConfinement {
  confinement: Confinement;
  mounts: Mounts;
}

/** The mounts for a command run in a checkout borrowing from `user`'s repository. */
export async function confinementFor(user: UserRepository | null, callerEnv: NodeJS.ProcessEnv, extraReadOnly: readonly string[] = []): Promise<CheckConfinement> {
  const confinement = await availableConfinement();
  const wanted = [...new Set([...(user ? [...user.checkouts, user.commonDir] : []), ...extraReadOnly])].sort();
  // bwrap refuses to bind what is not there (a linked worktree deleted without `git worktree prune`).
  const present = await Promise.all(wanted.map((dir) => stat(dir).then((s) => s.isDirectory(), () => false)));
  const readOnly = wanted.filter((_, i) => present[i]);
  const hidden = confinement === 'bwrap' ? await existingDirs(tugConfigDirs(callerEnv)) : [];
  // Only the user opens the network (their environment or their own config, never a repository's file): builds that fetch need it.
  const network = await userAllowsNetwork(callerEnv);
  return { confinement, mounts: { readOnly, hidden, network } };
}

/**
 * `argv` wrapped for the confinement, with `writable` dirs (made when missing) allowed through the read-only ones;
 * `statusFd` as for confineArgv.
 */
export async function wrapArgv(check: CheckConfinement, argv: readonly string[], writable: readonly string[] = [], statusFd?: number): Promise<{ argv: string[]; isolation: Isolation }> {
  if (writable.length > 0) await Promise.all(writable.map((dir) => mkdir(dir, { recursive: true })));
  return confineArgv(check.confinement, argv, { ...check.mounts, writable: [...(check.mounts.writable ?? []), ...writable] }, statusFd);
}
