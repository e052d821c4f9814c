// Tells when a bwrap-confined check's PID namespace is empty, so runCheck need not walk /proc for what the check left.
import { readFile } from 'node:fs/promises';

/**
 * The namespace's first process as bwrap reports it on `--json-status-fd` (`{ "child-pid": N, … }`, N as seen from
 * here); undefined when bwrap wrote nothing (it failed before starting anything).
 */
export function namespaceInit(status: string): number | undefined {
  const found = /"child-pid"\s*:\s*(\d+)/.exec(status);
  return found ? Number(found[1]) : undefined;
}

/**
 * Waits until the namespace's first process has finished exiting; false when it has not within `limitMs`.
 *
 * Why this suffices: when a PID namespace's first process exits, the kernel SIGKILLs every other process of the
 * namespace and waits for all of them to be gone before that process becomes a zombie (zap_pid_ns_processes, in its
 * exit path). No process can leave its PID namespace, setsid and double forks included. bwrap itself returns as soon
 * as the command does, not when the namespace is empty; `--die-with-parent` then SIGKILLs the first process, so its
 * exit follows within moments: gone from /proc or a zombie means nothing of the run is left.
 */
export async function namespaceEmptied(init: number, limitMs = 2_000): Promise<boolean> {
  const until = Date.now() + limitMs;
  for (;;) {
    const stat = await readFile(`/proc/${init}/stat`, 'utf8').catch(() => null);
    // Gone: reaped. (A pid reused since would show a live process: this waits out the limit and the caller walks.)
    if (stat === null) return true;
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (state === 'Z' || state === 'X') return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
