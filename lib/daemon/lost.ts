// What a client says when its daemon died in the middle of a command it had taken: the command is not run again (it
// may have written files), and the apply journal tells what the daemon left, for the next command to finish.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES } from '../core/errors.js';
import { SCHEMA_VERSION } from '../core/schema-version.js';
import { findCommonDir } from './address.js';

interface JournalView {
  phase?: string;
  files?: Array<{ path?: string }>;
}

/** The journal state in the default session dir of `cwd`'s repository ($TUG_SESSION_DIR, else <git-common-dir>/tug). */
function journalState(cwd: string): { session_dir: string | null; journal: 'none' | 'prepare' | 'commit' | 'unreadable'; files: string[] } {
  const common = findCommonDir(cwd);
  const sessionDir = process.env['TUG_SESSION_DIR'] ? path.resolve(cwd, process.env['TUG_SESSION_DIR']) : common ? path.join(common, 'tug') : null;
  if (!sessionDir) return { session_dir: null, journal: 'none', files: [] };
  let text: string;
  try {
    text = readFileSync(path.join(sessionDir, 'apply-journal.json'), 'utf8');
  } catch (error) {
    return { session_dir: sessionDir, journal: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'none' : 'unreadable', files: [] };
  }
  try {
    const journal = JSON.parse(text) as JournalView;
    const phase = journal.phase === 'commit' ? 'commit' : 'prepare';
    return { session_dir: sessionDir, journal: phase, files: (journal.files ?? []).map((f) => String(f.path)).sort() };
  } catch {
    return { session_dir: sessionDir, journal: 'unreadable', files: [] };
  }
}

const STATE: Record<string, string> = {
  none: 'no write was in flight: no file of the working tree was changed by it',
  prepare: 'it was preparing a write: no file was replaced yet; the next tug command removes its temp files',
  commit: 'it was writing files: the next tug command finishes the write where each file still holds the old or the new content, and reports the rest',
  unreadable: 'its apply journal cannot be read: `tug clean` sets it aside',
};

/** DaemonInterrupted as the client prints it (JSON for stdout unless stdout is a terminal, else a line for stderr). */
export function lostDaemonReport(argv: readonly string[], cwd: string, stdoutIsTTY: boolean): { exit: number; out?: string; err?: string } {
  const state = journalState(cwd);
  const entry = ERROR_CODES.DaemonInterrupted;
  const message = `the tug daemon died while running the command; it is not run again here. ${STATE[state.journal]}`;
  const details = { argv: [...argv], ...state, remedy: 'run `tug verify --verify none` (any command that takes the session lock) to let tug finish or roll back what the daemon left, then run the command again if it is still needed' };
  if (stdoutIsTTY && !argv.includes('--json')) {
    return { exit: entry.exit, err: `tug: ${message}${state.files.length ? ` (files: ${state.files.join(', ')})` : ''}\n${entry.hint}\n` };
  }
  const json = { status: 'error', schema_version: SCHEMA_VERSION, error: { code: 'DaemonInterrupted', message, hint: entry.hint, details } };
  return { exit: entry.exit, out: `${JSON.stringify(json, null, 2)}\n` };
}
