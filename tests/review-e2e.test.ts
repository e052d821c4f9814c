// The real `tug review` in a real terminal (tmux, 80×24): accept part of a rename, commit it, and check the commit with git.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { TUG_BIN, tug } from './helpers/cli.js';
import { makeRepo, repoState } from './helpers/repo.js';

const SOURCE = {
  'pkg/__init__.py': '',
  'pkg/core.py': 'def process_data(x):\n    return x * 2\n',
  'main.py': `from pkg.core import process_data\n${'\n'.repeat(8)}print(process_data(1), process_data(2))\n`,
};
const BRANCH = 'tug/rename/process_data-to-transform_data';

const hasTmux = (await execa('tmux', ['-V'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;

/** A private tmux server per test run, so nothing touches the user's sessions. */
function terminal(socket: string) {
  const tmux = (...args: string[]) => execa('tmux', ['-L', socket, ...args], { reject: false });
  return {
    start: (cwd: string, command: string) => tmux('new-session', '-d', '-s', 'review', '-x', '80', '-y', '24', '-c', cwd, command),
    keys: (...keys: string[]) => tmux('send-keys', '-t', 'review', ...keys),
    screen: async (escapes = false) => (await tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', 'review')).stdout,
    // Generous deadlines: under CI the Rust tests' servers and builds share the two cores with this terminal.
    async waitFor(text: string, escapes = false): Promise<string> {
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
        const screen = await this.screen(escapes);
        if (screen.includes(text)) return screen;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`"${text}" never appeared; the screen:\n${await this.screen()}`);
    },
    stop: () => tmux('kill-server'),
  };
}

async function exitCode(file: string): Promise<string> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.endsWith('\n')) return text.trim();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('tug review did not exit');
}

test('tug review in tmux: reject one call site, commit the rest, quit; git shows the reviewed commit', async (t) => {
  if (!hasTmux) {
    if (process.env['CI']) t.fail('tmux is missing (.ci/run installs it)');
    else t.log('SKIPPED: tmux is not installed (apt-get install tmux)');
    t.pass();
    return;
  }
  const repo = await makeRepo(SOURCE);
  const run = await tug(repo.root, ['rename', 'pkg/core.py:1:5', 'transform_data']);
  t.is(run.exitCode, 0, run.stdout);
  const reviewed = run.json.git.commit as string;
  const exitFile = path.join(repo.root, '.git', 'review-exit');
  const term = terminal(`tug-e2e-${process.pid}`);
  // CI=true on purpose: ink alone would then draw only the last frame; tug hides it from ink on a real terminal.
  const launch = (env: string) => term.start(repo.root, `env CI=true ${env} TUG_NO_DAEMON=1 '${process.execPath}' '${TUG_BIN}' review ${BRANCH}; echo $? > '${exitFile}'; sleep 60`);
  try {
    await launch('TERM=xterm-256color');
    const first = await term.waitFor('@@ -1,4 +1,4 @@');
    t.true(first.includes(`${BRANCH}  kept 4/4`), first);
    t.true(first.split('\n').every((line) => line.length <= 80));
    t.regex(await term.screen(true), /\x1b\[[0-9;]*3[12]m/, 'removed and added lines are coloured');

    // The print line holds two call sites: j stops at each; reject only the second.
    await term.keys('j');
    await term.waitFor('>[x] -print(process_data(1), process_data(2))');
    t.regex(await term.screen(true), /\x1b\[[0-9;]*7m(\x1b\[[0-9;]*m)*transform_data/, 'the edit under the cursor is in reverse video');
    await term.keys('j');
    await term.waitFor('change 3/3  line 10  "process_data" -> "transform_data"  kept');
    await term.keys('Space');
    await term.waitFor('>[~] -print(process_data(1), process_data(2))');
    await term.keys('c');
    // The kept import and first call with the second call rejected: incomplete, so the TUI asks first.
    await term.waitFor('y commits it anyway');
    await term.keys('y');
    await term.waitFor('committed 3 of 4 changes');
    await term.keys('q');
    const closing = await term.waitFor('tug review: committed 3 of 4 changes');
    t.false(closing.includes('@@'), 'the last frame is the summary, not the panes');
    t.is(await exitCode(exitFile), '0');
    await term.stop();

    const tip = (await repo.git('rev-parse', BRANCH)).trim();
    t.is((await repo.git('rev-parse', `${tip}^`)).trim(), reviewed);
    t.is(await repo.git('show', `${tip}:main.py`), `from pkg.core import transform_data\n${'\n'.repeat(8)}print(transform_data(1), process_data(2))`);
    t.is(await repo.git('show', `${tip}:pkg/core.py`), 'def transform_data(x):\n    return x * 2');
    t.regex(await repo.git('log', '-1', '--format=%s', tip), /\(reviewed: kept 3 of 4 changes\)$/);
    t.is(await repo.git('status', '--porcelain'), '', 'the working tree was not touched');

    await launch('NO_COLOR=1');
    const plain = await term.waitFor(`${BRANCH}  kept 3/3`, true);
    t.false(plain.includes('\x1b['), 'NO_COLOR: not one escape code');
    await term.keys('q');
    await term.waitFor('nothing was committed, merged or applied');
  } finally {
    await term.stop();
    await repo.cleanup();
  }
});

test('off a terminal, review and --review fail with NotATerminal (exit 2) naming the JSON commands, before doing anything', async (t) => {
  const repo = await makeRepo(SOURCE);
  const before = await repoState(repo);
  const review = await tug(repo.root, ['review']);
  t.is(review.exitCode, 2, review.stdout);
  t.is(review.json.error.code, 'NotATerminal');
  t.regex(review.json.error.hint, /tug run … --json/);
  const rename = await tug(repo.root, ['rename', 'pkg/core.py:1:5', 'transform_data', '--review', '--apply']);
  t.is(rename.exitCode, 2, rename.stdout);
  t.is(rename.json.error.code, 'NotATerminal');
  t.is(await repoState(repo), before, 'no branch, no files');
  await repo.cleanup();
});
