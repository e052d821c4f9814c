// A soundness hole in Python inline found while widening it (issue 28): `x = a` used inside a loop that assigns `a`
// after the use was inlined, so the second turn read the new `a` where x still held the old one. The check on names
// the value reads assigned again looked only up to the last use in the text, not to the end of the loop, which runs
// the use again. Real git and the real Python worker.
import test from 'ava';
import { tug } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';

const code = `def firsts(first, items):
    seen = first
    out = []
    for item in items:
        out.append(seen)
        first = item
    return out, first


def straight(first, items):
    seen = first
    out = []
    for item in items:
        out.append(seen)
    first = len(items)
    return out, first
`;

test('a value whose name is assigned later in the loop that holds the use is refused', async (t) => {
  const repo = await makeRepo({ 'pkg/__init__.py': '', 'pkg/loops.py': code });
  try {
    const run = await tug(repo.root, ['run', 'inline', '--at', 'pkg/loops.py:2:5', '--verify', 'syntax', '--json']);
    t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
    t.regex(run.json.error.message, /first, which the value reads, is assigned again before a use/);
    t.is(run.json.error.details.line, 6);
    t.is((await repo.git('branch', '--list', 'tug/*')).trim(), '');
  } finally {
    await repo.cleanup();
  }
});

test('the same value is inlined when the name is assigned only after the loop', async (t) => {
  const repo = await makeRepo({ 'pkg/__init__.py': '', 'pkg/loops.py': code });
  try {
    const run = await tug(repo.root, ['run', 'inline', '--at', 'pkg/loops.py:11:5', '--verify', 'syntax', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    const after = await repo.git('show', `${run.json.git.branch}:pkg/loops.py`);
    t.true(after.includes('        out.append(first)\n    first = len(items)\n'), after);
  } finally {
    await repo.cleanup();
  }
});
