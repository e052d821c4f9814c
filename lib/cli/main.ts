// The `tug` / `git tug` command line: yargs parses, the registry executes, output.ts renders.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yargs from 'yargs';
import { asTugError, ERROR_CODES, TugError } from '../core/errors.js';
import type { Operation } from '../ops/operation.js';
import { parseInput, positionFromAt, rangeFromSpec } from '../ops/operation.js';
import { addRefactorCommands, shorthandOf } from './refactor-commands.js';
import { discoverRepoEarly } from '../git/repo.js';
import { findOperation, findUserOperation } from '../ops/registry.js';
import { releaseResources } from '../ops/resources.js';
import { outputMode, writeError, writeJson, type OutputMode } from './output.js';
import { HelpInstead, NO_COMMAND, TOP_COMMANDS, usageError, type FailingParser } from './usage-errors.js';
import { refactors } from './refactor-flags.js';
import { summarize } from './summary.js';
import { summarizeDaemon } from './summary-status.js';
import { sessionFlags } from './session-flags.js';
import { createLogger, logSettings, type Logger } from './logging.js';
import { processIO, type AnalysisTarget, type CliIO } from './io.js';
import { baseDir, changeInputOf, globalOptions, changeOptions, commonInput, joinDashValues, pick, readPatchset, verifyOptions, type Args } from './args.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export async function main(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  // Most commands open the repository around the caller's directory: git finds it while yargs and the operation load.
  const dropEarlyRepo = opensRepoInCwd(argv) ? discoverRepoEarly(io.cwd) : undefined;
  let mode: OutputMode = outputMode(argv.includes('--json'), io);
  const common = (args: Args) => commonInput(args, io);
  const changeInput = (args: Args) => changeInputOf(args, io);
  let exitCode = 0;
  const run = (name: string, toInput: (args: Args) => unknown | Promise<unknown>) => async (args: Args) => {
    mode = outputMode(Boolean(args['json']), io);
    if (args['review']) {
      const { runThenReview } = await import('./review-command.js');
      exitCode = await runThenReview(findOperation(name)!, await toInput(args), mode.json && Boolean(args['json']), io, name);
      return;
    }
    const input = await toInput(args);
    // A daemon started after this command warms up a rename analysis: only a rename names one.
    const fields = input as Record<string, unknown>;
    if (name === 'rename-symbol' || (name === 'analyze-impact' && fields['operation'] === 'rename_symbol')) io.analysing?.(analysisTarget(fields));
    exitCode = await execute(findOperation(name)!, input, mode, name, io, createLogger(logSettings(args, io), io));
  };
  const cli = addRefactorCommands(globalOptions(
    yargs(joinDashValues(argv))
      .scriptName('tug')
      .usage('tug <command> [options]\n\nVerified, deterministic refactors that land as commits on tug/ branches.'),
  )
    .middleware(sessionFlags(io))
    .command('snapshot', 'Print the snapshot id (git tree) of the workspace as it is on disk', (y) => y.example('tug snapshot --json', ''), run('snapshot', common)),
    run,
    { common, changeInput, cwd: io.cwd },
  )
    .command(
      'apply-patchset',
      'Verify and commit agent-written edits from a patchset file; optionally apply them',
      (y) =>
        changeOptions(y)
          .option('file', { alias: 'f', type: 'string', demandOption: true, describe: 'Patchset JSON file, or - for stdin' })
          .example('tug apply-patchset --file edits.json --verify syntax --apply', '')
          .example(`echo '{"edits":[{"file":"a.py","line":1,"col":5,"old_text":"f","new_text":"g"}]}' | tug apply-patchset -f -`, ''),
      run('apply-patchset', (a) => ({ ...changeInput(a), patchset: readPatchset(String(a['file']), baseDir(a, io)) })),
    )
    .command(
      'apply <branch>',
      "Write a tug/ branch's change into the working tree (all files or none), next to your uncommitted changes",
      (y) =>
        y
          .positional('branch', { type: 'string', describe: 'The tug/ branch a run made' })
          .example('tug apply tug/rename/process_data-to-transform_data', ''),
      async (a) => {
        mode = outputMode(Boolean(a['json']), io);
        const { applyBranch, summarizeApply } = await import('./apply-command.js');
        const result = await applyBranch(common(a), String(a['branch']));
        if (mode.json) writeJson(result, io);
        else io.out(`${summarizeApply(result)}\n`);
      },
    )
    .command(
      'verify',
      'Run the checks on the workspace as it is, in a sandbox',
      (y) => verifyOptions(y).example('tug verify --verify tests', ''),
      run('verify', (a) => {
        const { verify, ...rest } = changeInput(a);
        return pick({ ...rest, mode: verify }, ['workspace', 'session_dir', 'no_wait', 'mode', 'snapshot', 'python', 'test_command', 'typecheck_command', 'timeout']);
      }),
    )
    .command(
      'assists',
      "List the rust-analyzer assists offered at a Rust position or range (apply one with run assist --id)",
      (y) =>
        y
          .option('at', { type: 'string', demandOption: true, describe: 'FILE:LINE:COL or FILE:L1:C1-L2:C2 (1-based, end exclusive)' })
          .option('rust-analyzer', { type: 'string', describe: 'rust-analyzer binary' })
          .example('tug assists --at src/lib.rs:8:5 --json', ''),
      run('assists', (a) => {
        const at = String(a['at']);
        const place = /:\d+:\d+-\d+:\d+$/.test(at) ? rangeFromSpec(at) : positionFromAt(at);
        return { ...common(a), ...place, ...(a['rust-analyzer'] !== undefined ? { rust_analyzer: a['rust-analyzer'] } : {}) };
      }),
    )
    .command(
      'undo <token>',
      "Restore the files an operation changed (and move the branch back after --commit)",
      (y) =>
        y
          .positional('token', { type: 'string', describe: 'The undo_token from the operation' })
          .option('force', { type: 'boolean', describe: 'Also overwrite files that changed since the operation' })
          .option('revert', { type: 'boolean', describe: 'For a change already merged: record a revert commit on the current branch' })
          .example('tug undo undo_0123456789abcdef', '')
          .example('tug undo undo_0123456789abcdef --revert', ''),
      run('undo', (a) => ({ ...common(a), token: a['token'], force: a['force'], revert: a['revert'] })),
    )
    .command('session', 'Inspect the session', (y) =>
      y
        .command('status', 'Show the session dir, lock, Python, workers, sandboxes and caches', (z) => z.example('tug session status --json', ''), run('session status', common))
        .demandCommand(1, 'name a session subcommand: status'),
    )
    .command(
      'clean',
      "Remove tug's sandboxes, caches and workers (all three unless one is named)",
      (y) =>
        y
          .option('workers', { type: 'boolean', describe: 'Stop workers' })
          .option('cache', { type: 'boolean', describe: 'Delete caches' })
          .option('sandboxes', { type: 'boolean', describe: 'Remove sandbox checkouts' })
          .option('undo', { type: 'boolean', describe: 'Also delete undo points and pinned snapshots' })
          .example('tug clean --sandboxes', '')
          .example('tug clean --undo', ''),
      run('clean', (a) => ({ ...common(a), ...pick(a, ['workers', 'cache', 'sandboxes', 'undo']) })),
    )
    .command(
      'toolchain <language> <action>',
      'Inspect or set up the Python interpreter or rust-analyzer tug uses: info, check, setup',
      (y) =>
        y
          .positional('language', { choices: ['python', 'rust'] as const, describe: 'Toolchain language' })
          .positional('action', { choices: ['info', 'check', 'setup'] as const, describe: 'info, check or setup' })
          .option('python', { type: 'string', describe: 'Base interpreter' })
          .option('rust-analyzer', { type: 'string', describe: 'rust-analyzer binary' })
          .example('tug toolchain python check', '')
          .example('tug toolchain rust setup', '')
          .example('tug toolchain python setup --python /usr/bin/python3', ''),
      run('toolchain', (a) => ({ ...common(a), language: a['language'], action: a['action'], python: a['python'], rust_analyzer: a['rust-analyzer'] })),
    )
    .command(
      'review [branch]',
      'Review tug/ branches in a terminal UI: accept or reject each change, re-verify, commit, merge or apply',
      (y) =>
        verifyOptions(y)
          .hide('snapshot')
          .option('verify', { choices: ['none', 'syntax', 'tests', 'typecheck'] as const, describe: 'Checks v and c re-run (default: the mode the result was verified with)' })
          .positional('branch', { type: 'string', describe: 'A tug/ branch to open (default: list them, newest first)' })
          .example('tug review', '')
          .example('tug review tug/rename/process_data-to-transform_data', '')
          .example('tug rename src/utils.py:42:5 transform_data --review', ''),
      async (a) => {
        const { assertTerminal, openReview, reviewSettings } = await import('./review-command.js');
        assertTerminal(io, Boolean(a['json']), 'tug review');
        exitCode = await openReview(reviewSettings(changeInput(a) as Parameters<typeof reviewSettings>[0]), typeof a['branch'] === 'string' ? a['branch'] : undefined);
      },
    )
    .command(
      'tool [name]',
      'List the agent tools (--list) or run one with JSON arguments',
      (y) =>
        y
          .positional('name', { type: 'string', describe: 'Tool name (read_file, edit_file, run_command, tug_rename_symbol, …)' })
          .option('list', { type: 'boolean', describe: 'Print every tool with its description and JSON Schema' })
          .option('args', { type: 'string', describe: 'Arguments as a JSON object, or - to read them from stdin' })
          .example('tug tool --list --json', '')
          .example(`tug tool edit_file --args '{"path":"app.py","old_text":"x = 1","new_text":"x = 2"}'`, '')
          .example(`echo '{"command":"pytest -q"}' | tug tool run_command --args -`, ''),
      async (a) => {
        mode = outputMode(Boolean(a['json']), io);
        const { toolCommand } = await import('./tool-command.js');
        exitCode = await toolCommand(a, common(a), io, mode);
      },
    )
    .command(
      'log',
      'List the operation log, newest first',
      (y) => y.option('n', { type: 'number', describe: 'Show at most N entries' }).example('tug log -n 5', ''),
      run('log', (a) => ({ ...common(a), n: a['n'] })),
    )
    .command(
      'replay <branch>',
      "Re-run a tug/ branch's recorded operations on the current working tree (or --onto REF): a new verified branch",
      (y) =>
        changeOptions(y)
          .positional('branch', { type: 'string', describe: 'The tug/ branch to replay' })
          .option('onto', { type: 'string', describe: 'Replay on this commit or branch instead of the working tree' })
          .option('replace', { type: 'boolean', describe: 'Move the replayed branch to the result instead of making <branch>-2' })
          .example('tug replay tug/rename/process_data-to-transform_data', '')
          .example('tug replay tug/rename/a-to-b --onto origin/main --replace', ''),
      run('replay', (a) => {
        // --review is not offered here; --commit moves the current branch to the replayed result (not with --onto).
        const { review: _review, commit, ...rest } = changeInput(a) as Record<string, unknown>;
        return { ...rest, ...(commit === undefined ? {} : { commit }), branch: a['branch'], onto: a['onto'], replace: a['replace'] };
      }),
    )
    .command(
      'check-merge <branch>',
      'Say whether merging a tug/ branch would be clean: git conflicts, and new uses of a symbol it changed (exit 1 when not)',
      (y) =>
        y
          .positional('branch', { type: 'string', describe: 'The tug/ branch to check' })
          .option('into', { type: 'string', describe: 'The branch or commit it would be merged into (default HEAD)' })
          .example('tug check-merge tug/rename/process_data-to-transform_data', ''),
      run('check-merge', (a) => ({ ...common(a), branch: a['branch'], into: a['into'] })),
    )
    .command(
      'show <id>',
      'Show one operation log entry by id or unique prefix, or the operations recorded on a tug/ branch',
      (y) => y.positional('id', { type: 'string', describe: 'Entry id (or a unique prefix), or a tug/ branch' }).example('tug show 3f2a', '').example('tug show tug/rename/a-to-b', ''),
      run('show', (a) => ({ ...common(a), id: a['id'] })),
    )
    .command(
      'trust',
      "Trust this repository: let its tug.toml / [tool.tug] settings that run programs take effect (python_path, test_command, …)",
      (y) =>
        y
          .option('revoke', { type: 'boolean', describe: 'Forget the trust of this repository' })
          .option('status', { type: 'boolean', describe: 'Only show whether it is trusted and which settings need trust' })
          .option('confirm', { type: 'boolean', describe: 'Trust although stdin is not a terminal (from a script you run yourself)' })
          .example('tug trust --status', '')
          .example('tug trust', '')
          .example('tug trust --revoke', ''),
      async (a) => {
        mode = outputMode(Boolean(a['json']), io);
        exitCode = await execute(findUserOperation('trust')!, { workspace: common(a).workspace, ...pick(a, ['revoke', 'status', 'confirm']) }, mode, 'trust', io, createLogger(logSettings(a, io), io));
      },
    )
    .command(
      'mcp',
      'Serve every operation as an MCP tool over stdio (for Claude Code, Cursor and other agents)',
      (y) => y.example('claude mcp add tug -- tug mcp', '').example('tug mcp --workspace ~/src/project', ''),
      async (a) => {
        const { serveMcpStdio } = await import('../mcp/server.js');
        await serveMcpStdio({ workspace: path.resolve(io.cwd, String(a['workspace'] ?? '.')) });
      },
    )
    .command(
      'daemon <action>',
      'Keep one resident tug for all your repositories so commands skip start-up: start, status, stop',
      (y) =>
        y
          .positional('action', { choices: ['start', 'status', 'stop', 'run'] as const, describe: 'run serves in the foreground (start uses it)' })
          .option('idle-seconds', { type: 'number', describe: 'with start or run: exit after this long without a command (default $TUG_DAEMON_IDLE_SECONDS, else daemon.idle_minutes of the user config, else 30 minutes)' })
          .option('warm-up', { type: 'string', hidden: true, describe: 'with run: JSON of a rename target to analyse once at start (what an auto-start passes)' })
          .example('tug daemon start', '')
          .example('tug daemon stop', ''),
      async (a) => {
        const { daemonCommand } = await import('./daemon-command.js');
        const result = await daemonCommand(String(a['action']), main, {
          idleSeconds: a['idle-seconds'] as number | undefined,
          warmUp: a['warm-up'] as string | undefined,
        });
        if (mode.json) writeJson(result, io);
        else io.out(`${summarizeDaemon(result['daemon'] as Record<string, unknown>)}\n`);
      },
    )
    .command(
      'doctor',
      'Check git, Node, Python (and its features), pytest, rust-analyzer, cargo, the session dir and the daemon; say how to fix what is missing',
      (y) =>
        y
          .option('python', { type: 'string', describe: 'Check this interpreter instead of the one tug resolves' })
          .option('rust-analyzer', { type: 'string', describe: 'Check this rust-analyzer instead of the discovered one' })
          .example('tug doctor', '')
          .example('tug doctor --json', ''),
      run('doctor', (a) => ({ workspace: common(a).workspace, session_dir: common(a).session_dir, python: a['python'], rust_analyzer: a['rust-analyzer'] })),
    )
    .completion('completion', 'Print a bash/zsh completion script (add `source <(tug completion)` to your shell rc)')
    .demandCommand(1, NO_COMMAND)
    .strict()
    .recommendCommands()
    .version(VERSION)
    .help()
    .alias('h', 'help')
    .wrap(argv.includes("--help") || argv.includes("-h") ? Math.min(100, io.columns || 100) : null)
    .fail((message, error) => {
      if (error instanceof TugError) throw error;
      if (message === NO_COMMAND && !mode.json) throw new HelpInstead();
      throw usageError(message || String(error), argv, cli as unknown as FailingParser, [...TOP_COMMANDS, ...refactors().map(shorthandOf)]);
    });
  skipHelpCache(cli);
  try {
    await cli.parseAsync();
  } catch (error) {
    if (error instanceof HelpInstead) {
      // Bare `tug` on a terminal: the person wants to know what to type; a program gets the JSON error below.
      io.out(`${await cli.getHelp()}\n`);
      return ERROR_CODES.InvalidArgument.exit;
    }
    const tugError = asTugError(error);
    writeError(tugError, mode, io);
    return tugError.exitCode;
  } finally {
    dropEarlyRepo?.();
    if (!io.longLived) await stopHelpers();
  }
  return exitCode;
}

/** Commands that work on the repository of the current directory; help, version and the long-lived servers do not. */
function opensRepoInCwd(argv: readonly string[]): boolean {
  const command = argv.find((a) => !a.startsWith('-'));
  if (command === undefined || ['mcp', 'daemon', 'completion'].includes(command)) return false;
  return !argv.some((a) => ['--help', '-h', '--version', '-C'].includes(a) || a.startsWith('--workspace'));
}

/**
 * yargs renders the whole help text after running any subcommand, in case the handler asks for it; tug's handlers never
 * do (failures go through `.fail`), and measuring every help line's width cost each command ~10 ms. Internal API, hence
 * the guards: without it yargs behaves as before.
 */
function skipHelpCache(cli: unknown): void {
  const usage = (cli as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: unknown } } }).getInternalMethods?.().getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
}

/** Warm helpers live as long as their process; a one-shot command ends them so it can exit. */
async function stopHelpers(): Promise<void> {
  await releaseResources();
}

function analysisTarget(input: Record<string, unknown>): AnalysisTarget {
  const text = (key: string) => (typeof input[key] === 'string' ? { [key]: input[key] as string } : {});
  return { at: `${String(input['file'])}:${String(input['line'])}:${String(input['column'])}`, to: String(input['new_name']), ...text('python'), ...text('rust_analyzer') };
}

async function execute(operation: Operation, rawInput: unknown, mode: OutputMode, command: string, io: CliIO, logger: Logger): Promise<number> {
  const input = parseInput(operation.input, rawInput, `${command} arguments`);
  logger.log('debug', `${command}: ${JSON.stringify(input)}`, { operation: operation.name });
  const started = performance.now();
  const result = await operation.execute(input, { progress: (message) => logger.log('info', message, { operation: operation.name }) });
  logger.log('debug', `${command} finished in ${Math.round(performance.now() - started)} ms`, { operation: operation.name });
  if (mode.json) writeJson(result, io);
  else io.out(`${summarize(command, result as Record<string, unknown>, rawInput as Record<string, unknown>)}\n`);
  // check-merge answers a question; like `git diff --exit-code`, a "no" (the merge would not be clean) is exit 1.
  return command === 'check-merge' && (result as { clean?: unknown }).clean === false ? 1 : 0;
}

