// inline of a local whose value calls something, used more than once: the largest inline refusal where rope succeeded
// in the sweep (docs/QUALITY.md). tug repeats the call only when it is on a small allowlist of calls that give the same
// value each time and do nothing else (python-worker/tugworker/pure_calls.py); never a user function. The shapes are
// lazr.uri's URI.resolve and iso8601's parse_timezone; the package's tests run on the result in tug's sandbox.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo, PYTEST_INI } from './helpers/repo.js';

const uri = `import re

relative_ref_pat = re.compile(r"^(?P<authority>//[^/?#]*)?(?P<relativepart>[^?#]*)(?:\\?(?P<query>[^#]*))?$")


def resolve(base, reference):
    match = relative_ref_pat.match(reference)
    if match is None:
        raise ValueError("Invalid relative reference")
    parts = {"path": base}
    path = match.group("relativepart")
    query = match.group("query")
    if path == "":
        parts["path"] = base
    elif path.startswith("/"):
        parts["path"] = path
    else:
        parts["path"] = base.rsplit("/", 1)[0] + "/" + path
    parts["query"] = query
    return parts
`;
const zone = `import typing


def parse_timezone(matches: typing.Dict[str, str], default="UTC"):
    tz = matches.get("timezone", None)
    if tz == "Z":
        return "UTC"
    if tz is None:
        return default
    return tz


def spread(items, lookup):
    count = len(items)
    if count > 1:
        return count - 1
    return count


def grow(items):
    count = len(items)
    items.append(count)
    return count


def parse(text):
    number = int(text)
    try:
        return number * 2
    except ValueError:
        return number


def labels(names, lookup):
    label = lookup(names)
    return label + label


def widths(shape, steps):
    width = shape.width
    out = []
    for step in steps:
        out.append(width)
        shape.width = step
    return out


def has_varargs(func, signatures):
    sigs = signatures[func]
    checks = [callable(sig) for sig in sigs]
    return all(checks)
`;
const tests = `from pkg.uri import resolve
from pkg.zone import parse_timezone, spread, grow, parse, labels, widths, has_varargs


def test_resolve():
    assert resolve("/a/b", "c?x=1") == {"path": "/a/c", "query": "x=1"}
    assert resolve("/a/b", "/d") == {"path": "/d", "query": None}
    assert resolve("/a/b", "") == {"path": "/a/b", "query": None}


def test_zone():
    assert parse_timezone({"timezone": "Z"}) == "UTC"
    assert parse_timezone({}) == "UTC"
    assert parse_timezone({"timezone": "+01:00"}) == "+01:00"
    assert spread([1, 2, 3], None) == 2
    assert grow([1]) == 1
    assert parse("2") == 4
    assert labels("a", str.upper) == "AA"

    class Shape:
        width = 1
    assert widths(Shape(), [2, 3]) == [1, 1]
    assert has_varargs("f", {"f": [len, 1]}) is False
`;
const files = { 'pkg/__init__.py': '', 'pkg/uri.py': uri, 'pkg/zone.py': zone, 'tests/test_pkg.py': tests, ...PYTEST_INI };

async function inline(at: string) {
  const repo = await makeRepo(files);
  const run = await tug(repo.root, ['run', 'inline', '--at', at, '--verify', 'tests', '--json']);
  const file = at.split(':')[0]!;
  const after = run.json?.git?.branch ? await repo.git('show', `${run.json.git.branch}:${file}`) : '';
  await repo.cleanup();
  return { run, after };
}

test('a re.Match group used several times is written at each use (a match never changes)', async (t) => {
  const { run, after } = await inline('pkg/uri.py:11:5');
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.status, 'ok');
  t.false(after.includes('path = match.group'), after);
  t.true(after.includes('    if match.group("relativepart") == "":\n'), after);
  t.true(after.includes('        parts["path"] = base.rsplit("/", 1)[0] + "/" + match.group("relativepart")\n'), after);
});

test('dict.get of a parameter annotated Dict and len() of a list are repeated while nothing between may change them', async (t) => {
  const tz = await inline('pkg/zone.py:5:5');
  t.is(tz.run.exitCode, 0, tz.run.stdout);
  t.true(tz.after.includes('    if matches.get("timezone", None) is None:\n'), tz.after);
  const count = await inline('pkg/zone.py:14:5');
  t.is(count.run.exitCode, 0, count.run.stdout);
  t.true(count.after.includes('    if len(items) > 1:\n        return len(items) - 1\n    return len(items)\n'), count.after);
});

test('an allowlisted call is still refused where repeating it would change the result or catch its error; a user function always', async (t) => {
  const grown = await inline('pkg/zone.py:21:5');
  t.is(grown.run.json.error?.code, 'UnsafeRefactor', grown.run.stdout);
  t.regex(grown.run.json.error.message, /calls something that reads it, and a call before a use may change it/);
  t.is(grown.run.json.error.details.line, 22);
  const parsed = await inline('pkg/zone.py:27:5');
  t.regex(parsed.run.json.error?.message ?? '', /may raise, and a use is inside a try or with statement/);
  const user = await inline('pkg/zone.py:35:5');
  t.regex(user.run.json.error?.message ?? '', /the value calls something \(or builds a new object\) and is used 2 times/);
});

// A hole in the attribute rule found while adding the allowlist: an assignment after the use but in the same loop
// changes what the next turn reads, and was not looked at.
test('a value read inside a loop is refused when the loop assigns what it reads after the use', async (t) => {
  const { run } = await inline('pkg/zone.py:40:5');
  t.is(run.json.error?.code, 'UnsafeRefactor', run.stdout);
  t.regex(run.json.error.message, /reads an attribute or item, and an assignment before a use may change it/);
  t.is(run.json.error.details.line, 44);
});

// toolz's has_varargs: a comprehension's first iterable is read once, here, before the rest of the comprehension runs
// (it was refused as a use inside a nested scope; rope inlined it).
test('a variable used as the first iterable of a comprehension is inlined there', async (t) => {
  const { run, after } = await inline('pkg/zone.py:49:5');
  t.is(run.exitCode, 0, run.stdout);
  t.true(after.includes('    checks = [callable(sig) for sig in signatures[func]]\n'), after);
});
