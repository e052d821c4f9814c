// The folders around the repository are not tug's input: the CLI's argument parser (yargs, bundled) used to walk up from
// the working directory listing every parent folder and reading the first package.json it met, so a package.json that
// is a named pipe above the repository made every command wait forever. It now looks only beside tug itself.
import test from 'ava';
import { execa } from '../helpers/execa.js';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TUG_BIN } from '../helpers/cli.js';

test('a named pipe called package.json above the repository does not stop a command', async (t) => {
  const outer = await mkdtemp(path.join(os.tmpdir(), 'tug-parent-pkg-'));
  try {
    await execa('mkfifo', [path.join(outer, 'package.json')]);
    const root = path.join(outer, 'repo');
    await mkdir(root);
    await execa('git', ['init', '-q'], { cwd: root });
    // Generous: the command takes well under a second; before the fix it never ended (the timeout ends it then).
    const run = await execa(TUG_BIN, ['clean', '--cache', '--json'], { cwd: root, env: { TUG_NO_DAEMON: '1' }, reject: false, timeout: 30_000, stdin: 'ignore' });
    t.false(run.timedOut, 'the command ended');
    t.is(run.exitCode, 0, run.stderr);
    t.is(JSON.parse(run.stdout).status, 'ok');
  } finally {
    await rm(outer, { recursive: true, force: true });
  }
});
