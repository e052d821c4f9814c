// Reads and writes git objects in bulk: one `cat-file --batch` for many blobs, commits with fixed identity and dates.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { keepsInMemory, Recent } from '../core/memory.js';
import type { Repo } from './repo.js';
import { gitBytes, gitText } from './run-git.js';

/** Blob contents kept by long-lived processes: an id names its content, so an entry never goes stale. */
const rememberedBlobs = new Recent<Uint8Array>(64 * 1024 * 1024, (bytes) => bytes.byteLength);

/**
 * A process that keeps no blobs keeps the last two batches it read (views into git's output, no copies): an
 * operation that read its target file, then loaded the project, then loads the files it edits reads each once.
 */
let lastBatches: Array<Map<string, Uint8Array>> = [];
const fromLastBatches = (oid: string): Uint8Array | undefined => lastBatches[0]?.get(oid) ?? lastBatches[1]?.get(oid);

/** Reads many blobs in one git process; missing ones are left out. Callers share the bytes and must not change them. */
export async function readBlobs(repo: Repo, oids: readonly string[]): Promise<Map<string, Uint8Array>> {
  const found = new Map<string, Uint8Array>();
  const remember = keepsInMemory();
  const wanted: string[] = [];
  for (const oid of new Set(oids)) {
    const known = remember ? rememberedBlobs.get(oid) : fromLastBatches(oid);
    if (known) found.set(oid, known);
    else wanted.push(oid);
  }
  if (wanted.length === 0) return found;
  const raw = Buffer.from(await gitBytes(['cat-file', '--batch'], { cwd: repo.root, input: `${wanted.join('\n')}\n` }));
  const batch = new Map<string, Uint8Array>();
  if (!remember) lastBatches = [batch, ...lastBatches.slice(0, 1)];
  let at = 0;
  while (at < raw.length) {
    const newline = raw.indexOf(0x0a, at);
    const header = raw.subarray(at, newline).toString('utf8').split(' ');
    at = newline + 1;
    if (header[1] === 'missing') continue;
    const size = Number(header[2]);
    // Kept ones are copied out, so what stays in memory is the blob and not the whole batch it came in.
    const bytes = remember ? Buffer.from(raw.subarray(at, at + size)) : raw.subarray(at, at + size);
    found.set(header[0]!, bytes);
    if (remember) rememberedBlobs.set(header[0]!, bytes);
    else batch.set(header[0]!, bytes);
    at += size + 1;
  }
  return found;
}

/**
 * The blobs of tree entries, each read from its file in the working tree when that file still holds exactly the blob
 * (its git hash is the entry's id), and the rest from git: a snapshot's tree was made from these files, so a command
 * that reads a few of them right after taking it needs no `cat-file` process (~5 ms of CPU each, more on a busy
 * machine; issue 33 step 26). A file that changed since, is missing, is not a regular file or is filtered by git
 * (line endings, clean filters) has another hash and is read from git. Keyed by blob id, as readBlobs.
 */
export async function readTreeBlobs(repo: Repo, entries: ReadonlyArray<{ path: string; oid: string }>): Promise<Map<string, Uint8Array>> {
  const found = new Map<string, Uint8Array>();
  const remember = keepsInMemory();
  await Promise.all(
    entries.map(async (e) => {
      const known = remember ? rememberedBlobs.get(e.oid) : undefined;
      const bytes = known ?? (await workingTreeBlob(repo.root, e.path, e.oid));
      if (!bytes) return;
      found.set(e.oid, bytes);
      // Exactly the blob (same git hash): kept as readBlobs keeps what it reads, so a later readBlobs needs no git either.
      if (remember && !known) rememberedBlobs.set(e.oid, bytes);
    }),
  );
  const rest = entries.filter((e) => !found.has(e.oid)).map((e) => e.oid);
  if (rest.length > 0) for (const [oid, bytes] of await readBlobs(repo, rest)) found.set(oid, bytes);
  return found;
}

/** The file's bytes if it is a regular file whose git blob id is `oid`; never blocks on a FIFO or device. */
async function workingTreeBlob(root: string, file: string, oid: string): Promise<Uint8Array | undefined> {
  const algorithm = oid.length === 40 ? 'sha1' : oid.length === 64 ? 'sha256' : undefined;
  if (!algorithm) return undefined;
  const handle = await open(path.join(root, file), constants.O_RDONLY | constants.O_NONBLOCK).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    const bytes = await handle.readFile();
    return createHash(algorithm).update(`blob ${bytes.length}\0`).update(bytes).digest('hex') === oid ? bytes : undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

export async function writeBlob(repo: Repo, bytes: Uint8Array): Promise<string> {
  return gitText(['hash-object', '-w', '--stdin'], { cwd: repo.root, input: bytes });
}

// The batch writer lives in its own file with its failure handling; callers know it from here.
export { writeBlobs } from './write-blobs.js';

export interface CommitSpec {
  tree: string;
  parents: readonly string[];
  message: string;
  /** Seconds since the epoch; the same input always makes the same commit id. */
  time: number;
  author?: { name: string; email: string };
}

export const TUG_IDENTITY = { name: 'tug', email: 'tug@localhost' };

export async function commitTree(repo: Repo, spec: CommitSpec): Promise<string> {
  const { args, env } = commitCommand(spec);
  return gitText(args, { cwd: repo.root, env, input: spec.message });
}

/** `commit-tree`'s arguments and the environment that fixes its identity and dates; the message goes to its stdin. */
export function commitCommand(spec: CommitSpec): { args: string[]; env: Record<string, string> } {
  const who = spec.author ?? TUG_IDENTITY;
  const date = `@${spec.time} +0000`;
  const env = {
    GIT_AUTHOR_NAME: who.name,
    GIT_AUTHOR_EMAIL: who.email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: who.name,
    GIT_COMMITTER_EMAIL: who.email,
    GIT_COMMITTER_DATE: date,
  };
  return { args: ['commit-tree', spec.tree, ...spec.parents.flatMap((p) => ['-p', p]), '-F', '-'], env };
}

// The identity's reading and its cache live in their own file; callers know it from here.
export { userIdentity } from './identity.js';
