// Which Python interpreter tug runs: the agent's own, by seed D10's order. Kept apart from everything heavier, since
// bin/tug's first step (early-worker.ts) asks it too.
import { access, constants, lstat, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../core/errors.js';

export type PythonSource = '--python' | '$TUG_PYTHON' | 'session config' | '$VIRTUAL_ENV' | '$CONDA_PREFIX' | 'managed venv' | 'PATH';

export interface PythonChoice {
  path: string;
  source: PythonSource;
  /** Every place looked at, in order, for error messages and `tug toolchain python info`. */
  searched: string[];
}

/** Where `tug toolchain python setup` keeps its venv and the sticky choice, inside the session dir. */
export function managedPython(sessionDir: string): { venv: string; python: string; config: string } {
  const venv = path.join(sessionDir, 'python', 'venv');
  return { venv, python: path.join(venv, 'bin', 'python'), config: path.join(sessionDir, 'python', 'config.json') };
}

/**
 * Seed D10's order, with the session's sticky choice after the explicit ones: --python, $TUG_PYTHON,
 * the session config written by `tug toolchain python setup`, $VIRTUAL_ENV, $CONDA_PREFIX, the managed
 * venv, then python3 on PATH. An explicit choice that does not exist is an error, not a fallback. PATH never answers
 * with a program of the repository's: relative entries and entries inside the repository are skipped.
 */
export async function resolvePython(explicit?: string, sessionDir?: string): Promise<PythonChoice> {
  const env = process.env;
  const managed = sessionDir ? managedPython(sessionDir) : undefined;
  const sticky = managed ? await readFile(managed.config, 'utf8').then((t) => (JSON.parse(t) as { interpreter_path?: string }).interpreter_path, () => undefined) : undefined;
  const candidates: Array<[PythonSource, string | undefined, boolean]> = [
    ['--python', explicit, true],
    ['$TUG_PYTHON', env['TUG_PYTHON'], true],
    ['session config', sticky, false],
    ['$VIRTUAL_ENV', env['VIRTUAL_ENV'] && path.join(env['VIRTUAL_ENV'], 'bin', 'python'), false],
    ['$CONDA_PREFIX', env['CONDA_PREFIX'] && path.join(env['CONDA_PREFIX'], 'bin', 'python'), false],
    ['managed venv', managed?.python, false],
  ];
  const searched: string[] = [];
  for (const [source, candidate, final] of candidates) {
    if (!candidate) continue;
    searched.push(`${source}: ${candidate}`);
    if (await isExecutable(candidate)) return { path: path.resolve(candidate), source, searched };
    if (final) throw new TugError('PythonNotFound', `${source} ${candidate} is not an executable Python`, { details: { searched_paths: searched } });
  }
  const repositories = await repositoryRoots([process.cwd(), sessionDir]);
  for (const dir of (env['PATH'] ?? '').split(path.delimiter)) {
    // A relative entry (`.`, `bin`, the empty one) means the current directory, which is usually a repository: a
    // `python3` there is the repository's program, not the user's choice. So is one inside the repository.
    if (!dir || !path.isAbsolute(dir)) {
      searched.push(`PATH: ${dir || '(empty entry)'}/python3 skipped: a relative PATH entry`);
      continue;
    }
    const candidate = path.join(dir, 'python3');
    const real = await realpath(dir).catch(() => dir);
    if (repositories.some((root) => real === root || real.startsWith(root + path.sep))) {
      searched.push(`PATH: ${candidate} skipped: inside the repository`);
      continue;
    }
    searched.push(`PATH: ${candidate}`);
    if (await isExecutable(candidate)) return { path: candidate, source: 'PATH', searched };
  }
  throw new TugError('PythonNotFound', 'no Python interpreter found', { details: { searched_paths: searched } });
}

/**
 * The working trees around `dirs` (the current directory, the session dir): the folders holding a `.git` entry, found
 * without git. Symlinks resolved, so PATH entries compare with them.
 */
async function repositoryRoots(dirs: ReadonlyArray<string | undefined>): Promise<string[]> {
  const roots = new Set<string>();
  for (const start of dirs) {
    if (!start) continue;
    for (let dir = await realpath(path.resolve(start)).catch(() => path.resolve(start)); ; dir = path.dirname(dir)) {
      if (await lstat(path.join(dir, '.git')).then(() => true, () => false)) {
        roots.add(dir);
        break;
      }
      if (path.dirname(dir) === dir) break;
    }
  }
  return [...roots];
}

async function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(() => true, () => false);
}
