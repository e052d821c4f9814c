// The apply journal's shape and reader; it lives in the session dir while an apply is in flight.
import { TugError } from '../core/errors.js';
import type { HeldLock } from '../git/locks.js';
import { readJson, writeJson } from '../session/files.js';
import type { ProcessIdentity } from '../session/owner.js';

export interface JournalFile {
  path: string;
  /** Temp file beside the target holding the new content; null for a deletion. */
  temp: string | null;
  delete: boolean;
  /** Blob of the file before the write (null: absent). Older journals lack it. */
  before?: string | null;
  /** Blob the write leaves (null: deleted). Older journals lack it. */
  after?: string | null;
}

export interface Journal {
  id: string;
  phase: 'prepare' | 'commit';
  created_at: string;
  /** The tug process that wrote the journal. */
  owner?: ProcessIdentity;
  update_index: boolean;
  ref_move?: { ref: string; from: string; to: string };
  /** git's index lock, taken by tug, and the prepared index waiting to replace the real one. */
  index?: { lock: HeldLock; temp: string };
  files: JournalFile[];
}

export async function readJournal(file: string): Promise<Journal | undefined> {
  const journal = await readJson<Journal>(file);
  if (journal && !(journal.phase === 'prepare' || journal.phase === 'commit') ) {
    throw new TugError('SessionCorrupt', `apply journal ${file} is unreadable`, { details: { path: file, reason: 'unknown phase' } });
  }
  return journal;
}

export async function writeJournal(file: string, journal: Journal): Promise<void> {
  await writeJson(file, journal);
}
