// Every Python refactor on a package tug's authors did not write: colorama as Debian's python3-colorama installs it,
// with its own test suite inside the package (colorama/tests, found by the verification's test detection). Each run
// is `tug run <refactor> --verify tests`, so the package's own tests pass on every result before anything is written.
import test, { type ExecutionContext } from 'ava';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { tug } from './helpers/cli.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';
import { missing } from './helpers/toolchains.js';

const DEBIAN = '/usr/lib/python3/dist-packages/colorama';

async function packageFiles(dir: string, prefix: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === '__pycache__') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(files, await packageFiles(full, `${prefix}${entry.name}/`));
    else if (entry.name.endsWith('.py')) files[`${prefix}${entry.name}`] = await readFile(full, 'utf8');
  }
  return files;
}

/** A repository holding Debian's colorama, or null (failing under CI) when python3-colorama is not installed. */
async function colorama(t: ExecutionContext): Promise<TestRepo | null> {
  if (!existsSync(DEBIAN)) {
    missing(t, `${DEBIAN} is missing: install Debian's python3-colorama`);
    return null;
  }
  return makeRepo(await packageFiles(DEBIAN, 'colorama/'));
}

const ENV = { TUG_DAEMON_AUTOSTART: '0' };

/** Runs the refactor with the package's tests as verification; returns its unified diff after checking both passed. */
async function verified(t: ExecutionContext, repo: TestRepo, args: string[]): Promise<string> {
  const run = await tug(repo.root, ['run', ...args, '--verify', 'tests', '--json'], { env: ENV });
  t.is(run.exitCode, 0, `${args.join(' ')}: ${run.stdout.slice(0, 3000)}`);
  const checks = (run.json?.verification?.checks ?? []) as Array<{ name: string; status: string; command?: string[] }>;
  t.deepEqual(
    checks.map((c) => [c.name, c.status]),
    [
      ['python-syntax', 'passed'],
      ['tests', 'passed'],
    ],
    args.join(' '),
  );
  return String(run.json?.patch?.unified_diff ?? '');
}

test('renames of a method and a class reach the tests that mock and import them', async (t) => {
  const repo = await colorama(t);
  if (!repo) return;
  const method = await verified(t, repo, ['rename-symbol', '--at', 'colorama/ansitowin32.py:192:9', '--to', 'convert_and_write']);
  t.regex(method, /\+        stream\.convert_and_write = Mock\(\)/);
  const cls = await verified(t, repo, ['rename-symbol', '--at', 'colorama/ansitowin32.py:16:7', '--to', 'WrappedStream']);
  t.regex(cls, /\+from \.\.ansitowin32 import AnsiToWin32, WrappedStream/);
});

test('change-signature and move-symbol rewrite every caller and import; the suite still passes', async (t) => {
  const repo = await colorama(t);
  if (!repo) return;
  const signature = await verified(t, repo, ['change-signature', '--at', 'colorama/initialise.py:111:5', '--params', JSON.stringify(['stream', 'convert', 'strip', 'wrap', 'autoreset'].map((name) => ({ name })))]);
  t.regex(signature, /\+            wrap_stream\(orig_stdout, convert, strip, wrap, autoreset\)/);
  const move = await verified(t, repo, ['move-symbol', '--at', 'colorama/initialise.py:111:5', '--destination', 'colorama.wrapping']);
  t.regex(move, /\+from colorama\.wrapping import wrap_stream|\+from \.wrapping import wrap_stream/);
  // colorama's modules import each other relatively, so the moved code's imports are relative too.
  t.regex(move, /\+from \.ansitowin32 import AnsiToWin32/);
});

test('a move whose tests patch the old module points the patch targets at the new module, and the suite passes', async (t) => {
  const repo = await colorama(t);
  if (!repo) return;
  // enable_vt_processing reads get_osfhandle, bound in a try/except ImportError: the new module imports it from the
  // old one. The tests patch "colorama.winterm.get_osfhandle", which the moved function then reads from colorama.vt:
  // nothing else reads it from winterm, so the patch target moves with it (before, this failed verification).
  const before = await readFile(path.join(repo.root, 'colorama/winterm.py'), 'utf8');
  const run = await tug(repo.root, ['run', 'move-symbol', '--at', 'colorama/winterm.py:178:5', '--destination', 'colorama/vt.py', '--verify', 'tests', '--json'], { env: ENV });
  t.is(run.exitCode, 0, run.stdout.slice(0, 2000));
  t.is(run.json.verification.status, 'passed');
  t.true(run.json.verification.checks.some((c: { name: string; status: string }) => c.name === 'tests' && c.status === 'passed'));
  t.regex(run.json.patch.unified_diff, /\+from \.winterm import get_osfhandle\n/);
  t.regex(run.json.patch.unified_diff, /-.*"colorama\.winterm\.get_osfhandle"[\s\S]*\+.*"colorama\.vt\.get_osfhandle"/);
  // Made on a branch; the working tree is as it was.
  t.is(await readFile(path.join(repo.root, 'colorama/winterm.py'), 'utf8'), before);
  t.false(existsSync(path.join(repo.root, 'colorama/vt.py')));
});

test('extract-variable, extract-function, inline and organize-imports keep the suite passing', async (t) => {
  const repo = await colorama(t);
  if (!repo) return;
  const variable = await verified(t, repo, ['extract-variable', '--range', 'colorama/ansitowin32.py:200:22-200:53', '--name', 'matches']);
  t.regex(variable, /\+        matches = self\.ANSI_CSI_RE\.finditer\(text\)\n\+        for match in matches:/);
  const method = await verified(t, repo, ['extract-function', '--range', 'colorama/ansitowin32.py:202:13-203:47', '--name', 'write_up_to_match']);
  t.regex(method, /\+            self\.write_up_to_match\(text, cursor, start, match\)/);
  const inlined = await verified(t, repo, ['inline', '--at', 'colorama/winterm.py:114:9']);
  t.regex(inlined, /\+        win32\.SetConsoleCursorPosition\(handle, \(position\.Y \+ y, position\.X \+ x\), adjust=False\)/);
  const imports = await verified(t, repo, ['organize-imports', '--file', 'colorama/ansitowin32.py']);
  t.regex(imports, /\+from \.winterm import WinColor, WinStyle, WinTerm, enable_vt_processing/);
});
