// Version-manager shims (pyenv, asdf, mise) are shell scripts that cost ~80 ms per Python start: remember what a shim ran, and run that directly while nothing that steers the shim has changed.
import { workerStartMs } from './start-deadline.js';
import { pyenvChoiceInputs, pyenvShim } from './pyenv.js';
import { createHash } from 'node:crypto';
import { open, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeJson } from '../session/files.js';
import { runIsolated } from './isolated.js';
import { userCacheDir } from '../workspace/user-cache.js';

/** Files by which version managers pick an interpreter, looked for in the working directory and its parents. */
const LOCAL_FILES = ['.python-version', '.tool-versions', '.mise.toml', 'mise.toml', '.mise.local.toml', '.rtx.toml'];

/** Their global counterparts. */
function globalFiles(): string[] {
  const home = os.homedir();
  const pyenvRoot = process.env['PYENV_ROOT'] ?? path.join(home, '.pyenv');
  return [path.join(pyenvRoot, 'version'), path.join(home, '.tool-versions'), path.join(home, '.config', 'mise', 'config.toml')];
}

/** Environment variables that steer the shims (or the search for them). */
const STEERING_ENV = /^(PATH|VIRTUAL_ENV|CONDA_PREFIX|(PYENV|ASDF|MISE|RTX)_.*)$/;

interface Memo {
  shim: string;
  executable: string;
  fingerprint: string;
}

/**
 * Everything a shim's choice depends on: the shim itself, the working directory, the steering variables, and
 * the version files (by modification time and size) from here to the root and in the home directory.
 */
async function fingerprint(shim: string, from: string): Promise<string> {
  const dirs: string[] = [];
  for (let dir = from; ; dir = path.dirname(dir)) {
    dirs.push(dir);
    if (path.dirname(dir) === dir) break;
  }
  const files = [shim, ...dirs.flatMap((dir) => LOCAL_FILES.map((name) => path.join(dir, name))), ...globalFiles()];
  const stamps = await Promise.all(files.map((file) => stat(file).then((s) => `${s.mtimeMs}:${s.size}`, () => '-')));
  return JSON.stringify({ cwd: from, env: steeringEnv(), files: files.map((file, i) => `${file}=${stamps[i]}`) });
}

function steeringEnv(): string[] {
  return Object.keys(process.env)
    .filter((name) => STEERING_ENV.test(name))
    .sort()
    .map((name) => `${name}=${process.env[name]}`);
}

/** A shim's text when `file` is a script (`#!`), as shims are; a real interpreter (or a symlink to one) is left alone. */
async function scriptText(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return undefined;
  try {
    // A shim is a few hundred bytes; more than 4 KB is no shim pyenv wrote, and then only `#!` matters.
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    const text = buffer.toString('latin1', 0, bytesRead);
    return text.startsWith('#!') ? text : undefined;
  } finally {
    await handle.close();
  }
}

export interface Launch {
  /** The program to start. */
  path: string;
  /** Whether `python` is a script (a shim); a real interpreter is started as it is. */
  shim: boolean;
  /** Records what the shim ran (the worker's sys.executable) for next time; nothing to do when no shim ran. */
  remember(executable: string | undefined): Promise<void>;
}

/**
 * Where the memo for `python` started from this directory lives: the user's cache, not a repository's session, since
 * what a shim runs is a fact of the machine (and `tug clean` would otherwise cost the next run the shim's start).
 * One file per shim and directory, so repositories pinned to different versions do not overwrite each other.
 */
export function launchMemoFile(python: string, env: NodeJS.ProcessEnv = process.env, from = process.cwd()): string | undefined {
  const dir = userCacheDir(env);
  if (dir === null) return undefined;
  const key = createHash('sha256').update(`${python}\0${from}`).digest('hex').slice(0, 16);
  return path.join(dir, 'python-launch', `${key}.json`);
}

/**
 * How to start `python`: what the shim ran last time when nothing that steers it has changed, else `python` itself.
 * `memoFile` is this directory's memo (launchMemoFile), for shims in general. A pyenv shim's choice depends on the
 * directory only through the version file pyenv reads (pyenv.ts), so its memo is named by what it depends on and
 * lives beside: every directory that reads the same version shares it, also when no `memoFile` is given (a sandbox).
 */
export async function launchFor(python: string, memoFile: string | undefined, from = process.cwd()): Promise<Launch> {
  const text = await scriptText(python);
  const direct: Launch = { path: python, shim: text !== undefined, remember: async () => undefined };
  if (text === undefined) return direct;
  const pyenv = pyenvShim(text);
  let file = memoFile;
  let current: string;
  if (pyenv) {
    current = JSON.stringify({ env: steeringEnv(), ...(await pyenvChoiceInputs(python, pyenv, from)) });
    const beside = memoFile ?? launchMemoFile(python, process.env, from);
    file = beside && path.join(path.dirname(beside), `pyenv-${createHash('sha256').update(current).digest('hex').slice(0, 16)}.json`);
  } else {
    if (!file) return direct;
    current = await fingerprint(python, from);
  }
  if (!file) return direct;
  const memo = await readFile(file, 'utf8').then((t) => JSON.parse(t) as Memo, () => undefined);
  if (memo && memo.shim === python && memo.fingerprint === current && (await stat(memo.executable).then((s) => s.isFile(), () => false))) {
    return { ...direct, path: memo.executable };
  }
  const into = file;
  return {
    ...direct,
    remember: async (executable) => {
      if (!executable || executable === python || !path.isAbsolute(executable)) return;
      await writeJson(into, { shim: python, executable, fingerprint: current } satisfies Memo);
    },
  };
}

/** Prints the interpreter's own path; under -I -S it imports nothing but what the interpreter starts with. */
const WHICH = 'import sys; sys.stdout.write(sys.executable)';

/** Shims resolved in this process, by shim and directory: a verification asks once per sandbox. */
const resolved = new Map<string, Promise<string>>();

/**
 * The interpreter a shim runs when started from `from` (a version manager chooses by the version files there), so that
 * tug can start that interpreter itself from a directory that is no repository's. The shim is asked with `-I -S`:
 * nothing of `from` is on its path, and no site runs, so the question runs no code of the repository's. Remembered in
 * `memoFile` when given (launchFor); a non-shim is returned as it is, and so is a shim that does not answer.
 */
export function resolveShim(python: string, from: string, memoFile?: string): Promise<string> {
  const key = `${python}\0${from}`;
  let found = resolved.get(key);
  if (!found) {
    found = resolveOnce(python, from, memoFile);
    resolved.set(key, found);
    // A failed answer is not kept: the next call asks again.
    void found.then((real) => real === python && resolved.delete(key));
  }
  return found;
}

async function resolveOnce(python: string, from: string, memoFile: string | undefined): Promise<string> {
  const launch = await launchFor(python, memoFile, from);
  if (launch.path !== python || !launch.shim) return launch.path;
  const run = await runIsolated(python, WHICH, [], { cwd: from, extraFlags: ['-S'], timeoutMs: workerStartMs() });
  const real = run.exitCode === 0 ? run.stdout.trim() : '';
  if (!real || !path.isAbsolute(real) || !(await stat(real).then((s) => s.isFile(), () => false))) return python;
  await launch.remember(real).catch(() => undefined);
  return real;
}
