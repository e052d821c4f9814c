// Help for people: -h, `help` and bare `tug` print it, a mistyped command or option names the closest real one, and
// `git tug --help` finds the man page through PATH the way the README installs tug.
import test from 'ava';
import { execa } from './helpers/execa.js';
import path from 'node:path';
import { PROJECT_ROOT } from './helpers/golden.js';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { tugOnTerminal } from './helpers/pty.js';

test('tug -h and tug help print the command list and exit 0', async (t) => {
  for (const args of [['-h'], ['help'], ['--help']]) {
    const run = await tug('/', args);
    t.is(run.exitCode, 0, args.join(' '));
    t.regex(run.stdout, /^Commands:$/m);
    t.regex(run.stdout, /tug rename \[AT\] \[TO\]/);
  }
  const sub = await tug('/', ['rename', '-h']);
  t.is(sub.exitCode, 0);
  t.regex(sub.stdout, /Examples:/);
});

test('bare tug prints help on a terminal (exit 2) and a JSON error to a program', async (t) => {
  const screen = await tugOnTerminal('/', []);
  t.is(screen.exitCode, 2);
  t.regex(screen.screen, /^Commands:$/m);
  t.notRegex(screen.screen, /"status"/);
  const piped = await tug('/', []);
  t.is(piped.exitCode, 2);
  t.is(piped.json.error.code, 'InvalidArgument');
});

test('a mistyped command, subcommand, option or choice names the closest valid one', async (t) => {
  const repo = await makeRepo({ 'a.py': 'x = 1\n' });
  const cases: Array<[string[], RegExp]> = [
    [['renam', 'a.py:1:1', 'y'], /unknown command renam; did you mean rename\?/],
    [['session', 'stat'], /unknown command stat; did you mean status\?/],
    [['rename', 'a.py:1:1', 'y', '--aply'], /unknown option --aply; did you mean --apply\?/],
    [['snapshot', '--jsn'], /unknown option --jsn; did you mean --json\?/],
    [['rename', 'a.py:1:1', 'y', '--verify-tests'], /^unknown option --verify-tests; did you mean --verify\?$/],
    [['toolchain', 'pyton', 'info'], /invalid language "pyton"; did you mean python\?/],
  ];
  for (const [args, message] of cases) {
    const run = await tug(repo.root, args);
    t.is(run.exitCode, 2, args.join(' '));
    t.is(run.json.error.code, 'InvalidArgument');
    t.regex(run.json.error.message, message);
  }
  const far = await tug(repo.root, ['snapshot', '--zzzzzzzz']);
  t.is(far.json.error.message, 'unknown option --zzzzzzzz');
  await repo.cleanup();
});

test('git tug --help opens git-tug(1) when bin/ is on PATH (man finds ../man next to it)', async (t) => {
  const man = await execa('man', ['--version'], { reject: false });
  if (man.exitCode !== 0) {
    if (process.env['CI']) t.fail('man is not installed');
    else t.log('SKIPPED (not CI): no man on this machine');
    return t.pass();
  }
  const env = { PATH: `${path.join(PROJECT_ROOT, 'bin')}${path.delimiter}${process.env['PATH']}`, MANPAGER: 'cat', PAGER: 'cat', MANPATH: '' };
  const page = await execa('git', ['tug', '--help'], { env, reject: false, cwd: '/' });
  t.is(page.exitCode, 0, page.stderr);
  t.regex(page.stdout, /git-tug/);
  t.regex(page.stdout, /verified, deterministic refactors/);
});
