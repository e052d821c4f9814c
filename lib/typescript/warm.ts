// Keeps each repository's TypeScript workspace between the calls of one process (daemon, MCP server, library user): a new snapshot re-reads only the files whose blobs changed, and the language services parse only those again. The daemon counts and evicts them like rust-analyzers (lib/daemon/budget.ts).
import { statSync } from 'node:fs';
import path from 'node:path';
import type * as TS from 'typescript';
import type { Repo } from '../git/repo.js';
import { listTreePaths, type TreePath } from '../git/snapshot.js';
import { countWarm, trackHelper } from '../ops/resources.js';
import { loadTypeScript, projectTypeScript, type LoadedTypeScript } from './load.js';
import { assembleWorkspace, readServiceFiles, serviceEntries, type TsWorkspace } from './workspace-build.js';

interface Warm {
  tree: string;
  ws: TsWorkspace;
  /** Blob id of every path of `tree`: what a later snapshot changed is what differs. */
  oids: Map<string, string>;
  texts: Map<string, string>;
  bytes: Map<string, Uint8Array>;
  versions: Map<string, number>;
  registry: TS.DocumentRegistry;
  /** See installedStamp: installed packages changed under the services means starting over. */
  installed: string;
  alive: boolean;
}

/**
 * Up to this many changed files, a warm update reads them from the working tree (each opened and hashed) rather than
 * with one `cat-file`: an edit between two calls changes a few.
 */
const FROM_FILES_AT_MOST = 16;

/** A bound for processes no daemon limits (library users, the MCP server); the daemon keeps fewer (settings.ts). */
const MAX_WARM = 4;
/** By repository root and compiler directory, least recently used first. */
const warm = new Map<string, Warm>();
/** Per key, the previous caller's turn: see warmWorkspace. */
const turns = new Map<string, Promise<unknown>>();
let lastVersion = 0;

/** How workspaces were opened in this process: built from nothing, brought up to a new snapshot, or reused as they were. */
const counts = { cold: 0, updated: 0, reused: 0 };

export function tsWarmCounts(): { cold: number; updated: number; reused: number; workspaces: number } {
  return { ...counts, workspaces: warm.size };
}

// Daemon status: how many workspaces are warm, and how many were built from nothing (a warm call adds none).
countWarm('typescript_projects', () => warm.size);
countWarm('typescript_cold_loads', () => counts.cold);

/**
 * The workspace of `tree` for the repository, reusing the one kept for it. Callers use it synchronously once they have
 * it (nothing awaited in between), so the next call for the same repository waits one turn of the event loop before it
 * may move the workspace to its own snapshot.
 */
export async function warmWorkspace(repo: Repo, tree: string, near: string): Promise<TsWorkspace> {
  const entries = (await listTreePaths(repo, tree)).filter((e) => e.type === 'blob');
  const paths = new Set(entries.map((e) => e.path));
  const own = projectTypeScript(repo.root, path.dirname(path.join(repo.root, ...near.split('/'))), (p) => paths.has(p));
  // A repository with nothing kept reads all its service files in one git process: started before the compiler loads
  // (~70 ms of this thread on a cold start, with its code cache), that process runs meanwhile.
  const reading = [...warm.keys()].some((k) => k.startsWith(`${repo.root}\0`)) ? undefined : readServiceFiles(repo, serviceEntries(entries));
  reading?.catch(() => undefined); // awaited by a cold open; a warm one (another call kept it first) drops it
  const compiler = loadTypeScript(own);
  const key = `${repo.root}\0${compiler.dir}`;
  const opened = (turns.get(key) ?? Promise.resolve()).then(() => open(key, repo, tree, entries, paths, compiler, reading));
  const turn = opened.then(
    () => new Promise((resolve) => setImmediate(resolve)),
    () => undefined,
  );
  turns.set(key, turn);
  void turn.then(() => turns.get(key) === turn && turns.delete(key));
  return opened;
}

async function open(key: string, repo: Repo, tree: string, entries: TreePath[], paths: Set<string>, compiler: LoadedTypeScript, reading?: ReturnType<typeof readServiceFiles>): Promise<TsWorkspace> {
  const installed = installedStamp(repo.root);
  const known = warm.get(key);
  if (known) {
    warm.delete(key);
    if (known.alive && known.installed === installed) {
      warm.set(key, known);
      known.ws.repo = repo;
      if (known.tree === tree) {
        counts.reused += 1;
        return known.ws;
      }
      await update(known, repo, tree, entries, paths);
      counts.updated += 1;
      return known.ws;
    }
    drop(known);
  }
  counts.cold += 1;
  const { texts, bytes } = await (reading ?? readServiceFiles(repo, serviceEntries(entries)));
  const versions = new Map<string, number>();
  const registry = compiler.ts.createDocumentRegistry(true, repo.root);
  const ws = assembleWorkspace({ repo, compiler, paths, texts, bytes, versions, registry });
  const entry: Warm = { tree, ws, oids: new Map(entries.map((e) => [e.path, e.oid])), texts, bytes, versions, registry, installed, alive: true };
  warm.set(key, entry);
  trackHelper({ kind: 'typescript_project', scope: repo.root, alive: () => entry.alive, stop: async () => drop(entry, key) });
  for (const [oldest, other] of warm) if (warm.size > MAX_WARM) drop(other, oldest);
  return ws;
}

/**
 * Moves a kept workspace to `tree`: changed files get new text and a new version (the services parse them again, and
 * only them). Files added or removed, or a JSON file changed (configs, package manifests), rebuild the projects over
 * the same document registry, so every unchanged file is still not parsed again.
 */
async function update(known: Warm, repo: Repo, tree: string, entries: TreePath[], paths: Set<string>): Promise<void> {
  const oids = new Map(entries.map((e) => [e.path, e.oid]));
  const changed = entries.filter((e) => known.oids.get(e.path) !== e.oid);
  const removed = [...known.oids.keys()].filter((p) => !oids.has(p));
  const wanted = serviceEntries(changed);
  const { texts, bytes } = await readServiceFiles(repo, wanted, wanted.length <= FROM_FILES_AT_MOST);
  let reshaped = removed.length > 0;
  for (const entry of changed) {
    const had = known.texts.has(entry.path);
    if (!known.oids.has(entry.path) || entry.path.endsWith('.json') || had !== texts.has(entry.path)) reshaped = true;
    if (texts.has(entry.path)) {
      known.texts.set(entry.path, texts.get(entry.path)!);
      known.bytes.set(entry.path, bytes.get(entry.path)!);
    }
    known.versions.set(entry.path, ++lastVersion);
  }
  for (const file of removed) {
    known.texts.delete(file);
    known.bytes.delete(file);
    known.versions.set(file, ++lastVersion);
  }
  if (reshaped) {
    const old = known.ws;
    known.ws = assembleWorkspace({ repo, compiler: old.compiler, paths, texts: known.texts, bytes: known.bytes, versions: known.versions, registry: known.registry });
    // The new programs take their files from the registry before the old services let go of them (a file no service
    // holds leaves the registry, and would be parsed again).
    for (const project of known.ws.projects.all(known.ws.scripts, known.ws.configs)) project.service.getProgram();
    old.projects.dispose();
  }
  known.tree = tree;
  known.oids = oids;
}

function drop(entry: Warm, key?: string): void {
  if (!entry.alive) return;
  entry.alive = false;
  entry.ws.projects.dispose();
  for (const [k, other] of warm) if (other === entry && (key === undefined || k === key)) warm.delete(k);
}

/**
 * Installed packages are read from disk, not from the snapshot: a new install (npm, pnpm and yarn each rewrite a state
 * file in `node_modules` then) makes a kept workspace start over.
 */
function installedStamp(root: string): string {
  const stamps = ['node_modules', 'node_modules/.package-lock.json', 'node_modules/.modules.yaml', 'node_modules/.yarn-state.yml'].map(
    (p) => statSync(path.join(root, p), { throwIfNoEntry: false })?.mtimeMs ?? 0,
  );
  return stamps.join(':');
}
