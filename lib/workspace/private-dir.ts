// tug's per-user private directory (sandboxes, the daemon socket, scratch files): `$XDG_RUNTIME_DIR/tug`, else
// `$TMPDIR/tug-<uid>`, created 0700 and checked before every use, so another user on the machine can neither read
// what tug puts there nor plant a symlink or a socket for tug to follow.
import { lstatSync, mkdirSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TugError } from '../core/errors.js';

function uid(): number {
  return typeof process.getuid === 'function' ? process.getuid() : -1;
}

/** The private root for this user; nothing is created. */
export function privateRoot(env: NodeJS.ProcessEnv = process.env): string {
  const runtime = env['XDG_RUNTIME_DIR'];
  if (runtime && path.isAbsolute(runtime) && statSync(runtime, { throwIfNoEntry: false })?.isDirectory()) return path.join(runtime, 'tug');
  return path.join(env['TMPDIR'] || os.tmpdir(), `tug-${uid()}`);
}

/** Why `dir` is not a private directory of this user (lstat: a symlink is never followed), or null when it is. */
export function privateDirProblem(dir: string): string | null {
  const info = lstatSync(dir, { throwIfNoEntry: false });
  if (!info) return 'it does not exist';
  if (info.isSymbolicLink()) return 'it is a symlink';
  if (!info.isDirectory()) return 'it is not a directory';
  if (uid() !== -1 && info.uid !== uid()) return `it is owned by uid ${info.uid}, not ${uid()}`;
  if ((info.mode & 0o077) !== 0) return `its mode is ${(info.mode & 0o777).toString(8)}, not 700`;
  return null;
}

function unsafe(dir: string, reason: string): TugError {
  return new TugError('UnsafePath', `tug's private directory ${dir} is not safe to use: ${reason}`, {
    details: { path: dir, reason, remedy: `remove it (or fix its owner and mode: chmod 700) and run tug again; set XDG_RUNTIME_DIR or TMPDIR to use another place` },
  });
}

/** Creates the private root (0700) when missing and checks it; UnsafePath when someone else's, a symlink, or open to others. */
export function ensurePrivateRootSync(env: NodeJS.ProcessEnv = process.env): string {
  const root = privateRoot(env);
  try {
    mkdirSync(root, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw unsafe(root, String((error as Error).message));
  }
  const problem = privateDirProblem(root);
  if (problem) throw unsafe(root, problem);
  return root;
}

/** A directory inside the checked private root (created 0700 with its parents), for sandboxes and scratch files. */
export async function privateSubdir(...parts: string[]): Promise<string> {
  const dir = path.join(ensurePrivateRootSync(), ...parts);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}
