// Product words only: what users read (help, man pages, README, docs, tool schemas, error hints) never says "seed";
// the package carries its LICENSE and CHANGELOG.
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES } from '../lib/index.js';
import { PROJECT_ROOT } from './helpers/golden.js';
import { tug } from './helpers/cli.js';

const SEED = /\bseeds?\b/i;

test('help of every command, tool --list and the error table never say seed', async (t) => {
  const top = await tug('/', ['--help']);
  const commands = [...top.stdout.matchAll(/^ {2}tug ([a-z-]+)/gm)].map((m) => m[1]!);
  t.true(commands.length >= 15);
  t.notRegex(top.stdout, SEED);
  for (const command of commands) {
    const help = await tug('/', [command, '--help']);
    t.notRegex(help.stdout, SEED, `tug ${command} --help`);
  }
  const tools = await tug('/', ['tool', '--list', '--json']);
  t.is(tools.exitCode, 0);
  t.notRegex(tools.stdout, SEED);
  for (const [code, entry] of Object.entries(ERROR_CODES)) t.notRegex(`${entry.title} ${entry.hint}`, SEED, code);
});

// ARCHITECTURE may cite the design document; QUALITY's sweep draws its positions with a random seed (`--seed`), another word.
const MAY_SAY_SEED = new Set(['ARCHITECTURE.md', 'QUALITY.md']);

test('README, the man pages and the user docs never say seed (ARCHITECTURE may cite the design document)', async (t) => {
  const docs = (await readdir(path.join(PROJECT_ROOT, 'docs'))).filter((f) => f.endsWith('.md') && !MAY_SAY_SEED.has(f)).map((f) => `docs/${f}`);
  for (const file of ['README.md', 'CHANGELOG.md', 'docs/man/tug.1', 'docs/man/git-tug.1', ...docs]) {
    t.notRegex(await readFile(path.join(PROJECT_ROOT, file), 'utf8'), SEED, file);
  }
});

test('the package is MIT licensed with the licence text, and has a changelog', async (t) => {
  const pkg = JSON.parse(await readFile(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { license: string; version: string };
  t.is(pkg.license, 'MIT');
  const license = await readFile(path.join(PROJECT_ROOT, 'LICENSE'), 'utf8');
  t.regex(license, /^MIT License\n/);
  t.regex(license, /THE SOFTWARE IS PROVIDED "AS IS"/);
  const changelog = await readFile(path.join(PROJECT_ROOT, 'CHANGELOG.md'), 'utf8');
  t.regex(changelog, /^## \[Unreleased\]$/m);
  t.true(changelog.includes(`## [${pkg.version}]`), 'the current version has an entry');
});
