// How tug finds the processes a command started (by the run marker in their environment), with real processes: one of
// the run that left its group with setsid is found and killed; one with no environment to read (what a process in the
// middle of exec shows) is reported as unsure, so killRun looks again instead of calling the run's processes gone.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { readFile } from 'node:fs/promises';
import { killRun, newRunId, processesOfRun, RUN_MARKER } from '../lib/verify/process-tree.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('a setsid process of the run is found and killed; an environment-less process is unsure, never taken as the run', async (t) => {
  const id = newRunId();
  const ours = execa('setsid', ['sleep', '60'], { env: { [RUN_MARKER]: id }, reject: false });
  const bare = execa('env', ['-i', 'sleep', '60'], { reject: false, extendEnv: false });
  t.teardown(() => {
    ours.kill('SIGKILL');
    bare.kill('SIGKILL');
  });
  // Both have exec'd once their pids show their own command line.
  const settled = async (pid: number, cmd: string) => {
    for (let i = 0; i < 600; i++) {
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      if (cmdline.startsWith(cmd)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  await settled(ours.pid!, 'sleep');
  await settled(bare.pid!, 'sleep');
  const found = await processesOfRun(id);
  t.deepEqual(found.pids, [ours.pid]);
  t.true(found.unsure.includes(bare.pid!), 'a process with an empty environment may be one of the run caught in exec');
  t.is(await killRun(id), 1);
  await ours;
  t.false(alive(ours.pid!));
  t.true(alive(bare.pid!), 'a process that is not the run is left alone');
});
