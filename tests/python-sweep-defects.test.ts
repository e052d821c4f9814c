// Defects the sweep over real projects (tests/sweep/, docs/QUALITY.md) found in the Python operations: each case is the
// shape of the real code, run through the real CLI, worker and git, and the result's own tests run on its branch.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { tug } from './helpers/cli.js';
import { makeRepo, type TestRepo } from './helpers/repo.js';

/** Checks the result branch out in a scratch worktree and runs `python3 -c code` there; its stdout. */
async function runOnBranch(repo: TestRepo, branch: string, code: string): Promise<{ ok: boolean; out: string }> {
  const dir = `${repo.root}/.scratch`;
  await repo.git('worktree', 'add', '-q', dir, branch);
  try {
    const run = await execa('python3', ['-I', '-c', `import sys; sys.path.insert(0, '.'); ${code}`], { cwd: dir, reject: false });
    return { ok: run.exitCode === 0, out: `${run.stdout}${run.stderr}` };
  } finally {
    await repo.git('worktree', 'remove', '--force', dir);
  }
}

// python3-lazr.uri: `lazr/uri/__init__.py` is `from lazr.uri._uri import *` and `from lazr.uri._uri import __all__`;
// moving InvalidURIError out of _uri said ok (the star import listed as unsure), and `from lazr.uri import
// InvalidURIError` failed in every test module.
test('move-symbol keeps a re-export in the old module when another module star-imports the name from it', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': 'from pkg._impl import *\nfrom pkg._impl import __all__\n',
    'pkg/_impl.py': "__all__ = ['merge', 'split']\n\n\ndef merge(a, b):\n    return a + b\n\n\ndef split(s):\n    return s.split()\n",
  });
  const run = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/_impl.py:4:5', '--destination', 'pkg.joining', '--verify', 'syntax', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.unsure, undefined, 'nothing is left for a person to check');
  t.true(run.json.warnings.some((w: { code: string; message: string }) => w.code === 'ReexportKept' && w.message.includes('pkg/__init__.py')), JSON.stringify(run.json.warnings));
  const used = await runOnBranch(repo, run.json.git.branch, "import pkg; from pkg import merge; print(merge(1, 2), 'merge' in pkg.__all__)");
  t.true(used.ok, used.out);
  t.is(used.out.trim(), '3 True');
  await repo.cleanup();
});

// python3-toolz: `toolz/__init__.py` star-imports itertoolz; a function that needs names of its old module cannot keep
// a re-export there without a cycle at import time (the partially initialised module raised AttributeError).
test('move-symbol refuses with ImportCycle when the star-imported name needs its old module', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': 'from pkg.itertools_ import *\n',
    'pkg/itertools_.py': "__all__ = ['first', 'second']\n\n\ndef first(seq):\n    return next(iter(seq))\n\n\ndef second(seq):\n    return first(list(seq)[1:])\n",
  });
  const run = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'pkg/itertools_.py:8:5', '--destination', 'pkg.moved', '--json']);
  t.is(run.json.error?.code, 'ImportCycle', run.stdout);
  t.regex(run.json.error.message, /star import/);
  await repo.cleanup();
});

// python3-jsonschema: validators.py reads `_validators.ref` in a dict and also binds a local `ref`; moving `ref` out of
// _validators left `_validators.ref` (unsure) and the package failed to import.
test('move-symbol rewrites old.NAME through the new module in a file that binds NAME to something else', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': '',
    'pkg/_checks.py': 'def ref(value):\n    return value == "$ref"\n\n\ndef other(value):\n    return value\n',
    'pkg/table.py': 'from pkg import _checks\n\nCHECKS = {"$ref": _checks.ref, "other": _checks.other}\n\n\ndef lookup(ref):\n    return CHECKS[ref]\n',
  });
  const run = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/_checks.py:1:5', '--destination', 'pkg.moved', '--verify', 'syntax', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.unsure, undefined, JSON.stringify(run.json.unsure));
  const used = await runOnBranch(repo, run.json.git.branch, 'from pkg.table import lookup; print(lookup("$ref")("$ref"))');
  t.true(used.ok, used.out);
  t.is(used.out.trim(), 'True');
  t.regex(await repo.git('show', `${run.json.git.branch}:pkg/table.py`), /from pkg import _checks, moved\n[\s\S]*"\$ref": moved\.ref/);
  await repo.cleanup();
});

// python3-lazr.uri: `URI.resolve` builds `parts = dict(scheme=self.scheme)` and calls `self.__class__(**parts)`;
// renaming `__init__`'s `scheme` said ok with that call unsure, and every resolve() raised TypeError.
// python3-simplejson: `JSONEncoder(**{name: BadBool()})` with `name = 'skipkeys'`, the same.
test('rename of a parameter that a call fills from a mapping is refused (the key is data); --include-unsure renames the rest', async (t) => {
  const uri = 'class URI:\n    def __init__(self, scheme=None, path=""):\n        self.scheme = scheme\n        self.path = path\n\n    def resolve(self, path):\n        parts = dict(scheme=self.scheme)\n        parts["path"] = path\n        return self.__class__(**parts)\n';
  const repo = await makeRepo({ 'uri.py': uri, 'use.py': 'from uri import URI\n\nprint(URI(scheme="http").resolve("/x").scheme)\n' });
  const run = await tug(repo.root, ['run', 'rename-symbol', '--at', 'uri.py:2:24', '--to', 'protocol', '--verify', 'syntax', '--json']);
  t.is(run.json.error?.code, 'UnsafeRefactor', run.stdout);
  t.is(run.json.error.details.reason, 'keywords through a mapping');
  t.deepEqual(run.json.error.location, { file: 'uri.py', line: 9, col: 33 });
  const forced = await tug(repo.root, ['run', 'rename-symbol', '--at', 'uri.py:2:24', '--to', 'protocol', '--include-unsure', '--verify', 'syntax', '--json']);
  t.is(forced.exitCode, 0, forced.stdout);
  t.deepEqual(forced.json.unsure.map((u: { line: number; reason: string; renamed: boolean }) => `${u.line} ${u.reason} ${u.renamed}`), ['9 untyped_receiver false']);
  await repo.cleanup();
});

// python3-fixtures: FakePopen.__call__ reads `locals()[param]` for each parameter name and hands the names on as keys;
// renaming `stdin` said ok (the string unsure) and the recorded call lost its `stdin`.
test('rename of a local of a function that reads its locals by name is refused', async (t) => {
  const popen = 'class FakePopen:\n    def __call__(self, args, stdin=None, stdout=None):\n        local = locals()\n        return {name: local[name] for name in ["stdin", "stdout"]}\n';
  const repo = await makeRepo({ 'popen.py': popen });
  const run = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'popen.py:2:30', '--to', 'stdin_', '--json']);
  t.is(run.json.error?.code, 'UnsafeRefactor', run.stdout);
  t.is(run.json.error.details.reason, 'read through locals()');
  t.deepEqual(run.json.error.location, { file: 'popen.py', line: 4, col: 49 });
  // A local the function never spells as a string renames as before.
  const other = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'popen.py:2:24', '--to', 'argv', '--json']);
  t.is(other.exitCode, 0, other.stdout);
  await repo.cleanup();
});

/** Runs extract-function with --verify tests (the repository's own pytest) and returns the result branch's file. */
async function extractFunction(files: Record<string, string>, range: string, name: string) {
  const repo = await makeRepo(files);
  const run = await tug(repo.root, ['run', 'extract-function', '--range', range, '--name', name, '--verify', 'tests', '--test-command', '["{python}","-m","pytest","-q","-p","no:cacheprovider","-p","no:hypothesispytest","-p","no:benchmark"]', '--json']);
  const file = range.split(':')[0]!;
  const text = run.json?.git?.branch ? await repo.git('show', `${run.json.git.branch}:${file}`) : '';
  return { repo, run, text };
}

// The sweep's extract-function refusals where rope gave a green result (isodate, toolz, mock): a function nested in
// another one (its closure), and a method under @property or @classmethod.
test('extract-function from a function nested in another puts the new function beside it, where the closure still reaches', async (t) => {
  const code = 'def make_parser(sep, strict):\n    count = 0\n\n    def parse(text):\n        parts = text.split(sep)\n        cleaned = [p.strip() for p in parts if p or not strict]\n        return cleaned\n\n    return parse\n';
  const tests = 'from parsers import make_parser\n\n\ndef test_parse():\n    assert make_parser(",", True)("a, b,") == ["a", "b"]\n    assert make_parser(",", False)("a,,b") == ["a", "", "b"]\n';
  const { repo, run, text } = await extractFunction({ 'parsers.py': code, 'test_parsers.py': tests }, 'parsers.py:5:9-6:64', 'split_clean');
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification.status, 'passed');
  t.true(text.includes('    def split_clean(text):\n        parts = text.split(sep)\n'), text);
  t.true(text.includes('        cleaned = split_clean(text)\n'), text);
  await repo.cleanup();
});

test('extract-function from a @property uses self as a plain method; from a @classmethod it makes a classmethod', async (t) => {
  const code = 'class Money:\n    rate = 2\n\n    def __init__(self, amount):\n        self.amount = amount\n\n    @property\n    def doubled(self):\n        value = self.amount * self.rate\n        return value\n\n    @classmethod\n    def zero(cls):\n        made = cls(0)\n        return made\n';
  const tests = 'from money import Money\n\n\ndef test_money():\n    assert Money(3).doubled == 6\n    assert Money.zero().amount == 0\n';
  const files = { 'money.py': code, 'test_money.py': tests };
  const prop = await extractFunction(files, 'money.py:9:9-9:40', 'scaled');
  t.is(prop.run.exitCode, 0, prop.run.stdout);
  t.true(prop.text.includes('        value = self.scaled()\n'), prop.text);
  await prop.repo.cleanup();
  const cls = await extractFunction(files, 'money.py:14:9-14:22', 'empty');
  t.is(cls.run.exitCode, 0, cls.run.stdout);
  t.true(cls.text.includes('    @classmethod\n    def empty(cls):\n'), cls.text);
  await cls.repo.cleanup();
});

// python3-bs4 (`bs4/element.py`, NavigableString.__new__) and mock (`_Call.__new__`), re-sweep of 2026-11-27: from
// `__new__` the new function was a plain method called as `cls.f(...)`, which does not get the class (TypeError). Python
// binds `__new__`, `__init_subclass__` and `__class_getitem__` to the class without a decorator: the new method is a
// classmethod.
test('extract-function from __new__ or __init_subclass__ makes a classmethod, which gets the class when called through cls', async (t) => {
  const code =
    'class Tag(str):\n    registry = []\n\n    def __new__(cls, name, prefix):\n        full = prefix + ":" + name if prefix else name\n        made = str.__new__(cls, full)\n        return made\n\n    def __init_subclass__(cls, **kwargs):\n        super().__init_subclass__(**kwargs)\n        cls.registry.append(cls.__name__)\n';
  const tests = 'from tags import Tag\n\n\nclass Bold(Tag):\n    pass\n\n\ndef test_tag():\n    assert Tag("b", "x") == "x:b"\n    assert Bold("i", "") == "i" and type(Bold("i", "")) is Bold\n    assert Tag.registry == ["Bold"]\n';
  const files = { 'tags.py': code, 'test_tags.py': tests };
  const made = await extractFunction(files, 'tags.py:5:9-6:38', 'build');
  t.is(made.run.exitCode, 0, made.run.stdout);
  t.is(made.run.json.verification.status, 'passed');
  t.true(made.text.includes('    @classmethod\n    def build(cls, prefix, name):\n'), made.text);
  t.true(made.text.includes('        made = cls.build(prefix, name)\n'), made.text);
  await made.repo.cleanup();
  const sub = await extractFunction(files, 'tags.py:11:9-11:42', 'register');
  t.is(sub.run.exitCode, 0, sub.run.stdout);
  t.is(sub.run.json.verification.status, 'passed');
  t.true(sub.text.includes('    @classmethod\n    def register(cls):\n'), sub.text);
  await sub.repo.cleanup();
});

// python3-toolz: `comp = compose` in toolz/__init__.py, whose `compose` comes from `from .functoolz import *`; the
// moved constant's new module had no `compose` (NameError at import).
test('move-symbol refuses code that reads a name its module gets from a star import', async (t) => {
  const repo = await makeRepo({ 'pkg/__init__.py': 'from pkg.funcs import *\n\ncomp = compose\n', 'pkg/funcs.py': 'def compose(*fs):\n    return fs\n' });
  const run = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'pkg/__init__.py:3:1', '--destination', 'pkg.moved', '--json']);
  t.is(run.json.error?.code, 'UnsafeRefactor', run.stdout);
  t.is(run.json.error.details.reason, 'name from a star import');
  await repo.cleanup();
});

// python3-toolz: `remove = toolz.curry(toolz.remove)` moved out of toolz/curried/__init__.py left the package without
// `remove` (its tests compare the package's names with toolz's).
test('move-symbol out of a package __init__ keeps the public name importable from the package', async (t) => {
  const repo = await makeRepo({ 'pkg/__init__.py': 'import operator\n\nadd = operator.add\n', 'use.py': 'import pkg\n\nprint(pkg.add(1, 2))\n' });
  const run = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/__init__.py:3:1', '--destination', 'pkg.ops', '--verify', 'syntax', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  t.true(run.json.warnings.some((w: { code: string }) => w.code === 'ReexportKept'), JSON.stringify(run.json.warnings));
  const used = await runOnBranch(repo, run.json.git.branch, 'import use');
  t.true(used.ok, used.out);
  t.is(used.out.trim(), '3');
  await repo.cleanup();
});

// python3-toolz: functoolz imports `_signatures` at its end, after its definitions, because `_signatures` imports
// functoolz back; moving `_check_sigspec` (which functoolz still calls) gave a new module importing `_signatures` first.
test('move-symbol refuses a move whose new module would import first what the old module imports late', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': '',
    'pkg/funcs.py': 'def check(f):\n    return _sigs.known(f)\n\n\ndef use(f):\n    return check(f)\n\n\nfrom pkg import _sigs  # noqa: E402 (a cycle)\n',
    'pkg/_sigs.py': 'from pkg.funcs import use\n\n\ndef known(f):\n    return f is not use\n',
  });
  const run = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'pkg/funcs.py:1:5', '--destination', 'pkg.moved', '--json']);
  t.is(run.json.error?.code, 'ImportCycle', run.stdout);
  t.regex(run.json.error.message, /only at line 9/);
  await repo.cleanup();
});

// python3-simplejson: `import simplejson as json` then `json.decoder.JSONDecoder()`: moving JSONDecoder left that
// attribute chain alone, silently (AttributeError in the tests).
test('move-symbol rewrites pkg.old.NAME reached through an import of the package', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': 'from pkg import decoder\n',
    'pkg/decoder.py': 'class Decoder:\n    def decode(self, s):\n        return s.upper()\n',
    'use.py': 'import pkg as json\n\nprint(json.decoder.Decoder().decode("a"))\n',
  });
  const run = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/decoder.py:1:7', '--destination', 'pkg.moved', '--verify', 'syntax', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  const used = await runOnBranch(repo, run.json.git.branch, 'import use');
  t.true(used.ok, used.out);
  t.is(used.out.trim(), 'A');
  await repo.cleanup();
});

// The largest extract-function refusal of the sweep ("the range contains a return", webencodings, wadllib, iso8601,
// isodate): statements that always return or raise need no code after them, wherever they stand.
test('extract-function of statements that always return, in the middle of a function, returns the call', async (t) => {
  const code = 'def parse(text, strict):\n    for part in text.split(","):\n        if part == "x":\n            value = 10\n            if strict:\n                raise ValueError(part)\n            return value\n        width = len(part)\n    return -1\n';
  const tests = 'import pytest\n\nfrom parse import parse\n\n\ndef test_parse():\n    assert parse("a,x", False) == 10\n    assert parse("a,b", True) == -1\n    with pytest.raises(ValueError):\n        parse("x", True)\n';
  const { repo, run, text } = await extractFunction({ 'parse.py': code, 'test_parse.py': tests }, 'parse.py:4:13-7:25', 'found');
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification.status, 'passed');
  t.true(text.includes('            return found(strict, part)\n        width = len(part)\n'), text);
  await repo.cleanup();
  // One that may go on past its end still cannot carry a return.
  const partial = await extractFunction({ 'parse.py': code, 'test_parse.py': tests }, 'parse.py:3:9-8:26', 'found');
  t.is(partial.run.json.error?.code, 'UnsafeRefactor', partial.run.stdout);
  await partial.repo.cleanup();
});

// python3-colorama: the tests patch `colorama.ansitowin32.winapi_test`, which AnsiToWin32 reads; once AnsiToWin32 moved,
// the patch reached only the old module's binding and the test failed. Nothing else reads it there: the patch target
// follows the code.
test('move-symbol points a patch of a global the moved code reads at the new module when nothing else reads it from the old one', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': '',
    'pkg/platform.py': 'def native():\n    return False\n',
    'pkg/stream.py': 'from pkg.platform import native\n\n\nclass Stream:\n    def __init__(self):\n        self.convert = not native()\n',
    'tests/test_stream.py': 'from unittest.mock import patch\n\nfrom pkg.stream import Stream\n\n\n@patch("pkg.stream.native", lambda: True)\ndef test_native():\n    assert not Stream().convert\n',
  });
  const run = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/stream.py:4:7', '--destination', 'pkg.moved', '--verify', 'tests', '--test-command', '["{python}","-m","pytest","-q","-p","no:cacheprovider","-p","no:hypothesispytest","-p","no:benchmark","tests"]', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification.status, 'passed');
  t.regex(await repo.git('show', `${run.json.git.branch}:tests/test_stream.py`), /@patch\("pkg\.moved\.native", lambda: True\)/);
  await repo.cleanup();
});

// python3-toolz (`get`): extracting the generator of `tuple(_get(i, seq, default) for i in ind)` left
// `return tuplesweep_v`: a generator that is a call's only argument shares the call's parentheses.
test("extract-variable of a generator that is a call's only argument keeps the call's parentheses", async (t) => {
  const code = 'def get(ind, seq):\n    return tuple(seq[i] for i in ind)\n';
  const repo = await makeRepo({ 'get.py': code });
  const run = await tug(repo.root, ['run', 'extract-variable', '--range', 'get.py:2:17-2:38', '--name', 'items', '--verify', 'syntax', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  const used = await runOnBranch(repo, run.json.git.branch, 'from get import get; print(get([0, 2], "abc"))');
  t.true(used.ok, used.out);
  t.is(used.out.trim(), "('a', 'c')");
  t.true((await repo.git('show', `${run.json.git.branch}:get.py`)).includes('    return tuple(items)'));
  await repo.cleanup();
});

// python3-simplejson (`_make_iterencode`): `_iterencode_list`, defined before the range, calls `_iterencode_dict`,
// defined in it; the extracted function kept `_iterencode_dict` to itself and encoding a nested dict raised NameError.
test('extract-function returns a name the range defines when a function nested before it reads it later', async (t) => {
  const code = 'def make(sep):\n    def encode_list(xs):\n        return "[" + sep.join(encode_item(x) for x in xs) + "]"\n\n    def encode_item(x):\n        return encode_list(x) if isinstance(x, list) else str(x)\n\n    return encode_list\n';
  const tests = 'from enc import make\n\n\ndef test_nested():\n    assert make(",")([1, [2, 3]]) == "[1,[2,3]]"\n';
  const { repo, run, text } = await extractFunction({ 'enc.py': code, 'test_enc.py': tests }, 'enc.py:5:5-6:65', 'items');
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification.status, 'passed');
  t.true(text.includes('    encode_item = items(encode_list)\n'), text);
  await repo.cleanup();
});

// The same simplejson range, up to `return _iterencode`: the call must be returned, and the nested function defined
// before it would find `_iterencode_dict` unbound; refused rather than written as `x = return f()`.
test('extract-function refuses a returning range that defines a name a function nested before it reads', async (t) => {
  const code = 'def make(sep):\n    def encode_list(xs):\n        return "[" + sep.join(encode_item(x) for x in xs) + "]"\n\n    def encode_item(x):\n        return encode_list(x) if isinstance(x, list) else str(x)\n\n    return encode_list\n';
  const { repo, run } = await extractFunction({ 'enc.py': code }, 'enc.py:5:5-8:23', 'items');
  t.is(run.json.error?.code, 'UnsafeRefactor', run.stdout);
  t.regex(run.json.error.message, /encode_item, which a function nested before the range reads/);
  await repo.cleanup();
});

// python3-iso8601: `except Exception as e: raise ParseError(e)` in parse_date; extracting the raise said ok with
// `def sweep_fn(): raise ParseError(e)`: the handler's name was not seen as bound before the range (NameError).
test('extract-function passes the name an enclosing except handler binds', async (t) => {
  const code = 'import re\n\nREGEX = re.compile(r"(\\d{4})-(\\d{2})")\n\n\nclass ParseError(ValueError):\n    pass\n\n\ndef parse_date(datestring):\n    try:\n        m = REGEX.match(datestring)\n    except Exception as e:\n        raise ParseError(e)\n    if not m:\n        raise ParseError("Unable to parse %r" % datestring)\n    return int(m.group(1)), int(m.group(2))\n';
  const tests = 'import pytest\n\nfrom dates import ParseError, parse_date\n\n\ndef test_parse():\n    assert parse_date("2020-05") == (2020, 5)\n    with pytest.raises(ParseError):\n        parse_date(None)\n';
  const { repo, run, text } = await extractFunction({ 'dates.py': code, 'test_dates.py': tests }, 'dates.py:14:9-14:28', 'raise_parse_error');
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification.status, 'passed');
  t.true(text.includes('        raise_parse_error(e)\n') && text.includes('def raise_parse_error(e):\n    raise ParseError(e)'), text);
  await repo.cleanup();
});

// python3-simplejson: in `_make_iterencode`, extracting `_encode_int`, `_iterencode_list` and `_stringify_key` into a
// function said ok, but `_iterencode_list` calls `_iterencode_dict`, bound further down: NameError once moved.
test('extract-function refuses functions in the range that read a name the enclosing function binds after it', async (t) => {
  const code = 'def make_encoder(indent):\n    def encode_int(value):\n        return str(value)\n\n    def encode_list(lst):\n        return "[" + ",".join(encode(v) for v in lst) + "]"\n\n    def encode(value):\n        if isinstance(value, list):\n            return encode_list(value)\n        return encode_int(value)\n\n    return encode\n';
  const repo = await makeRepo({ 'enc.py': code });
  const run = await tug(repo.root, ['analyze-impact', 'extract-function', '--range', 'enc.py:2:5-6:60', '--name', 'helpers', '--json']);
  t.is(run.json.error?.code, 'UnsafeRefactor', run.stdout);
  t.like(run.json.error.details, { name: 'encode', line: 6, col: 31 });
  // encode_int alone reads nothing bound later: it is extracted as before.
  const alone = await tug(repo.root, ['analyze-impact', 'extract-function', '--range', 'enc.py:2:5-3:26', '--name', 'helpers', '--json']);
  t.is(alone.exitCode, 0, alone.stdout);
  await repo.cleanup();
});

// python3-simplejson: compat.py binds BytesIO as `BytesIO = StringIO` on Python 2 and by `from io import StringIO,
// BytesIO` on 3; renaming it said ok, renamed the first only, and `from simplejson.compat import BytesIO_sw` failed.
test('rename of a module name that an import also binds, out of the rename\'s reach, is refused', async (t) => {
  const compat = 'import sys\nif sys.version_info[0] < 3:\n    from StringIO import StringIO\n    BytesIO = StringIO\nelse:\n    from io import StringIO, BytesIO\n';
  const repo = await makeRepo({ 'pkg/__init__.py': '', 'pkg/compat.py': compat, 'pkg/use.py': 'from pkg.compat import BytesIO\n\nbuf = BytesIO(b"x")\n' });
  const run = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'pkg/compat.py:4:5', '--to', 'BinaryIO', '--json']);
  t.is(run.json.error?.code, 'UnsafeRefactor', run.stdout);
  t.like(run.json.error.details, { reason: 'other binding', path: 'pkg/compat.py', line: 6, col: 30 });
  await repo.cleanup();
});

// python3-simplejson: compat.py binds `unichr = unichr` on Python 2 (the right side is Python 2's builtin) and
// `unichr = chr` on 3; the rename said ok and wrote `unichr_sw = unichr_sw`, undefined on Python 2. The tests ran on 3.
test('rename of a module name read before the module binds it (a builtin on another Python) is refused', async (t) => {
  const compat = 'import sys\nif sys.version_info[0] < 3:\n    unichr = unichr\nelse:\n    unichr = chr\n';
  const repo = await makeRepo({ 'pkg/__init__.py': '', 'pkg/compat.py': compat, 'pkg/use.py': 'from pkg.compat import unichr\n\nSNOWMAN = unichr(0x2603)\n' });
  const run = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'pkg/compat.py:5:5', '--to', 'code_point', '--json']);
  t.is(run.json.error?.code, 'UnsafeRefactor', run.stdout);
  t.like(run.json.error.details, { reason: 'read before bound', path: 'pkg/compat.py', line: 3, col: 14 });
  // The same layout whose reads all come after the module binds the name renames as before.
  await repo.write('pkg/compat.py', 'import sys\nif sys.version_info[0] < 3:\n    unichr = chr\nelse:\n    unichr = chr\nCHARS = unichr(65)\n');
  await repo.git('commit', '-qam', 'no early read');
  const fine = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'pkg/compat.py:5:5', '--to', 'code_point', '--json']);
  t.is(fine.exitCode, 0, fine.stdout);
  await repo.cleanup();
});

// python3-simplejson (`py_scanstring`): extracting `((uni - 0xd800) << 10) |` / `(uni2 - 0xdc00)` from inside the
// parentheses that held it over two lines wrote the value unbracketed over two lines (a SyntaxError tug's syntax
// check caught): the text starts and ends with a bracket, but not the same pair.
test('extract-variable of a value that runs over lines inside parentheses keeps it bracketed', async (t) => {
  const code = 'def pair(uni, uni2):\n    uni = 0x10000 + (((uni - 0xd800) << 10) |\n                     (uni2 - 0xdc00))\n    return uni\n';
  const repo = await makeRepo({ 'pair.py': code });
  const run = await tug(repo.root, ['run', 'extract-variable', '--range', 'pair.py:2:22-3:37', '--name', 'high', '--verify', 'syntax', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  const used = await runOnBranch(repo, run.json.git.branch, 'from pair import pair; print(pair(0xd801, 0xdc37))');
  t.true(used.ok, used.out);
  t.is(used.out.trim(), String(0x10000 + (((0xd801 - 0xd800) << 10) | (0xdc37 - 0xdc00))));
  t.true((await repo.git('show', `${run.json.git.branch}:pair.py`)).includes('    high = (((uni - 0xd800) << 10) |\n'));
  await repo.cleanup();
});

// Refusals where rope's result was green (python3-isodate `(((isotuple[1] == 1) and 1) or 0)`, pyflakes
// `while hasattr(n, '_pyflakes_parent')`): a literal may be named wherever it stands, since evaluating it once, early,
// or not at all cannot change anything. A call in the same places still refuses.
test('extract-variable names a literal on the right of and/or or in a while condition; a call there still refuses', async (t) => {
  const code = [
    'def sign(flag):',
    '    return ((flag == 1) and 1) or -1',
    '',
    '',
    'def root(n):',
    '    while hasattr(n, "parent"):',
    '        n = n.parent',
    '    return n',
    '',
    '',
    'def first(items):',
    '    return items and items.pop(0)',
    '',
  ].join('\n');
  const repo = await makeRepo({ 'lits.py': code });
  const minus = await tug(repo.root, ['run', 'extract-variable', '--range', 'lits.py:2:35-2:37', '--name', 'fallback', '--verify', 'syntax', '--json']);
  t.is(minus.exitCode, 0, minus.stdout);
  t.true((await repo.git('show', `${minus.json.git.branch}:lits.py`)).includes('    fallback = -1\n    return ((flag == 1) and 1) or fallback\n'));
  const used = await runOnBranch(repo, minus.json.git.branch, 'from lits import sign; print(sign(1), sign(0))');
  t.is(used.out.trim(), '1 -1', used.out);
  const loop = await tug(repo.root, ['run', 'extract-variable', '--range', 'lits.py:6:22-6:30', '--name', 'link', '--verify', 'syntax', '--json']);
  t.is(loop.exitCode, 0, loop.stdout);
  t.true((await repo.git('show', `${loop.json.git.branch}:lits.py`)).includes('    link = "parent"\n    while hasattr(n, link):\n'));
  const call = await tug(repo.root, ['run', 'extract-variable', '--range', 'lits.py:12:22-12:34', '--name', 'head', '--verify', 'syntax', '--json']);
  t.is(call.exitCode, 4, call.stdout);
  t.is(call.json.error.details.reason, 'it is on the right of and/or, which may not evaluate it');
  await repo.cleanup();
});

// python3-jsonschema (`_typed_pmap_converter`): the moved function named `"TypeChecker"` only in string annotations;
// the new module bound no TypeChecker, which pyflakes and type checkers report (the sweep's broken move). A name in a
// string annotation or in cast()'s type is read like any other now: imported where that can be, refused where the
// import would be a cycle.
test('move-symbol carries the names of string annotations, and refuses when that import is a cycle', async (t) => {
  const types = [
    'import typing',
    '',
    'from pkg.checks import Checker',
    '',
    '',
    'def convert(value: "Checker") -> typing.Mapping[str, typing.Callable[["TypeTable", typing.Any], bool]]:',
    '    return typing.cast("typing.Mapping[str, Checker]", value)',
    '',
    '',
    'def label(kind: typing.Literal["plain", "Checker"]) -> str:',
    '    return kind',
    '',
    '',
    'class TypeTable:',
    '    convert = staticmethod(convert)',
    '',
  ].join('\n');
  const repo = await makeRepo({ 'pkg/__init__.py': '', 'pkg/checks.py': 'class Checker:\n    pass\n', 'pkg/types.py': types });
  try {
    const cycle = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/types.py:6:5', '--destination', 'pkg/convert.py', '--verify', 'syntax', '--json']);
    t.is(cycle.exitCode, 4, cycle.stdout);
    t.like(cycle.json.error, { code: 'ImportCycle', details: { names: ['TypeTable'] } });
    const literal = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/types.py:10:5', '--destination', 'pkg/labels.py', '--verify', 'syntax', '--json']);
    t.is(literal.exitCode, 0, literal.stdout);
    // A Literal's strings are values, not names: nothing is imported for "Checker" there.
    t.false(literal.json.patch.unified_diff.includes('+from pkg.checks import Checker'), literal.json.patch.unified_diff);
  } finally {
    await repo.cleanup();
  }
  const plain = types.replace('["TypeTable", typing.Any]', '[typing.Any]');
  const again = await makeRepo({ 'pkg/__init__.py': '', 'pkg/checks.py': 'class Checker:\n    pass\n', 'pkg/types.py': plain });
  try {
    const moved = await tug(again.root, ['run', 'move-symbol', '--at', 'pkg/types.py:6:5', '--destination', 'pkg/convert.py', '--verify', 'syntax', '--json']);
    t.is(moved.exitCode, 0, moved.stdout);
    const created = await again.git('show', `${moved.json.git.branch}:pkg/convert.py`);
    t.true(created.includes('from pkg.checks import Checker\n'), created);
  } finally {
    await again.cleanup();
  }
});
