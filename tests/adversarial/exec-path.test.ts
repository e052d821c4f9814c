// With `.` (or any relative entry, or the repository itself) on PATH, a `python3` the repository ships is its own
// program: tug's interpreter lookup never answers with it, only a flag or a trusted setting may name it.
import test from 'ava';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { tug } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';
import { resolvePython } from '../../lib/python/interpreter.js';

// The interpreter itself, found before the test changes PATH.
const real = execFileSync((await resolvePython()).path, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

test("analyze-impact, verify and doctor never run the repository's ./python3, whatever PATH says", async (t) => {
  const marks = await realpath(await mkdtemp(path.join(os.tmpdir(), 'tug-path-marks-')));
  const runtime = await mkdtemp(path.join(os.tmpdir(), 'tug-path-rt-'));
  const fake = `#!/bin/sh\necho ran > ${marks}/python3\nexec ${real} "$@"\n`;
  const repo = await makeRepo({ 'app.py': 'def total(a, b):\n    return a + b\n', 'python3': fake, 'bin/python3': fake });
  await chmod(path.join(repo.root, 'python3'), 0o755);
  await chmod(path.join(repo.root, 'bin', 'python3'), 0o755);
  const base = { XDG_RUNTIME_DIR: runtime, TUG_DAEMON_AUTOSTART: '0', VIRTUAL_ENV: '', CONDA_PREFIX: '', TUG_PYTHON: '' };
  for (const entries of [['.'], ['bin'], [''], [repo.root], [path.join(repo.root, 'bin')]]) {
    const env = { ...base, PATH: [...entries, process.env['PATH']].join(path.delimiter) };
    const what = `PATH starting with ${JSON.stringify(entries[0])}`;
    const impact = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'app.py:1:5', '--to', 'add', '--json'], { env });
    t.is(impact.exitCode, 0, `${what}: ${impact.stdout}${impact.stderr}`);
    const verify = await tug(repo.root, ['verify', '--json'], { env });
    t.is(verify.exitCode, 0, `${what}: ${verify.stdout}`);
    t.false(existsSync(path.join(marks, 'python3')), `${what}: the repository's python3 never ran`);
    const info = await tug(repo.root, ['toolchain', 'python', 'info', '--json'], { env });
    t.false(String(info.json.python.interpreter).startsWith(repo.root), `${what}: ${info.json.python.interpreter}`);
    t.true(info.json.python.searched.some((s: string) => /skipped/.test(s)), `${what}: the search says what it skipped`);
  }
  // Named by the user, it is used: the flag is a person's (or their agent's) explicit choice.
  const chosen = await tug(repo.root, ['verify', '--python', './python3', '--json'], { env: base });
  t.is(chosen.exitCode, 0, chosen.stdout);
  t.true(existsSync(path.join(marks, 'python3')), 'an explicit --python still runs');
  await rm(runtime, { recursive: true, force: true });
  await rm(marks, { recursive: true, force: true });
  await repo.cleanup();
});
