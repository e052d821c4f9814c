// A tug stopped with SIGTERM or SIGINT while `--verify tests` runs takes the test suite with it: checks run in process
// groups of their own, and without a handler the suite went on after tug was gone (issue: a newcomer's first hour, §6).
import test from 'ava';
import { execa } from '../helpers/execa.js';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { TUG_BIN } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';

// A process is known by its pid and its start time: pids here wrap at 32768, and on a busy machine (CI spawns thousands
// of processes) a pid freed by the kill can be handed to a new process within the wait. A killed process whose parent is
// gone stays a zombie until init reaps it; it has ended all the same.
const stat = (pid: number): string[] | null => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which may itself hold spaces and parentheses: [0] is the state, [19] the start time.
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
};
const startTime = (pid: number) => stat(pid)?.[19];
const alive = (pid: number, started: string | undefined) => {
  const fields = stat(pid);
  return fields !== null && fields[0] !== 'Z' && fields[19] === started;
};

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} to tug during --verify tests ends the test command too`, async (t) => {
    const repo = await makeRepo({ 'calc.py': 'def area(w, h):\n    return w * h\n' });
    t.teardown(() => repo.cleanup());
    const pidFile = path.join(repo.root, '..', `${path.basename(repo.root)}-suite.pid`);
    t.teardown(() => rm(pidFile, { force: true }));
    // The suite records its pid, then runs far longer than the test waits. Unconfined, so the pid is the host's.
    const suite = JSON.stringify(['sh', '-c', `echo $$ > ${pidFile}; exec sleep 300`]);
    const run = execa(TUG_BIN, ['run', 'rename-symbol', '--at', 'calc.py:1:5', '--to', 'surface', '--verify', 'tests', '--test-command', suite, '--json'], {
      cwd: repo.root,
      reject: false,
      stdin: 'ignore',
      // Only the signal under test: execa's SIGKILL follow-up (5 s later by default) cannot be handled, and on a loaded
      // machine it could come before tug's event loop got to the handler, which would test something else.
      forceKillAfterDelay: false,
      env: { TUG_ISOLATION: 'none', TUG_NO_DAEMON: '1' },
    });
    // A generous guard for a loaded machine: the suite starts after the analysis and the sandbox.
    t.true(await until(() => existsSync(pidFile), 120_000), 'the test command started');
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    const started = startTime(pid);
    t.true(alive(pid, started));
    run.kill(signal);
    const result = await run;
    t.not(result.exitCode, 0);
    t.true(await until(() => !alive(pid, started), 20_000), `the test command (pid ${pid}) outlived tug`);
    t.is(await repo.git('for-each-ref', 'refs/heads/tug'), '', 'nothing was committed');
  });
}
