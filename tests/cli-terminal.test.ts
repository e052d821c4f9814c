// On a terminal every command prints for people (no JSON braces), with file:line:col locations, the branch and the next
// command; with --json (or a pipe) the same commands print the JSON contract.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';
import { tugOnTerminal } from './helpers/pty.js';

const APP = 'def process_data(x):\n    return x\n\n\ndef other():\n    y = getattr(object, "process_data")\n    return process_data(1)\n';
const MAIN = 'from app import process_data\n\nprint(process_data(2))\n';

const looksLikeJson = /^\s*[{[]/m;

test('analyze-impact groups references by file with file:line:col, warnings with locations, and the next command', async (t) => {
  const repo = await makeRepo({ 'app.py': APP, 'main.py': MAIN });
  const run = await tugOnTerminal(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'app.py:1:5', '--to', 'transform_data']);
  t.is(run.exitCode, 0, run.screen);
  t.notRegex(run.screen, looksLikeJson);
  t.regex(run.screen, /function process_data at app\.py:1:5 -> transform_data/);
  t.regex(run.screen, /4 reference\(s\) in 2 file\(s\)/);
  t.regex(run.screen, / {2}app\.py\n {4}app\.py:1:5 {2}definition\n {4}app\.py:7:12 {2}call\n {2}main\.py\n {4}main\.py:1:17 {2}import\n {4}main\.py:3:7 {2}call/);
  t.regex(run.screen, /warning\[DynamicReference\] app\.py:6:9: getattr/);
  t.regex(run.screen, /next {4}tug rename app\.py:1:5 transform_data/);
  const json = await tugOnTerminal(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'app.py:1:5', '--to', 'transform_data', '--json']);
  t.regex(json.screen, /"references": \[/);
  const piped = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'app.py:1:5', '--to', 'transform_data']);
  t.is(piped.json.impact.references_count, 4);
  await repo.cleanup();
});

test('analyze-impact of a refactor prints its diff stat, the patch and the next command on a terminal', async (t) => {
  const repo = await makeRepo({ 'calc.py': 'def f(a, b):\n    x = a + b\n    return x * 2\n' });
  const run = await tugOnTerminal(repo.root, ['analyze-impact', 'inline', '--at', 'calc.py:2:5']);
  t.is(run.exitCode, 0, run.screen);
  t.notRegex(run.screen, looksLikeJson);
  t.regex(run.screen, /inline: 2 edit\(s\) in 1 file\(s\) \(nothing written\)/);
  t.regex(run.screen, / {2}calc\.py \| {3}3 \+--/);
  t.regex(run.screen, /\+ {4}return \(a \+ b\) \* 2/);
  t.regex(run.screen, /next {4}tug run inline with the same flags/);
  await repo.cleanup();
});

test('rename prints the symbol, a diff stat, warnings, the branch, the next command and undo; log and show read back', async (t) => {
  const repo = await makeRepo({ 'app.py': APP, 'main.py': MAIN });
  const run = await tugOnTerminal(repo.root, ['rename', 'app.py:1:5', 'transform_data']);
  t.is(run.exitCode, 0, run.screen);
  t.notRegex(run.screen, looksLikeJson);
  t.regex(run.screen, /rename-symbol process_data -> transform_data: 4 edit\(s\) in 2 file\(s\), verification passed \(syntax\)/);
  t.regex(run.screen, / {2}app\.py {2}\| {3}4 \+\+--\n {2}main\.py \| {3}4 \+\+--/);
  t.regex(run.screen, /warning\[StringMention\] app\.py:6:26: /);
  t.regex(run.screen, /branch {2}tug\/rename\/process_data-to-transform_data {2}[0-9a-f]{12}/);
  t.regex(run.screen, /git merge tug\/rename\/process_data-to-transform_data/);
  const token = /tug undo (undo_[0-9a-f]+)/.exec(run.screen)?.[1];
  t.truthy(token, run.screen);
  const log = await tug(repo.root, ['log']);
  const id = log.json.entries[0].id as string;
  const show = await tugOnTerminal(repo.root, ['show', id]);
  t.notRegex(show.screen, looksLikeJson);
  t.regex(show.screen, new RegExp(`^${id} .* rename-symbol`, 'm'));
  t.regex(show.screen, /files {5}app\.py, main\.py/);
  const undo = await tugOnTerminal(repo.root, ['undo', token!]);
  t.regex(undo.screen, /undone undo_/);
  await repo.cleanup();
});

test('session status, toolchain, verify, clean and daemon status print lines for people', async (t) => {
  const repo = await makeRepo({ 'app.py': APP });
  const expectations: Array<[string[], RegExp]> = [
    [['session', 'status'], /^session {3}\S+\/tug\n.*\nlock {6}free/m],
    [['toolchain', 'python', 'info'], /^python {4}\S+ \(\S+\), Python 3\.\d+/m],
    [['toolchain', 'rust', 'info'], /^cargo {9}\S/m],
    [['verify'], /^verification passed \(syntax\)\n {2}passed {2}python-syntax/m],
    [['clean', '--cache'], /^cleaned: 0 worker\(s\) stopped, cache (deleted|kept), 0 sandbox/m],
    [['daemon', 'status'], /^no daemon runs for this repository/m],
    [['snapshot'], /^snapshot [0-9a-f]{40}/m],
  ];
  for (const [args, expected] of expectations) {
    const run = await tugOnTerminal(repo.root, args);
    t.notRegex(run.screen, looksLikeJson, args.join(' '));
    t.regex(run.screen, expected, args.join(' '));
    const piped = await tug(repo.root, args);
    t.is(piped.json?.status, 'ok', `${args.join(' ')} piped prints JSON`);
  }
  await repo.cleanup();
});

test('NameConflict says where the clash is, in the message and on the terminal', async (t) => {
  const repo = await makeRepo({ 'app.py': APP });
  const piped = await tug(repo.root, ['rename', 'app.py:1:5', 'other']);
  t.is(piped.json.error.code, 'NameConflict');
  t.regex(piped.json.error.message, /other is already defined at app\.py:5:5$/);
  const run = await tugOnTerminal(repo.root, ['rename', 'app.py:1:5', 'other']);
  t.is(run.exitCode, 4);
  t.regex(run.screen, /clash at app\.py:5:5: already defined \(other\)/);
  await repo.cleanup();
});

test('tug tool on a terminal shows what the tool read, ran or changed; a failure as error[Code] with its hint', async (t) => {
  const repo = await makeRepo({ 'app.py': APP, 'main.py': MAIN });
  const read = await tugOnTerminal(repo.root, ['tool', 'read_file', '--args', '{"path":"app.py","line_start":1,"line_end":2}']);
  t.is(read.screen, 'app.py (lines 1-2 of 7)\n     1\tdef process_data(x):\n     2\t    return x');
  const grep = await tugOnTerminal(repo.root, ['tool', 'grep_file', '--args', '{"pattern":"process_data[(]"}']);
  t.regex(grep.screen, /^app\.py:1:5: def process_data\(x\):\napp\.py:7:12: {5}return process_data\(1\)\nmain\.py:3:7: print\(process_data\(2\)\)$/m);
  const ran = await tugOnTerminal(repo.root, ['tool', 'run_command', '--args', '{"command":"echo hi; echo oops >&2; exit 3"}']);
  t.is(ran.exitCode, 1);
  t.regex(ran.screen, /^hi\nstderr: oops\nexit code 3$/m);
  const edit = await tugOnTerminal(repo.root, ['tool', 'edit_file', '--args', '{"path":"main.py","old_text":"(2)","new_text":"(3)","apply":false}']);
  t.regex(edit.screen, /^edit-file: 1 edit\(s\) in 1 file\(s\)/m);
  t.regex(edit.screen, /git merge tug\/edit\//);
  const missing = await tugOnTerminal(repo.root, ['tool', 'read_file', '--args', '{"path":"nope.py"}']);
  t.is(missing.exitCode, 3);
  t.regex(missing.screen, /^error\[FileNotFound\]: nope\.py is not in the workspace/m);
  t.notRegex(`${read.screen}${ran.screen}${edit.screen}${missing.screen}`, looksLikeJson);
  const piped = await tug(repo.root, ['tool', 'read_file', '--args', '{"path":"app.py"}']);
  t.is(piped.json.path, 'app.py', 'a program still gets the JSON result');
  await repo.cleanup();
});
