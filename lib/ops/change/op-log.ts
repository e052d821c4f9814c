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
  const entries = await readLog(session);
  const previous = entries.at(-1)?.id ?? '';
  const id = sha256(`${previous}\n${JSON.stringify(entry)}`).slice(0, 12);
  const full = LogEntry.parse({ id, time: new Date().toISOString(), ...entry });
  const handle = await open(file, 'a', 0o644);
  try {
    await handle.appendFile(`${JSON.stringify(full)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return full;
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
