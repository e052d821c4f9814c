// `tug review [BRANCH]` and `--review`: checks for a terminal, then loads the ink TUI from dist/ui at run time, never at start-up.
import { TugError } from '../core/errors.js';
import { parseInput, type Operation } from '../ops/operation.js';
import type { ReviewTui, ReviewTuiOptions } from '../review/types.js';
import type { CliIO } from './io.js';

export interface ReviewSettings {
  workspace: string;
  session_dir?: string | undefined;
  no_wait?: boolean | undefined;
  verify?: 'none' | 'syntax' | 'tests' | 'typecheck' | undefined;
  python?: string | undefined;
  test_command?: string[] | undefined;
  typecheck_command?: string[] | undefined;
  timeout?: number | undefined;
}

/** The flags that matter to a review: where, and how to re-verify (the run's recorded mode unless --verify is given). */
export function reviewSettings(input: ReviewSettings): ReviewSettings {
  const { workspace, session_dir, no_wait, verify, python, test_command, typecheck_command, timeout } = input;
  return { workspace, session_dir, no_wait, verify, python, test_command, typecheck_command, timeout };
}

/** Reading keys needs a terminal on stdin, and drawing needs one on stdout; anything else gets the JSON commands. */
export function assertTerminal(io: CliIO, json: boolean, command: string): void {
  if (json || !io.stdoutIsTTY || !io.stdinIsTTY) {
    const missing = json ? '--json was given' : !io.stdoutIsTTY ? 'stdout is not a terminal' : 'stdin is not a terminal';
    throw new TugError('NotATerminal', `${command} is interactive and ${missing}`, {
      details: { command, stdin_tty: Boolean(io.stdinIsTTY), stdout_tty: io.stdoutIsTTY, json_commands: ['tug run <op> … --json', 'git show <branch>', 'git merge <branch>', 'tug undo <token>'] },
    });
  }
}

/** Set by lib/cli/bundle-loader.ts for the bundled CLI, whose code V8 restores from its cache without a way to run `import()`. */
declare const __tugImport: ((url: string) => Promise<unknown>) | undefined;

/**
 * The TUI lives in dist/ui (ink + react), loaded by URL so neither the esbuild bundle nor `tug --version`
 * ever loads it. dist/lib/cli and dist/lib/cli-bundle sit at the same depth, so the URL works from both.
 */
export async function openReview(settings: ReviewSettings, branch: string | undefined): Promise<number> {
  if (process.env['NO_COLOR']) process.env['FORCE_COLOR'] = '0';
  const [{ createReviewKernel }, tui] = await Promise.all([import('../review/kernel.js'), loadTui()]);
  const options: ReviewTuiOptions = { createKernel: (progress) => createReviewKernel({ ...settings, progress }), branch };
  await tui.runReview(options);
  return 0;
}

/**
 * ink draws only the last frame when CI or CONTINUOUS_INTEGRATION is set, deciding once as it loads; the review
 * only runs on a real terminal, so it loads ink with them hidden and puts them back for the checks it runs.
 */
async function loadTui(): Promise<ReviewTui> {
  const hidden = ['CI', 'CONTINUOUS_INTEGRATION'].flatMap((name) => (name in process.env ? [[name, process.env[name]] as const] : []));
  for (const [name] of hidden) delete process.env[name];
  try {
    const importUrl = typeof __tugImport === 'function' ? __tugImport : (url: string) => import(url);
    return (await importUrl(new URL('../../ui/main.js', import.meta.url).href)) as ReviewTui;
  } finally {
    for (const [name, value] of hidden) process.env[name] = value;
  }
}

/** `tug rename … --review`: runs the operation without --apply/--commit, then opens the TUI on its branch. */
export async function runThenReview(operation: Operation, rawInput: unknown, json: boolean, io: CliIO, command: string): Promise<number> {
  assertTerminal(io, json, `tug ${command} --review`);
  const input = parseInput(operation.input, { ...(rawInput as Record<string, unknown>), apply: undefined, commit: undefined }, `${command} arguments`) as ReviewSettings;
  const result = (await operation.execute(input, { progress: (message) => io.err(`tug: ${message}\n`) })) as { git?: { branch?: string } };
  const branch = result.git?.branch;
  if (!branch) throw new TugError('UnsupportedOperation', `${command} does not make a branch to review`, { details: { operation: command, reason: 'no branch' } });
  return openReview(reviewSettings(input), branch);
}
