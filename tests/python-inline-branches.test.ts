// inline of a Python local whose value reads a name that the function assigns again: refused only when that store
// can run before a use. A store on one branch of an if cannot run before a use on another branch (simplejson's BOM
// check, where `idx += 1` sits in the if and the elif reads `ord0`; multipledispatch's supercedes, inside a while
// loop that runs the assignment again each turn). A store before a use after the if, or one that a loop begun after
// the assignment brings back round to the use, still refuses. The package's tests run on every result.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo, PYTEST_INI } from './helpers/repo.js';

const code = `def strip_bom(s, idx=0):
    if len(s) > idx:
        ord0 = ord(s[idx])
        if ord0 == 0xfeff:
            idx += 1
        elif ord0 == 0xef and s[idx:idx + 3] == "\\xef\\xbb\\xbf":
            idx += 3
    return s[idx:]


def supercedes(a, b, isvariadic):
    p1 = 0
    p2 = 0
    while p1 < len(a) and p2 < len(b):
        cur_a = a[p1]
        cur_b = b[p2]
        if not (cur_a is None or cur_b is None):
            if cur_a != cur_b:
                return False
            p1 += 1
            p2 += 1
        elif cur_a is None:
            return p2 == len(b) - 1 and cur_b is not None
        else:
            p1 += 1
    return p2 == len(b) - 1 and p1 == len(a)


def after_the_if(s, idx):
    ord0 = ord(s[idx])
    if ord0 == 1:
        idx += 1
    return ord0


def next_turn(items, k):
    first = k + 1
    for item in items:
        if item:
            print(first)
        else:
            k = item
    return k
`;
const tests = `from pkg.text import strip_bom, supercedes, after_the_if, next_turn


def test_text():
    assert strip_bom("\\ufeffabc") == "abc"
    assert strip_bom("\\xef\\xbb\\xbfabc") == "abc"
    assert strip_bom("abc") == "abc"
    assert supercedes([1, 2, None], [1, 2], None) is False
    assert supercedes([1, None], [1, 2], None) is True
    assert after_the_if("\\x01", 0) == 1
    assert next_turn([0, 1], 5) == 0
`;
const files = { 'pkg/__init__.py': '', 'pkg/text.py': code, 'tests/test_text.py': tests, ...PYTEST_INI };

async function inline(at: string) {
  const repo = await makeRepo(files);
  const run = await tug(repo.root, ['run', 'inline', '--at', at, '--verify', 'tests', '--json']);
  const after = run.json?.git?.branch ? await repo.git('show', `${run.json.git.branch}:pkg/text.py`) : '';
  await repo.cleanup();
  return { run, after };
}

test('a store in the if does not stop inlining into the elif, which runs only when the if did not', async (t) => {
  const { run, after } = await inline('pkg/text.py:3:9');
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification?.status, 'passed', run.stdout);
  t.true(after.includes('        if ord(s[idx]) == 0xfeff:\n            idx += 1\n        elif ord(s[idx]) == 0xef and'), after);
  t.false(after.includes('        ord0'), after); // the other function's own ord0 stays
});

test('inside a loop that assigns the value again each turn, stores on the other branches are no obstacle', async (t) => {
  const { run, after } = await inline('pkg/text.py:16:9');
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification?.status, 'passed', run.stdout);
  t.true(after.includes('        elif cur_a is None:\n            return p2 == len(b) - 1 and b[p2] is not None\n'), after);
  t.false(after.includes('cur_b'), after);
});

test('a store in an if before a use after the if is still refused: that use may read the new value', async (t) => {
  const { run } = await inline('pkg/text.py:30:5');
  t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
  t.regex(run.json.error.message, /idx, which the value reads, is assigned again before a use/);
});

test('a store on the other branch inside a loop begun after the assignment is still refused: the next turn reads it', async (t) => {
  const { run } = await inline('pkg/text.py:37:5');
  t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
  t.regex(run.json.error.message, /k, which the value reads, is assigned again before a use/);
});
