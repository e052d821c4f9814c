// Finds and kills every process a command started, even those that left its process group (setsid) or were reparented.
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';

/** The variable every process of one command inherits; its value tells that command's processes apart from all others. */
export const RUN_MARKER = 'TUG_RUN_ID';

export function newRunId(): string {
  return randomBytes(12).toString('hex');
}

/**
 * Pids whose environment carries `TUG_RUN_ID=<id>`. A child that calls setsid leaves the process group and, after a
 * double fork, its parent chain too; it keeps the environment it inherited, which is what this walk reads in /proc.
 */
export async function processesOfRun(id: string): Promise<number[]> {
  const needle = Buffer.from(`${RUN_MARKER}=${id}\0`);
  const entries = (await readdir('/proc').catch(() => [] as string[])).filter((e) => /^\d+$/.test(e) && Number(e) !== process.pid);
  const found = await Promise.all(
    entries.map(async (entry) => {
      const environ = await readFile(`/proc/${entry}/environ`).catch(() => null);
      // The last variable has no trailing NUL.
      const holds = environ && (environ.includes(needle) || environ.subarray(environ.length - needle.length + 1).equals(needle.subarray(0, -1)));
      return holds ? Number(entry) : null;
    }),
  );
  return found.filter((pid): pid is number => pid !== null);
}

/** SIGKILLs every process of the run, again until none is left (a fork racing the walk is caught by the next round). */
export async function killRun(id: string): Promise<number> {
  let killed = 0;
  for (let round = 0; round < 5; round++) {
    const pids = await processesOfRun(id);
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
        killed += 1;
      } catch {
        // Gone already, or not ours to signal.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return killed;
}
