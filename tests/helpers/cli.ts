// Runs the real `tug` command the way agents do (run as a program, as a shell finds it; stdout not a TTY, so JSON) and
// parses what it prints.
import { execa } from './execa.js';
import { fileURLToPath } from 'node:url';

export const TUG_BIN = fileURLToPath(new URL('../../../bin/tug', import.meta.url));

export interface TugRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  json: any;
}

export async function tug(cwd: string, args: string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<TugRun> {
  const result = await execa(TUG_BIN, args, {
    cwd,
    reject: false,
    env: { TUG_LOCK_TIMEOUT_MS: '2000', ...options.env },
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
  });
  let json: any;
  try {
    json = JSON.parse(result.stdout);
  } catch {
    json = undefined;
  }
  return { exitCode: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr, json };
}

export function patchset(edits: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ edits, ...extra });
}
