// Runs the real `tug` on a pseudo-terminal (util-linux `script`), the way a person sees it: stdout is a TTY, so no JSON.
import { execa } from './execa.js';
import { TUG_BIN } from './cli.js';

export interface PtyRun {
  exitCode: number;
  /** Everything the terminal showed (stdout and stderr interleaved), with CR LF turned into LF. */
  screen: string;
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** `tug ARGS` in `cwd` on a terminal; `script -e` returns tug's exit code. */
export async function tugOnTerminal(cwd: string, args: string[], env: Record<string, string> = {}): Promise<PtyRun> {
  const command = ['node', TUG_BIN, ...args].map(quote).join(' ');
  const run = await execa('script', ['-qec', command, '/dev/null'], { cwd, reject: false, env: { TUG_LOCK_TIMEOUT_MS: '2000', ...env }, stdin: 'ignore' });
  return { exitCode: run.exitCode ?? -1, screen: `${run.stdout}${run.stderr}`.replace(/\r\n/g, '\n') };
}
