// Who owns a lock or a journal: a pid alone is not enough once the kernel reuses it, so the process start time comes with it.
import { readFileSync } from 'node:fs';

export interface ProcessIdentity {
  pid: number;
  /** Start time of the process in clock ticks since boot (/proc/<pid>/stat field 22); null where /proc is missing. */
  start: string | null;
}

/** The start time of a live process, or null when it is gone or /proc cannot say. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may itself hold spaces or parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

export function selfIdentity(): ProcessIdentity {
  return { pid: process.pid, start: processStart(process.pid) };
}

/**
 * Whether the process that wrote `owner` still runs. A live pid with another start time is a different process that
 * got the same number, so the owner is gone. Without a recorded start time only the pid can be checked.
 */
export function ownerAlive(owner: { pid: number; start?: string | null | undefined }): boolean {
  if (!Number.isInteger(owner.pid) || owner.pid <= 0) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (!owner.start) return true;
  const now = processStart(owner.pid);
  return now === null || now === owner.start;
}
