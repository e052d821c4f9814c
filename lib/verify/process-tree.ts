// Finds and kills every process a command started, even those that left its process group (setsid) or were reparented.
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';

/** The variable every process of one command inherits; its value tells that command's processes apart from all others. */
export const RUN_MARKER = 'TUG_RUN_ID';

export function newRunId(): string {
  return randomBytes(12).toString('hex');
}

let walks = 0;

/** How many walks of /proc this process has made: what a test counts to see that a check needed none. */
export function processWalks(): number {
  return walks;
}

/**
 * Pids whose environment carries `TUG_RUN_ID=<id>`. A child that calls setsid leaves the process group and, after a
 * double fork, its parent chain too; it keeps the environment it inherited, which is what this walk reads in /proc.
 * `unsure` are the user processes whose environment read empty: a process in the middle of exec has none to show for a
 * moment (long enough to be caught there on a loaded machine), so it may be one of the run's.
 */
export async function processesOfRun(id: string): Promise<{ pids: number[]; unsure: number[] }> {
  walks += 1;
  const needle = Buffer.from(`${RUN_MARKER}=${id}\0`);
  const entries = (await readdir('/proc').catch(() => [] as string[])).filter((e) => /^\d+$/.test(e) && Number(e) !== process.pid);
  const pids: number[] = [];
  const unsure: number[] = [];
  await Promise.all(
    entries.map(async (entry) => {
      const environ = await readFile(`/proc/${entry}/environ`).catch(() => null);
      if (environ === null) return;
      if (environ.length === 0) {
        if (await midExec(entry)) unsure.push(Number(entry));
        return;
      }
      // The last variable has no trailing NUL.
      if (environ.includes(needle) || environ.subarray(environ.length - needle.length + 1).equals(needle.subarray(0, -1))) pids.push(Number(entry));
    }),
  );
  return { pids, unsure };
}

/** A live user process with no environment to read: not a zombie (whose memory is gone), not a kernel thread (kthreadd's). */
async function midExec(pid: string): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields.length > 1 && fields[0] !== 'Z' && fields[0] !== 'X' && pid !== '2' && fields[1] !== '2' && fields[1] !== '0';
}

/**
 * SIGKILLs every process of the run, again until none is left: a fork racing the walk, or a process caught in exec, is
 * looked at again by the next round. A round that finds nothing of the run ends it unless some process could not be told.
 */
export async function killRun(id: string): Promise<number> {
  let killed = 0;
  for (let round = 0; round < 20; round++) {
    const { pids, unsure } = await processesOfRun(id);
    if (pids.length === 0 && (unsure.length === 0 || round >= 10)) break;
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
