// What a pyenv shim's choice of interpreter depends on, read without running it: pyenv's rule is short and documented,
// so a directory that reaches the same version file shares what the shim ran (launcher.ts), and a fresh directory (a
// test's repository, a sandbox) does not pay the shim's ~0.06 s of bash again.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/** pyenv's shim (`pyenv rehash` writes it): `export PYENV_ROOT="…"`, then `exec "…/libexec/pyenv" exec "$program" "$@"`. */
const SHIM = /\nexport PYENV_ROOT="([^"\n]+)"\n(?:[\s\S]*\n)?exec "([^"\n]+)\/libexec\/pyenv" exec "\$program" "\$@"\s*$/;

export interface PyenvShim {
  root: string;
  /** Where pyenv itself is installed (its `libexec/..`): its own `pyenv.d` holds hooks too. */
  prefix: string;
}

/** The shim's root and pyenv's own folder when `text` is a pyenv shim, else undefined. */
export function pyenvShim(text: string): PyenvShim | undefined {
  const match = SHIM.exec(text);
  return match && path.isAbsolute(match[1]!) && path.isAbsolute(match[2]!) ? { root: match[1]!, prefix: match[2]! } : undefined;
}

const isFile = (file: string) => stat(file).then((s) => s.isFile(), () => false);
const stamp = (file: string) => stat(file).then((s) => `${s.mtimeMs}:${s.size}`, () => '-');

/** pyenv-version-file: the nearest `.python-version` (a file) from `dir` up to the root, if any. */
async function nearestVersionFile(dir: string): Promise<string | undefined> {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, '.python-version');
    if (await isFile(candidate)) return candidate;
    if (path.dirname(at) === at) return undefined;
  }
}

/**
 * Whether a `version-name` hook could change the choice: pyenv sources every `version-name/*.bash` on its hook path
 * (PYENV_HOOK_PATH, then its own and the system's `pyenv.d`, then each plugin's), and such a script may look at the
 * directory. None is installed by pyenv or pyenv-virtualenv.
 */
async function versionNameHooks(shim: PyenvShim, env: NodeJS.ProcessEnv): Promise<boolean> {
  const plugins = await readdir(path.join(shim.root, 'plugins')).catch(() => [] as string[]);
  const dirs = [
    ...(env['PYENV_HOOK_PATH'] ?? '').split(':').filter(Boolean),
    path.join(shim.root, 'pyenv.d'),
    path.join(shim.prefix, 'pyenv.d'),
    '/usr/etc/pyenv.d',
    '/usr/local/etc/pyenv.d',
    '/etc/pyenv.d',
    '/usr/lib/pyenv/hooks',
    ...plugins.map((plugin) => path.join(shim.root, 'plugins', plugin, 'etc', 'pyenv.d')),
  ];
  const found = await Promise.all(dirs.map((dir) => readdir(path.join(dir, 'version-name')).then((names) => names.some((n) => n.endsWith('.bash')), () => false)));
  return found.includes(true);
}

/**
 * Everything the shim's choice depends on when started from `from`: $PYENV_VERSION or the text of the version file
 * pyenv reads (the nearest `.python-version` from $PYENV_DIR or `from` up, else `$PYENV_ROOT/version`), the installed
 * versions (a prefix such as `3.11` picks the newest one installed, so the folder's stamp), and the shim itself; the
 * directory only when a `version-name` hook could look at it. The steering variables are added by the caller.
 */
export async function pyenvChoiceInputs(shimFile: string, shim: PyenvShim, from: string, env: NodeJS.ProcessEnv = process.env): Promise<Record<string, string>> {
  const starts = env['PYENV_DIR'] ? [path.resolve(from, env['PYENV_DIR']), from] : [from];
  let versionFile: string | undefined;
  for (const start of starts) versionFile ??= await nearestVersionFile(start);
  versionFile ??= path.join(shim.root, 'version');
  const [text, versions, shimStamp, hooked] = await Promise.all([
    readFile(versionFile, 'utf8').catch(() => '-'),
    stamp(path.join(shim.root, 'versions')),
    stamp(shimFile),
    versionNameHooks(shim, env),
  ]);
  return { pyenv: shim.root, shim: `${shimFile}=${shimStamp}`, version: text, versions, ...(hooked ? { cwd: from } : {}) };
}
