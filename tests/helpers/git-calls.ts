// Counts the git processes a piece of tug starts, for the tests of changes that save git processes.
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from './execa.js';

/**
 * `run`'s value and the git processes it started, counted by a wrapper named `git` put first on PATH that logs its
 * arguments and runs the real git (tug spawns `git` by name). PATH is the test worker's own: call it from serial tests.
 */
export async function gitCalls<T>(run: () => Promise<T>): Promise<{ value: T; calls: string[] }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tug-git-count-'));
  const real = (await execa('sh', ['-c', 'command -v git'])).stdout.trim();
  const log = path.join(dir, 'calls');
  await writeFile(path.join(dir, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  await chmod(path.join(dir, 'git'), 0o755);
  const before = process.env.PATH;
  process.env.PATH = `${dir}${path.delimiter}${before ?? ''}`;
  try {
    const value = await run();
    return { value, calls: (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean) };
  } finally {
    process.env.PATH = before;
    await rm(dir, { recursive: true, force: true });
  }
}
