// What a person reads after a rename on a terminal (issue 28 §2, issue 34 §5): the unsure places with file:line and
// text, warnings grouped by kind with counts and locations and the one that concerns the renamed symbol first, and a
// default verification that stayed at syntax in an untrusted repository said next to the result with the command
// that runs the tests.
import test from 'ava';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { summarize } from '../lib/cli/summary.js';
import { makeRepo } from './helpers/repo.js';
import { tugOnTerminal } from './helpers/pty.js';

// A deprecation shim (module-level __getattr__) in the package that re-exports the function, a class full of generic
// getattr/setattr, comments naming the function, a test suite, and a call on a receiver tug cannot type.
const FILES = {
  'pkg/__init__.py': "\"\"\"Header parsing, with the old name kept for a release.\"\"\"\nimport warnings\n\nfrom .core import parse_header\n\n__all__ = [\"parse_header\"]\n\n\ndef __getattr__(name):\n    # parse_headers was the name before 2.0\n    if name == \"parse_headers\":\n        warnings.warn(\"use parse_header\", DeprecationWarning, stacklevel=2)\n        return parse_header\n    raise AttributeError(name)\n",
  'pkg/core.py': "# parse_header splits one \"Name: value\" line.\ndef parse_header(line, sep=\":\"):\n    name, _, value = line.partition(sep)\n    return name.strip().lower(), value.strip()\n\n\nclass Message:\n    # Each header goes through parse_header once.\n    def __init__(self, lines):\n        self.headers = dict(parse_header(line) for line in lines)\n\n    def get(self, key, default=None):\n        return getattr(self, key, default)\n\n    def copy_from(self, other, names):\n        for name in names:\n            setattr(self, name, getattr(other, name))\n\n    def handler(self, kind):\n        # parse_header is not a handler\n        return getattr(self, \"on_\" + kind)\n\n\ndef reader(source):\n    # a reader that calls parse_header per line\n    return [parse_header(line) for line in source if line]\n\n\ndef send_all(transports, line):\n    for t in transports:\n        t.parse_header(line)\n",
  'tests/test_core.py': "from pkg.core import parse_header\n\n\ndef test_parse_header():\n    # parse_header lowercases the name\n    assert parse_header(\"A: b\") == (\"a\", \"b\")\n",
};

test('the terminal summary of a rename lists unsure places, groups warnings with the symbol\'s first, and says the tests did not run', async (t) => {
  const repo = await makeRepo(FILES);
  // A user config dir of its own: nothing there trusts this repository.
  const config = await mkdtemp(path.join(os.tmpdir(), 'tug-summary-config-'));
  const run = await tugOnTerminal(repo.root, ['rename', 'pkg/core.py:2:5', 'split_header'], { XDG_CONFIG_HOME: config, TUG_NO_DAEMON: '1' });
  t.is(run.exitCode, 0, run.screen);
  const lines = run.screen.split('\n');
  const headline = lines.findIndex((l) => l.startsWith('rename-symbol parse_header -> split_header'));
  t.true(headline >= 0, run.screen);
  t.regex(lines[headline]!, /verification passed \(syntax\), 1 unsure place\(s\) left unchanged$/);
  t.regex(lines[headline + 1]!, /^ {2}tests {3}not run: this repository is not trusted, so only syntax was checked; `tug rename pkg\/core\.py:2:5 split_header --verify tests` runs them/);
  t.regex(run.screen, /\n {4}pkg\/core\.py:31:11 {2}t\.parse_header {2}\(untyped receiver\)\n/);

  const warnings = lines.filter((l) => l.startsWith('  warning['));
  t.regex(warnings[0]!, /^ {2}warning\[DynamicReference\] pkg\/__init__\.py:9:5: __getattr__ here answers a lookup of "parse_header"/, 'the shim that concerns the symbol comes first');
  t.true(warnings.includes('  warning[DynamicReference] 3 places: getattr in this file may reach symbols by name; review it (Review manually.)'), warnings.join('\n'));
  t.true(run.screen.includes('\n    pkg/core.py:13:16  pkg/core.py:17:33  pkg/core.py:21:16\n'), run.screen);
  const comments = warnings.filter((l) => l.includes('[CommentMention]'));
  t.deepEqual(comments, ['  warning[CommentMention] 5 places: a comment mentions parse_header and was left unchanged'], 'one line for the kind, not one per comment');
  t.is(warnings.at(-1), comments[0], 'comment mentions come last');
  await repo.cleanup();
});

test('many warnings of one kind show their first locations and how many more', async (t) => {
  const warnings = Array.from({ length: 15 }, (_, i) => ({ code: 'CommentMention', message: 'a comment mentions run and was left unchanged', location: { file: 'a.py', line: i + 1, col: 3 } }));
  const text = summarize('rename', {
    operation: 'rename-symbol',
    patch: { edits: [{ file: 'a.py', old_text: 'run', new_text: 'start' }], unified_diff: '' },
    summary: { edits_count: 1, files_changed: 1 },
    verification: { status: 'passed', mode: 'syntax', checks: [] },
    warnings: [...warnings, { code: 'MirrorKeepsOldName', message: 'b.py binds run = start; the old name stays there', location: { file: 'b.py', line: 4, col: 1 } }],
    git: { branch: 'tug/rename/run-to-start', commit: '0'.repeat(40), dirty: false },
    undo_token: 'undo_0',
  });
  const lines = text.split('\n');
  t.is(lines.filter((l) => l.startsWith('  warning[')).length, 2);
  t.regex(text, /warning\[MirrorKeepsOldName\] b\.py:4:1: b\.py binds run = start[^\n]*\n {2}warning\[CommentMention\] 15 places:/);
  t.is(lines.filter((l) => l.startsWith('    a.py:')).length, 3, 'twelve locations, four a line');
  t.regex(text, /… and 3 more \(warnings in --json\)/);
  t.notRegex(text, /tests {3}not run/, 'no note without an untrusted skip');
});

test('the headline names the old and new names, not the text the language adds around one place (`a as b`)', (t) => {
  const text = summarize('rename', {
    operation: 'rename-symbol',
    patch: { edits: [{ file: 'a.ts', old_text: 'errAsync', new_text: 'errAsync as failLater' }, { file: 'a.ts', old_text: 'errAsync', new_text: 'failLater' }], unified_diff: '' },
    summary: { edits_count: 2, files_changed: 1 },
    verification: { status: 'skipped', mode: 'none', checks: [] },
    warnings: [],
    git: { branch: 'tug/rename/errasync-to-faillater', commit: '0'.repeat(40), dirty: false },
    undo_token: 'undo_0',
  });
  t.regex(text.split('\n')[0]!, /^rename-symbol errAsync -> failLater: 2 edit\(s\) in 1 file\(s\)/);
});
