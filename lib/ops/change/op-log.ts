// The operation log: one JSON line per operation that committed, wrote files or ran a command, in the session dir.
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../../core/errors.js';
import { sha256 } from '../../core/hash.js';
import { LogEntry, type LogEntryJSON } from '../../core/schemas.js';
import type { Session } from '../../session/session.js';

export const LOG_FILE = 'operations.jsonl';

/** Arguments are logged as given, minus where tug ran (workspace, session dir) and with long strings cut. */
const UNLOGGED = new Set(['workspace', 'session_dir', 'no_wait', 'wait_s', 'workspace_path']);
const STRING_LIMIT = 2000;

export function loggedArguments(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(input).sort()) {
    if (UNLOGGED.has(key) || input[key] === undefined) continue;
    out[key] = cut(input[key]);
  }
  return out;
}

function cut(value: unknown): unknown {
  if (typeof value === 'string') return value.length <= STRING_LIMIT ? value : `${value.slice(0, STRING_LIMIT)}[… ${value.length - STRING_LIMIT} more characters]`;
  if (Array.isArray(value)) return value.map(cut);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, cut(v)]));
  return value;
}

export type NewLogEntry = Omit<LogEntryJSON, 'id' | 'time'>;

/** Appends an entry (callers hold the session lock, so the chain of ids has one writer). */
export async function appendLog(session: Session, entry: NewLogEntry): Promise<LogEntryJSON> {
  const file = path.join(session.dir, LOG_FILE);
  const end = await lastEntry(file);
  const previous = end?.entry?.id ?? '';
  const id = sha256(`${previous}\n${JSON.stringify(entry)}`).slice(0, 12);
  const full = LogEntry.parse({ id, time: new Date().toISOString(), ...entry });
  const handle = await open(file, 'a', 0o644);
  try {
    // A torn last line (a crash mid-append) goes first, and a whole entry whose newline was lost gets one: else the
    // new entry would be glued to it into a damaged line.
    if (end && end.torn > 0) await handle.truncate(end.size - end.torn);
    await handle.appendFile(`${end?.unterminated ? '\n' : ''}${JSON.stringify(full)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return full;
}

/**
 * The last entry, read from the end of the file: appending reads only as much as that needs, not the whole log (which
 * grows with every operation a long-lived session runs). The same rule as readLog for that end: a torn last line is
 * skipped, a complete line that is not an entry is SessionCorrupt.
 */
async function lastEntry(file: string): Promise<{ entry: LogEntryJSON | undefined; size: number; torn: number; unterminated: boolean } | undefined> {
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!handle) return undefined;
  try {
    const size = (await handle.stat()).size;
    for (let want = 16 * 1024; ; want *= 4) {
      const start = Math.max(0, size - want);
      const buffer = Buffer.alloc(size - start);
      await handle.read(buffer, 0, buffer.length, start);
      const lines = buffer.toString('utf8').split('\n');
      // Unless the read began at the start of the file, its first line may be cut; it is only used from there.
      const firstWhole = start === 0 ? 0 : 1;
      const last = lines.length - 1;
      // Bytes after the last newline (counted in bytes: the text may end inside a character).
      const newline = buffer.lastIndexOf(0x0a);
      const torn = newline >= 0 ? buffer.length - newline - 1 : start === 0 ? buffer.length : 0;
      for (let index = lines.length - 1; index >= firstWhole; index--) {
        const line = lines[index]!;
        if (!line.trim()) continue;
        try {
          const entry = LogEntry.parse(JSON.parse(line));
          return { entry, size, torn: index === last ? 0 : torn, unterminated: index === last };
        } catch (error) {
          if (index === last) continue;
          throw new TugError('SessionCorrupt', `${file} has a line before its end that is not a log entry`, { details: { path: file, reason: String(error) } });
        }
      }
      if (start === 0) return { entry: undefined, size, torn, unterminated: false };
    }
  } finally {
    await handle.close();
  }
}

/** Every entry, oldest first; a torn last line (a crash mid-append) is skipped, anything else unreadable is SessionCorrupt. */
export async function readLog(session: Session): Promise<LogEntryJSON[]> {
  const file = path.join(session.dir, LOG_FILE);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const lines = text.split('\n');
  const entries: LogEntryJSON[] = [];
  for (const [index, line] of lines.entries()) {
    if (!line.trim()) continue;
    try {
      entries.push(LogEntry.parse(JSON.parse(line)));
    } catch (error) {
      if (index === lines.length - 1) continue;
      throw new TugError('SessionCorrupt', `${file} line ${index + 1} is not a log entry`, { details: { path: file, line: index + 1, reason: String(error) } });
    }
  }
  return entries;
}

/** The entry whose id starts with `prefix`; LogEntryNotFound, or InvalidArgument listing the candidates when several match. */
export function findLogEntry(entries: readonly LogEntryJSON[], prefix: string): LogEntryJSON {
  const matches = entries.filter((e) => e.id.startsWith(prefix.toLowerCase()));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new TugError('LogEntryNotFound', `no operation log entry starts with ${JSON.stringify(prefix)}`, { details: { id: prefix } });
  throw new TugError('InvalidArgument', `${JSON.stringify(prefix)} matches ${matches.length} log entries; give more digits`, {
    details: { argument: 'id', reason: 'ambiguous prefix', candidates: matches.map((e) => e.id).sort() },
  });
}
