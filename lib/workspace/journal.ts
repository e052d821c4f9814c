// The apply journal's shape and reader; it lives in the session dir while an apply is in flight.
import { TugError } from '../core/errors.js';
import { readJson } from '../session/files.js';

export interface Journal {
  id: string;
  phase: 'prepare' | 'commit';
  created_at: string;
  update_index: boolean;
  ref_move?: { ref: string; from: string; to: string };
  files: Array<{ path: string; temp: string | null; delete: boolean }>;
}

export async function readJournal(file: string): Promise<Journal | undefined> {
  const journal = await readJson<Journal>(file);
  if (journal && !(journal.phase === 'prepare' || journal.phase === 'commit') ) {
    throw new TugError('SessionCorrupt', `apply journal ${file} is unreadable`, { details: { path: file, reason: 'unknown phase' } });
  }
  return journal;
}
