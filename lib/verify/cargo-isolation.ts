// Refuses a Rust check that would build the user's checkout instead of the sandbox: a `path =` dependency or a `[patch]` in a manifest or cargo config that names the user's working tree.
import { readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { notIsolated } from './python-isolation.js';
import { isInside, type UserRepository } from './user-checkout.js';

/** Folders never holding a manifest of the workspace: build output and vendored or hidden trees. */
const SKIP = new Set(['target', 'node_modules', '.git']);

/** Manifests below `dir` (the workspace root and its members), breadth-first, at most `limit`. */
async function manifestsUnder(dir: string, limit = 2000): Promise<string[]> {
  const found: string[] = [];
  const queue = [dir];
  while (queue.length > 0 && found.length < limit) {
    const current = queue.shift()!;
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.isDirectory() && !SKIP.has(entry.name) && !entry.name.startsWith('.')) queue.push(path.join(current, entry.name));
      else if (entry.isFile() && entry.name === 'Cargo.toml') found.push(path.join(current, entry.name));
    }
  }
  return found;
}

/**
 * Every path a TOML file names for cargo to build from: `path = "…"` (dependencies, `[patch]` entries, targets) and
 * cargo config's `paths = ["…"]` overrides. A line-level read, not a TOML parser: it sees keys in inline tables and
 * in sections alike, and a false hit only costs a path check.
 */
export function namedPaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|[{,\s])path\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')/gm)) out.push(m[1] ?? m[2] ?? '');
  for (const m of text.matchAll(/^\s*paths\s*=\s*\[([^\]]*)\]/gm)) {
    for (const item of m[1]!.matchAll(/"([^"\n]*)"|'([^'\n]*)'/g)) out.push(item[1] ?? item[2] ?? '');
  }
  return out.filter((p) => p !== '');
}

/**
 * Cargo reads `.cargo/config.toml` from the manifest's dir up to `/` and from `$CARGO_HOME`: relative paths there are
 * relative to the config's parent dir. The sandbox's own ones, its ancestors' and the home one are all read.
 */
function cargoConfigs(start: string, env: Record<string, string>): string[] {
  const files: string[] = [];
  for (let dir = start; ; dir = path.dirname(dir)) {
    files.push(path.join(dir, '.cargo', 'config.toml'), path.join(dir, '.cargo', 'config'));
    if (path.dirname(dir) === dir) break;
  }
  const home = env['CARGO_HOME'] || (env['HOME'] ? path.join(env['HOME'], '.cargo') : undefined);
  if (home) files.push(path.join(home, 'config.toml'), path.join(home, 'config'));
  return files;
}

/** Throws VerificationNotIsolated when a manifest or cargo config of `manifest`'s workspace points cargo into the user's checkout. */
export async function auditCargoPaths(sandbox: string, manifest: string, user: UserRepository | null, env: Record<string, string>): Promise<void> {
  if (!user || user.checkouts.length === 0) return;
  const root = await realpath(sandbox).catch(() => sandbox);
  const workspace = path.dirname(path.join(sandbox, manifest));
  const files = [...(await manifestsUnder(workspace)), ...cargoConfigs(workspace, env)];
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text === null) continue;
    // A config's paths are relative to the dir holding `.cargo`, a manifest's to its own dir.
    const base = path.basename(path.dirname(file)) === '.cargo' ? path.dirname(path.dirname(file)) : path.dirname(file);
    for (const named of namedPaths(text)) {
      const target = path.resolve(base, named);
      const real = await realpath(target).catch(() => target);
      if (isInside(real, root)) continue;
      if (user.checkouts.some((dir) => isInside(real, dir))) {
        throw notIsolated('cargo build', path.relative(sandbox, file).startsWith('..') ? file : path.relative(sandbox, file), real, sandbox, 'points cargo at');
      }
    }
  }
}
