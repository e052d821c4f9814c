// The man page git opens for `git tug --help`: shipped, declared in package.json, and naming every command.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from './helpers/golden.js';
import { tug } from './helpers/cli.js';

test('package.json ships tug(1) and git-tug(1), and they name every command in --help', async (t) => {
  const pkg = JSON.parse(await readFile(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { man: string[] };
  t.deepEqual(pkg.man, ['./docs/man/tug.1', './docs/man/git-tug.1']);
  const help = (await tug('/', ['--help'])).stdout;
  const commands = [...help.matchAll(/^ {2}tug ([a-z-]+)/gm)].map((m) => m[1]!);
  t.true(commands.length >= 10, help);
  for (const page of pkg.man) {
    const text = await readFile(path.join(PROJECT_ROOT, page), 'utf8');
    t.regex(text, /^\.TH TUG 1/m);
    for (const command of commands) t.true(text.includes(`.B ${command}`) || text.includes(`.BI "${command}`) || text.includes(`.B "${command}`), `${page} documents ${command}`);
  }
});

test('git tug --help opens the man page when man is installed', async (t) => {
  const man = await execa('man', ['--version'], { reject: false });
  if (man.exitCode !== 0) {
    t.log('SKIPPED: no man on this machine');
    t.pass();
    return;
  }
  const page = await execa('man', ['-l', path.join(PROJECT_ROOT, 'docs/man/git-tug.1')], { env: { MANPAGER: 'cat', PAGER: 'cat' }, reject: false });
  t.regex(page.stdout, /verified, deterministic refactors/);
});
