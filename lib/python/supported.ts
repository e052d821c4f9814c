// Which Pythons tug can run its analysis with, and the coded error (UnsupportedInterpreter) for the others: an old
// Python, or a program that is no Python at all, used to surface as a worker crash (exit 10).
import { execFile } from 'node:child_process';
import { TugError } from '../core/errors.js';
import { ISOLATED_CWD, isolatedEnv } from './isolated.js';

/** The worker uses `match` statements' AST nodes and -I; Python 3.10 has both. */
export const MIN_PYTHON: readonly [number, number] = [3, 10];
export const MIN_PYTHON_TEXT = `${MIN_PYTHON[0]}.${MIN_PYTHON[1]}`;

/** Whether `version` ("3.11.7") is one tug runs with; null (unknown) is not. */
export function isSupportedVersion(version: string | null | undefined): boolean {
  const match = /^(\d+)\.(\d+)/.exec(version ?? '');
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor >= MIN_PYTHON[1]);
}

export function unsupportedInterpreter(python: string, found: string | null): TugError {
  const what = found ? `Python ${found}` : 'not a Python interpreter tug can run';
  return new TugError('UnsupportedInterpreter', `${python} is ${what}; tug needs Python ${MIN_PYTHON_TEXT} or newer`, {
    details: { python, found, needed: `${MIN_PYTHON_TEXT}+` },
  });
}

/**
 * The version of `python`, asked in a way even Python 2 understands (`-E -s -S`; `-I` came with 3.4), from tug's own
 * folder with the allowlisted environment; null when it does not answer like a Python.
 */
export function interpreterVersion(python: string): Promise<string | null> {
  const script = 'import sys; sys.stdout.write("%d.%d.%d" % tuple(sys.version_info[:3]))';
  return new Promise((resolve) => {
    execFile(python, ['-E', '-s', '-S', '-c', script], { cwd: ISOLATED_CWD, env: isolatedEnv(), timeout: 20_000, encoding: 'utf8' }, (error, stdout) => {
      const version = String(stdout ?? '').trim();
      resolve(!error && /^\d+\.\d+\.\d+$/.test(version) ? version : null);
    });
  });
}

/** After `python` failed to start tug's side: UnsupportedInterpreter when it is an old Python or none, else `original`. */
export async function explainStartFailure(python: string, original: TugError): Promise<TugError> {
  const version = await interpreterVersion(python);
  return isSupportedVersion(version) ? original : unsupportedInterpreter(python, version);
}
