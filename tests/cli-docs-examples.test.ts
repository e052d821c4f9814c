// The worked examples of README.md and docs/ops/*.md run here, so a newcomer who types them on the bundled demo
// repository gets what the page shows. A ```sh block after `<!-- demo-example -->` is run line by line, in order,
// in a fresh git repository of fixtures/demo/project (one per page), through sh with bin/ first on PATH; each tug
// command must answer status ok, and a ```diff block right after it must equal the last command's unified diff.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { cp, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from './helpers/golden.js';
import { makeRepo } from './helpers/repo.js';
import { refactors } from '../lib/cli/refactor-flags.js';
import { shorthandOf } from '../lib/cli/refactor-commands.js';

const MARKER = '<!-- demo-example -->';

interface Example {
  commands: string[];
  diff?: string;
}

/** The marked examples of one Markdown file, in order. */
function demoExamples(markdown: string): Example[] {
  const out: Example[] = [];
  const blocks = markdown.split(MARKER).slice(1);
  for (const block of blocks) {
    const sh = /^\s*```sh\n([\s\S]*?)```/.exec(block);
    if (!sh) throw new Error(`${MARKER} not followed by a sh block: ${block.slice(0, 80)}`);
    const commands = sh[1]!.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
    const after = block.slice(sh.index + sh[0].length);
    // The next fenced block, when it is a diff, shows what the last command changed.
    const next = /```(\w*)\n([\s\S]*?)```/.exec(after);
    out.push({ commands, ...(next && next[1] === 'diff' ? { diff: next[2] } : {}) });
  }
  return out;
}

const PAGES = ['README.md', ...(await readdir(path.join(PROJECT_ROOT, 'docs/ops'))).filter((f) => f.endsWith('.md')).map((f) => `docs/ops/${f}`)];

/** Pages that document a refactor the demo repository (Python) can show. */
const MUST_HAVE_EXAMPLE = ['README.md', 'docs/ops/rename-symbol.md', 'docs/ops/move-symbol.md', 'docs/ops/extract-variable.md', 'docs/ops/extract-function.md', 'docs/ops/inline.md', 'docs/ops/change-signature.md', 'docs/ops/organize-imports.md'];

test('every refactor page carries a worked example on the demo repository', async (t) => {
  for (const page of MUST_HAVE_EXAMPLE) {
    const examples = demoExamples(await readFile(path.join(PROJECT_ROOT, page), 'utf8'));
    t.true(examples.length > 0, `${page} has a ${MARKER} block`);
    if (page !== 'README.md') t.true(examples.some((e) => e.diff !== undefined), `${page} shows the diff its example makes`);
  }
});

test('every refactor the command line offers has a docs/ops page and a README section under its command', async (t) => {
  const readme = await readFile(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const pages = await readdir(path.join(PROJECT_ROOT, 'docs/ops'));
  t.true(pages.includes('rename-symbol.md'));
  t.regex(readme, /^### rename$/m);
  for (const op of refactors()) {
    t.true(pages.includes(`${op.name}.md`) || pages.includes(`${op.name}s.md`), `docs/ops/${op.name}.md`);
    t.regex(readme, new RegExp(`^### ${shorthandOf(op)}$`, 'm'), `README.md: ### ${shorthandOf(op)}`);
  }
});

for (const page of PAGES) {
  test.serial(`the worked examples of ${page} run on the demo repository as shown`, async (t) => {
    const examples = demoExamples(await readFile(path.join(PROJECT_ROOT, page), 'utf8'));
    if (examples.length === 0) return t.pass();
    const repo = await makeRepo({});
    await cp(path.join(PROJECT_ROOT, 'fixtures/demo/project'), repo.root, { recursive: true });
    await repo.git('add', '-A');
    await repo.git('commit', '-q', '-m', 'inventory: initial version');
    const env = { PATH: `${path.join(PROJECT_ROOT, 'bin')}${path.delimiter}${process.env['PATH']}`, TUG_NO_DAEMON: '1' };
    try {
      for (const example of examples) {
        let last: any;
        for (const command of example.commands) {
          const run = await execa('sh', ['-c', command], { cwd: repo.root, env, reject: false, stdin: 'ignore' });
          t.is(run.exitCode, 0, `${page}: ${command}\n${run.stdout}\n${run.stderr}`);
          if (/^\s*(git )?tug /.test(command) || command.includes('| tug ')) {
            last = JSON.parse(run.stdout);
            t.is(last.status, 'ok', `${page}: ${command}`);
          }
        }
        if (example.diff !== undefined) t.is(last?.patch?.unified_diff, example.diff, `${page}: the diff after ${example.commands.at(-1)}`);
      }
    } finally {
      await repo.cleanup();
    }
  });
}
