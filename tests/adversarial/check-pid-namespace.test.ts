// A check that daemonizes a child (double fork, setsid) leaves nothing behind: under bwrap because its PID namespace
// dies with it (runCheck then skips the /proc walk), on the other roads (unshare, no confinement) because the walk
// finds the daemon by its run marker and kills it. Real processes, real bwrap. Serial: the walk counter is per process.
import test, { type ExecutionContext } from 'ava';
import { execa } from '../helpers/execa.js';
import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runCheck } from '../../lib/verify/run-check.js';
import { processWalks } from '../../lib/verify/process-tree.js';
import type { Confinement } from '../../lib/verify/isolation.js';
import { missing } from '../helpers/toolchains.js';

/** bubblewrap is part of CI (.ci/run installs it); elsewhere a machine without a working one skips loudly. */
async function works(t: ExecutionContext, confinement: Confinement): Promise<boolean> {
  if (confinement === 'none') return true;
  const argv = confinement === 'bwrap' ? ['bwrap', '--bind', '/', '/', '--unshare-pid', '--unshare-net', 'true'] : ['unshare', '--pid', '--fork', '--kill-child', '--mount-proc', 'true'];
  const probe = await execa(argv[0]!, argv.slice(1), { reject: false });
  if (probe.exitCode === 0) return true;
  missing(t, `${confinement} missing or unusable here (${probe.stderr || probe.shortMessage})`);
  return false;
}

/** Pids whose command line is `sleep <seconds>`: the seconds are drawn per test, so only the test's own daemons match. */
async function sleepers(seconds: string): Promise<number[]> {
  const needle = `sleep\0${seconds}\0`;
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(needle)) found.push(Number(entry));
  }
  return found;
}

/**
 * A shell that starts two daemons the classic way, `( setsid … & )`: the subshell exits at once, so each daemon is
 * orphaned, in a session of its own and out of the check's process group. One redirects its output, one keeps the
 * check's output pipe. Each writes a mark once running; the shell waits for both marks, then `then` runs.
 */
function daemonizing(marks: string, seconds: string, then: string): string[] {
  const daemon = (name: string, redirect: string) => `(setsid sh -c 'touch ${path.join(marks, name)}; exec sleep ${seconds}' ${redirect} &)`;
  const wait = `while [ ! -e ${path.join(marks, 'quiet')} ] || [ ! -e ${path.join(marks, 'holding')} ]; do sleep 0.01; done`;
  return ['sh', '-c', `${daemon('quiet', '</dev/null >/dev/null 2>&1')}; ${daemon('holding', '')}; ${wait}; ${then}`];
}

/**
 * A directory for the daemons' marks and a sleep length no other process uses (how `sleepers` finds them), both
 * cleaned up when the test ends: any daemon still sleeping is killed, pass or fail.
 */
async function daemonScratch(t: ExecutionContext): Promise<{ marks: string; seconds: string }> {
  const marks = await mkdtemp(path.join(os.tmpdir(), 'tug-pidns-'));
  const seconds = `${randomInt(1000, 9000)}.${randomInt(100000, 999999)}`;
  t.teardown(async () => {
    for (const pid of await sleepers(seconds)) process.kill(pid, 'SIGKILL');
    await rm(marks, { recursive: true, force: true });
  });
  return { marks, seconds };
}

const confine = (confinement: Confinement) => (confinement === 'none' ? undefined : { confinement, mounts: { readOnly: [], network: false } });

for (const confinement of ['bwrap', 'unshare', 'none'] as const) {
  test.serial(`a check that daemonizes children leaves none behind (${confinement})`, async (t) => {
    if (!(await works(t, confinement))) return;
    const { marks, seconds } = await daemonScratch(t);
    const walksBefore = processWalks();
    const result = await runCheck({
      name: 'tests', argv: daemonizing(marks, seconds, 'echo started'), cwd: marks, timeoutMs: 120_000,
      baseEnv: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, confine: confine(confinement),
    });
    // Ended with its command, not when the daemon holding the output pipe let go (after its sleep) or at the timeout.
    t.is(result.status, 'passed', JSON.stringify(result));
    t.falsy(result.timed_out);
    t.regex(result.output ?? '', /started/);
    t.deepEqual(await sleepers(seconds), [], 'a daemon of the check outlived it');
    if (confinement === 'bwrap') t.is(processWalks(), walksBefore, 'the namespace emptied: no /proc walk needed');
    else t.true(processWalks() > walksBefore, 'without a PID namespace of its own, the walk looks for what the check left');
  });

  test.serial(`a check killed at its timeout leaves none of its daemons behind (${confinement})`, async (t) => {
    if (!(await works(t, confinement))) return;
    const { marks, seconds } = await daemonScratch(t);
    const result = await runCheck({
      name: 'tests', argv: daemonizing(marks, seconds, 'sleep 600'), cwd: marks, timeoutMs: 10_000,
      baseEnv: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, confine: confine(confinement),
    });
    t.true(result.timed_out, JSON.stringify(result));
    t.true(existsSync(path.join(marks, 'quiet')) && existsSync(path.join(marks, 'holding')), 'both daemons ran before the timeout');
    t.deepEqual(await sleepers(seconds), [], 'a daemon of the check outlived its timeout');
  });
}
