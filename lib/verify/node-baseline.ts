// Whether a failing `tsc` is the change's fault. A config whose check fails on the unchanged base too (rehype's package
// configs reference packages that are not composite, TS6306) is not the project's check: the same command is run on
// the base, and when it fails there as well, a config further up that covers everything the first one covers and that
// the base passes with gives the verdict; failing that, only errors the base does not have are the change's.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type * as TS from 'typescript';
import { git, gitBytes } from '../git/run-git.js';
import { loadTypeScript } from '../typescript/load.js';
import type { CheckResult } from './run-check.js';

/**
 * Runs `fn` with the sandbox's files as its HEAD (the change's base) has them, then puts the change back. Null when
 * the sandbox's index holds no change against HEAD (nothing to compare with).
 */
export async function onBase<T>(cwd: string, fn: () => Promise<T>): Promise<T | null> {
  const changed = (await git(['diff', '--cached', '--name-only', '-z', '--no-renames', 'HEAD'], { cwd })).stdout.split('\0').filter(Boolean);
  if (changed.length === 0) return null;
  const inBase = new Set((await git(['ls-tree', '-z', '--name-only', 'HEAD', '--', ...changed], { cwd })).stdout.split('\0').filter(Boolean));
  const saved = new Map<string, Buffer | null>();
  for (const file of changed) saved.set(file, await readFile(path.join(cwd, file)).catch(() => null));
  const put = async (file: string, bytes: Uint8Array | null) => {
    const at = path.join(cwd, file);
    if (bytes === null) return rm(at, { force: true });
    await mkdir(path.dirname(at), { recursive: true });
    return writeFile(at, bytes);
  };
  try {
    for (const file of changed) await put(file, inBase.has(file) ? await gitBytes(['cat-file', 'blob', `HEAD:${file}`], { cwd }) : null);
    return await fn();
  } finally {
    for (const [file, bytes] of saved) await put(file, bytes);
  }
}

/** The sandbox's files git does not track (ignored ones included: a project's .gitignore often lists `*.d.ts`). */
export async function untrackedFiles(cwd: string): Promise<Set<string>> {
  return new Set((await git(['ls-files', '-z', '--others'], { cwd })).stdout.split('\0').filter(Boolean));
}

/** Removes the untracked files that were not there `before` (what a command wrote into the sandbox). */
export async function removeNewFiles(cwd: string, before: ReadonlySet<string>): Promise<void> {
  for (const file of await untrackedFiles(cwd)) if (!before.has(file)) await rm(path.join(cwd, file), { force: true });
}

/** Every `error TSnnnn` line of `tsc --pretty false` output, located or not (a config's own errors have no file). */
export function tscErrorLines(output: string): Array<{ file: string | null; code: string; message: string }> {
  const out: Array<{ file: string | null; code: string; message: string }> = [];
  for (const m of output.matchAll(/^(?:(.+?)\(\d+,\d+\): )?error (TS\d+): (.*)$/gm)) out.push({ file: m[1] ?? null, code: m[2]!, message: m[3]! });
  return out;
}

/** The errors of `after` that `before` does not have as often (same file, code and message; positions move with an edit). */
export function addedErrors<E extends { file: string | null; code: string; message: string }>(before: readonly E[], after: readonly E[]): E[] {
  const count = new Map<string, number>();
  const key = (e: E) => `${e.file}\0${e.code}\0${e.message}`;
  for (const e of before) count.set(key(e), (count.get(key(e)) ?? 0) + 1);
  return after.filter((e) => {
    const left = count.get(key(e)) ?? 0;
    count.set(key(e), left - 1);
    return left <= 0;
  });
}

/** The files a config's check reads as its own: its program's root files and those of the projects it references. */
function filesOf(ts: typeof TS, config: string, seen = new Set<string>()): Set<string> | null {
  const files = new Set<string>();
  if (seen.has(config)) return files;
  seen.add(config);
  let failed = false;
  const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => (failed = true) });
  if (!parsed || failed) return null;
  for (const file of parsed.fileNames) files.add(path.resolve(file));
  for (const reference of parsed.projectReferences ?? []) {
    const more = filesOf(ts, ts.resolveProjectReferencePath(reference), seen);
    if (more === null) return null;
    for (const file of more) files.add(file);
  }
  return files;
}

/**
 * Configs in the directories above `config` (nearest first, up to the sandbox root) whose check reads every file
 * `config`'s does: one of them may be the check the project runs (a workspace's root `tsc --build`).
 */
export async function widerConfigs(cwd: string, config: string): Promise<string[]> {
  const { ts } = loadTypeScript(null);
  const own = filesOf(ts, path.join(cwd, config));
  if (own === null) return [];
  const name = path.posix.basename(config);
  const out: string[] = [];
  for (let dir = path.posix.dirname(path.posix.dirname(config)); ; dir = path.posix.dirname(dir)) {
    const candidate = dir === '.' ? name : `${dir}/${name}`;
    if (candidate !== config && (await readFile(path.join(cwd, candidate)).then(() => true, () => false))) {
      const theirs = filesOf(ts, path.join(cwd, candidate));
      if (theirs !== null && [...own].every((f) => theirs.has(f))) out.push(candidate);
    }
    if (dir === '.' || dir === '') break;
  }
  return out;
}

/**
 * The verdict on a config whose `tsc` failed on the change (`failed`; `runOnBase` runs a config's on the base, onBase):
 * failed when the base passes the same command, or when the change adds an error in a source file to it; else the
 * result of a wider config the base passes; else passed only when the base has every error the change has and all of
 * them are the checker's (in source files: the program was checked), failed otherwise.
 */
export async function judgeAgainstBase(
  cwd: string,
  config: string,
  failed: CheckResult,
  run: (config: string) => Promise<CheckResult>,
  runOnBase: (config: string) => Promise<CheckResult | null>,
): Promise<CheckResult> {
  const shown = (failed.command ?? []).join(' ');
  const base = await runOnBase(config);
  if (base === null || base.status !== 'failed') return failed;
  const baseErrors = tscErrorLines(base.output ?? '');
  const first = baseErrors[0];
  const why = `\`${shown}\` fails on the unchanged base too${first ? ` (${first.code}: ${first.message.slice(0, 160)})` : ''}`;
  // An error of the checker's the change adds to this very command is the change's, whatever a wider config says (it
  // may check with other options).
  const added = addedErrors(baseErrors, tscErrorLines(failed.output ?? ''));
  const inSource = added.filter((e) => e.file !== null && !e.file.endsWith('.json'));
  if (inSource.length > 0) return { ...failed, reason: `${why}; the change adds ${inSource.length} error(s) to it, first ${inSource[0]!.code}: ${inSource[0]!.message.slice(0, 160)}` };
  for (const other of await widerConfigs(cwd, config)) {
    const before = await runOnBase(other);
    if (before?.status !== 'passed') continue;
    const now = await run(other);
    return { ...now, reason: `${why}, so it is not this project's check; checked with ${(now.command ?? []).join(' ')} (${other}), which the base passes` };
  }
  const checked = baseErrors.length > 0 && baseErrors.every((e) => e.file !== null && !e.file.endsWith('.json'));
  if (added.length === 0 && checked) return { ...failed, status: 'passed', reason: `${why}, with the same ${baseErrors.length} error(s); the change adds none` };
  return { ...failed, reason: `${why}; no config above ${config} that covers its files passes on the base${added.length > 0 ? `; the change adds ${added.length} error(s), first ${added[0]!.code}: ${added[0]!.message.slice(0, 160)}` : ''}; pass --typecheck-command for this project's own check` };
}
