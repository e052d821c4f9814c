// Finds the git repository around a directory and reads where HEAD points, once per command.
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { TugError } from '../core/errors.js';
import { walkToRepo } from './find-repo.js';
import { git } from './run-git.js';

export interface Repo {
  /** Absolute, symlink-free root of the working tree. */
  root: string;
  /** This worktree's git dir (differs from commonDir inside a linked worktree). */
  gitDir: string;
  commonDir: string;
  /** Workspace directory relative to root, posix, '' for the root itself. */
  prefix: string;
}

export interface HeadState {
  /** Commit HEAD points at, or null on an unborn branch. */
  oid: string | null;
  /** Full ref name HEAD is attached to, or null when detached. */
  ref: string | null;
  /** Tree of the HEAD commit, or null on an unborn branch. */
  tree: string | null;
  /** Committer time of HEAD in seconds, for deterministic commit dates. */
  time: number | null;
}

/** Long-lived processes (the daemon, the MCP server) ask for the same directories again and again. */
const discovered = new Map<string, Repo>();

/** Discoveries started before anyone asked (see discoverRepoEarly), by directory. */
const early = new Map<string, Promise<Repo>>();

/**
 * Starts discovering the repository around `workspace` now, so git answers while the caller does other work; the next
 * discoverRepo of that directory takes this answer, errors included. The returned function drops an answer nobody took,
 * so a long-lived process never serves a stale one.
 */
export function discoverRepoEarly(workspace: string): () => void {
  const dir = path.resolve(workspace);
  if (!discovered.has(dir) && !early.has(dir)) {
    const pending = discoverUncached(dir);
    pending.catch(() => undefined);
    early.set(dir, pending);
  }
  return () => early.delete(dir);
}

export async function discoverRepo(workspace: string): Promise<Repo> {
  const dir = path.resolve(workspace);
  const pending = early.get(dir);
  if (pending) {
    early.delete(dir);
    const repo = await pending;
    discovered.set(dir, repo);
    return repo;
  }
  const known = discovered.get(dir);
  if (known && (await stat(known.gitDir).catch(() => null))?.isDirectory()) return known;
  const repo = await discoverUncached(dir);
  discovered.set(dir, repo);
  return repo;
}

async function discoverUncached(dir: string): Promise<Repo> {
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) {
    throw new TugError('WorkspaceNotFound', `workspace ${dir} is not a directory`, { details: { expected_path: dir } });
  }
  // Anything the walk trips on (a directory it may not read, one gone meanwhile) is git's to answer.
  return (await walkToRepo(dir).catch(() => undefined)) ?? discoverWithGit(dir);
}

/** git's own answer (`rev-parse`), for what the walk leaves to it (and for tests to compare the walk with). */
export async function discoverWithGit(dir: string): Promise<Repo> {
  const result = await git(['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir', '--show-prefix'], {
    cwd: dir,
    allowFailure: true,
  });
  const lines = result.stdout.split('\n');
  if (result.exitCode !== 0 || lines.length < 4 || !lines[0]) {
    throw new TugError('NotAGitRepository', `${dir} is not inside a git working tree`, {
      details: { path: dir, git: result.stderr.trim() },
    });
  }
  const root = await realpath(lines[0]);
  const gitDir = lines[1]!;
  // git prints the common dir relative to the directory it ran in, which it sees symlink-free.
  const commonDir = path.resolve(await realpath(dir), lines[2]!);
  return { root, gitDir, commonDir, prefix: lines[3]!.replace(/\/$/, '') };
}

export async function readHead(repo: Repo): Promise<HeadState> {
  const ref = await headRef(repo);
  // A commit never changes: once git has told its tree and time, a HEAD still on it (read from the ref files) needs no
  // git process, which a warm call in a long-lived process would otherwise pay every time (~5 ms, more under load).
  const headId = await headOid(repo, ref);
  const seen = commits.get(headId ?? '');
  if (seen) return { ref, ...seen };
  // Or from its loose object, as a commit just made is: one git process less in every cold command.
  const loose = headId === null ? undefined : await looseCommit(repo, headId);
  if (loose) return { ref, ...remember(loose) };
  const log = await git(['log', '-1', '--format=%H %T %ct', 'HEAD'], { cwd: repo.root, allowFailure: true });
  const [oid, tree, time] = log.exitCode === 0 ? log.stdout.trim().split(' ') : [];
  const head = { oid: oid ?? null, tree: tree ?? null, time: time === undefined ? null : Number(time) };
  if (head.oid && head.tree && head.time !== null) remember(head);
  return { ref, ...head };
}

function remember(head: { oid: string | null; tree: string | null; time: number | null }): typeof head {
  commits.set(head.oid!, head);
  if (commits.size > 64) commits.delete(commits.keys().next().value!);
  return head;
}

/**
 * A commit's tree and committer time from its loose object, or undefined for anything git should answer: a packed or
 * borrowed object, a repository with replace refs (git shows the replacement), an object that does not parse.
 */
async function looseCommit(repo: Repo, oid: string): Promise<{ oid: string; tree: string; time: number } | undefined> {
  const [object, replaced] = await Promise.all([
    readFile(looseObjectPath(repo, oid)).catch(() => undefined),
    replaceRefs(repo),
  ]);
  if (!object || replaced) return undefined;
  let text: string;
  try {
    text = inflateSync(object).toString('latin1');
  } catch {
    return undefined;
  }
  const end = text.indexOf('\n\n');
  const header = end < 0 ? text : text.slice(0, end);
  const tree = /^commit \d+\0tree ([0-9a-f]{40}|[0-9a-f]{64})\n/.exec(header)?.[1];
  const time = /\ncommitter [^\n]*> (\d+) [-+]\d{4}(?:\n|$)/.exec(header)?.[1];
  return tree === undefined || time === undefined || tree.length !== oid.length ? undefined : { oid, tree, time: Number(time) };
}

/** Where git keeps `oid` as a loose object (a zlib stream of its header and content). */
export function looseObjectPath(repo: Repo, oid: string): string {
  return path.join(repo.commonDir, 'objects', oid.slice(0, 2), oid.slice(2));
}

/** Whether the repository has replace refs (loose or packed), which `git log` would honour. */
async function replaceRefs(repo: Repo): Promise<boolean> {
  if (await stat(path.join(repo.commonDir, 'refs', 'replace')).then(() => true, () => false)) return true;
  return (await readFile(path.join(repo.commonDir, 'packed-refs'), 'utf8').catch(() => '')).includes(' refs/replace/');
}

/** Commits whose tree and time git has told this process, by id. */
const commits = new Map<string, { oid: string | null; tree: string | null; time: number | null }>();

/**
 * HEAD's commit read from the files git keeps it in (a detached HEAD, a loose branch file, packed-refs), or null for
 * anything else (a symbolic ref in the branch file, reftable, an unborn branch): git is asked then.
 */
async function headOid(repo: Repo, ref: string | null): Promise<string | null> {
  const OID = /^([0-9a-f]{40}|[0-9a-f]{64})\n?$/;
  if (ref === null) return OID.exec(await readFile(path.join(repo.gitDir, 'HEAD'), 'utf8').catch(() => ''))?.[1] ?? null;
  if (!ref.startsWith('refs/heads/')) return null;
  const loose = await readFile(path.join(repo.commonDir, ref), 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : ''));
  if (loose !== null) return OID.exec(loose)?.[1] ?? null;
  const packed = await readFile(path.join(repo.commonDir, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) if (line.endsWith(` ${ref}`) && OID.test(line.slice(0, -ref.length - 1))) return line.slice(0, -ref.length - 1);
  return null;
}

/**
 * The branch HEAD is attached to, or null when detached: read from the HEAD file, which saves a git process per command.
 * Anything but the two plain forms (`ref: <name>` and an object id) is left to `git symbolic-ref`, e.g. the placeholder
 * a reftable repository keeps there.
 */
async function headRef(repo: Repo): Promise<string | null> {
  const text = await readFile(path.join(repo.gitDir, 'HEAD'), 'utf8').catch(() => '');
  const attached = /^ref: (refs\/[^\s]+)\n?$/.exec(text);
  if (attached && attached[1] !== 'refs/heads/.invalid') return attached[1]!;
  if (/^([0-9a-f]{40}|[0-9a-f]{64})\n?$/.test(text)) return null;
  const out = await git(['symbolic-ref', '-q', 'HEAD'], { cwd: repo.root, allowFailure: true });
  return out.exitCode === 0 ? out.stdout.trim() : null;
}

export async function resolveCommit(repo: Repo, rev: string): Promise<string | null> {
  const out = await git(['rev-parse', '-q', '--verify', `${rev}^{commit}`], { cwd: repo.root, allowFailure: true });
  return out.exitCode === 0 ? out.stdout.trim() : null;
}

export async function objectType(repo: Repo, oid: string): Promise<string | null> {
  const out = await git(['cat-file', '-t', oid], { cwd: repo.root, allowFailure: true });
  return out.exitCode === 0 ? out.stdout.trim() : null;
}

