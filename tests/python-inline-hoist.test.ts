// inline of a Python function whose body has statements, at a call inside a larger expression: the body goes before
// the statement and the returned value takes the call's place (multipledispatch's `if variadic_signature_matches(…):`
// and `warn(warning_text(…), AmbiguityWarning)`). The body then runs before what the statement evaluated ahead of the
// call, so that may only be constants and names nothing rebinds; every other shape is refused with its reason, and the
// package's tests run on every ok result.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo, PYTEST_INI } from './helpers/repo.js';

const rules = `def matches(types, signature):
    """Whether a call with these types may use the signature."""
    assert signature
    return all(issubclass(t, s) for t, s in zip(types, signature))


def warning_text(name, pairs):
    text = "Ambiguities in %s:" % name
    for pair in pairs:
        text += " " + "/".join(pair)
    return text
`;
const dispatch = `import warnings

from pkg.rules import matches, warning_text


def choose(types, signatures):
    for signature in signatures:
        if matches(types, signature):
            return signature
    return None


def report(label, found):
    warnings.warn(warning_text(label, sorted(found)), UserWarning)
    return len(found)
`;
const tests = `import warnings

from pkg.dispatch import choose, report


def test_choose():
    assert choose((bool,), [(str,), (int,)]) == (int,)
    assert choose((str,), [(int,)]) is None


def test_report():
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert report("f", [("b", "c"), ("a", "b")]) == 2
    assert str(seen[0].message) == "Ambiguities in f: a/b b/c"
`;

async function inline(files: Record<string, string>, at: string) {
  const repo = await makeRepo({ 'pkg/__init__.py': '', 'tests/test_pkg.py': tests, ...PYTEST_INI, ...files });
  const run = await tug(repo.root, ['run', 'inline', '--at', at, '--verify', 'tests', '--json']);
  const after = run.json?.git?.branch ? await repo.git('show', `${run.json.git.branch}:pkg/dispatch.py`) : '';
  await repo.cleanup();
  return { run, after };
}

test('a call in an if condition: the body goes before the if, the returned value into the condition', async (t) => {
  const { run, after } = await inline({ 'pkg/rules.py': rules, 'pkg/dispatch.py': dispatch }, 'pkg/rules.py:1:5');
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification?.status, 'passed', run.stdout);
  t.true(after.includes('    for signature in signatures:\n        assert signature\n        if all(issubclass(t, s) for t, s in zip(types, signature)):\n'), after);
  t.false(after.includes('matches'), after);
});

test('a call that is an argument after a module name: the body goes first, the statement gets its value', async (t) => {
  const { run, after } = await inline({ 'pkg/rules.py': rules, 'pkg/dispatch.py': dispatch }, 'pkg/rules.py:7:5');
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification?.status, 'passed', run.stdout);
  t.true(
    after.includes('    pairs = sorted(found)\n    text = "Ambiguities in %s:" % label\n    for pair in pairs:\n        text += " " + "/".join(pair)\n    warnings.warn(text, UserWarning)\n'),
    after,
  );
});

const refusals: Array<[string, string, RegExp]> = [
  ['an elif condition', '    if not types:\n        return None\n    elif matches(types, signatures[0]):\n        return signatures[0]\n', /in an elif condition/],
  ['a while condition', '    while matches(types, signatures[0]):\n        signatures = signatures[1:]\n', /not in an expression its statement evaluates exactly once/],
  ['the right of `and`', '    if types and matches(types, signatures[0]):\n        return 1\n', /evaluated conditionally/],
  ['a call before it in the statement', '    return (len(types), matches(types, signatures[0]))\n', /len\(types\) is evaluated before the call in its statement and calls something/],
  ['an attribute read before it', '    return (signatures.count, matches(types, signatures[0]))\n', /signatures.count is evaluated before the call in its statement and reads what the body/],
  ['an f-string', '    return f"{matches(types, signatures[0])}"\n', /inside an f-string/],
];
for (const [what, body, reason] of refusals) {
  test(`refused where the body cannot go first: ${what}`, async (t) => {
    const code = `from pkg.rules import matches\n\n\ndef choose(types, signatures):\n${body}`;
    const { run } = await inline({ 'pkg/rules.py': rules, 'pkg/dispatch.py': code }, 'pkg/rules.py:1:5');
    t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
    t.regex(run.json.error.message, reason);
  });
}

test('refused: a name the statement reads first that a function of the module declares global', async (t) => {
  const code = `from pkg.rules import matches\n\nlimit = 1\n\n\ndef bump():\n    global limit\n    limit += 1\n\n\ndef choose(types, signatures):\n    return (limit, matches(types, signatures[0]))\n`;
  const { run } = await inline({ 'pkg/rules.py': rules, 'pkg/dispatch.py': code }, 'pkg/rules.py:1:5');
  t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
  t.regex(run.json.error.message, /limit is read before the call in its statement and may be rebound/);
});

test('refused: two calls of the function in one statement cannot both have it to themselves', async (t) => {
  const code = `from pkg.rules import matches\n\n\ndef choose(types, signatures):\n    found = matches(types, matches(types, signatures))\n    return found\n`;
  const { run } = await inline({ 'pkg/rules.py': rules, 'pkg/dispatch.py': code }, 'pkg/rules.py:1:5');
  t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
  t.regex(run.json.error.message, /two of its calls are in one statement/);
});

const cli = `import sys


def main():
    total = 0
    for arg in sys.argv[1:]:
        total += int(arg)
    print(total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
`;
const cliTest = `import subprocess
import sys


def test_cli():
    out = subprocess.run([sys.executable, "-m", "pkg.cli", "1", "2"], capture_output=True, text=True, check=True)
    assert out.stdout == "3\\n"
`;

test('a call under `if __name__ == "__main__":` takes the body at module level, where only the script sees its names', async (t) => {
  const repo = await makeRepo({ 'pkg/__init__.py': '', 'pkg/cli.py': cli, 'tests/test_cli.py': cliTest, ...PYTEST_INI });
  const run = await tug(repo.root, ['run', 'inline', '--at', 'pkg/cli.py:4:5', '--verify', 'tests', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification?.status, 'passed', run.stdout);
  const after = await repo.git('show', `${run.json.git.branch}:pkg/cli.py`);
  t.is(after, 'import sys\n\n\nif __name__ == "__main__":\n    total = 0\n    for arg in sys.argv[1:]:\n        total += int(arg)\n    print(total)\n    sys.exit(0)');
  await repo.cleanup();
});

test('a module-level call outside that guard, or a body name the module already uses, is still refused', async (t) => {
  const bare = await makeRepo({ 'pkg/__init__.py': '', 'pkg/cli.py': cli.replace('if __name__ == "__main__":\n    sys.exit(main())\n', 'main()\n') });
  const run = await tug(bare.root, ['run', 'inline', '--at', 'pkg/cli.py:4:5', '--json']);
  await bare.cleanup();
  t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
  t.regex(run.json.error.message, /not in a function: the body's names would become module or class attributes/);
  const clash = await makeRepo({ 'pkg/__init__.py': '', 'pkg/cli.py': `${cli}\ntotal = None\n` });
  const named = await tug(clash.root, ['run', 'inline', '--at', 'pkg/cli.py:4:5', '--json']);
  await clash.cleanup();
  t.is(named.json?.error?.code, 'NameConflict', named.stdout);
});
