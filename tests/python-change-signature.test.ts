// Python change-signature on a src-layout package through the real CLI, worker and git: each ok case runs the
// package's own tests in the sandbox; refusals name their code. The analysis reads only the files that mention the function.
import test from 'ava';
import { checkOpCase, opManifest } from './helpers/op-cases.js';
import { tug } from './helpers/cli.js';
import { fixtureRepo } from './helpers/rename-cases.js';
import { makeRepo } from './helpers/repo.js';

const manifest = await opManifest('change_signature.json');

for (const c of manifest.cases) test(`python ${c.name}`, (t) => checkOpCase(t, manifest.workspace, c, 'python-change-signature', [], { warnings: true }));


test('change-signature and inline read only the files that mention the function (and what those import); the goldens above were made from whole loads', async (t) => {
  const repo = await fixtureRepo('python', 'change_signature/shop');
  // A file that does not parse and does not mention the function: a load of every file would have to skip it.
  await repo.write('src/shop/broken.py', 'def (:\n');
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', 'a broken module');
  const env = { TUG_DAEMON_AUTOSTART: '0', TUG_TIMINGS: '1' };
  const params = JSON.stringify([{ name: 'amount' }, { name: 'rounding', default: '2' }, { name: 'rate', default: '0.2' }]);
  const run = await tug(repo.root, ['analyze-impact', 'change-signature', '--at', 'src/shop/prices.py:4:5', '--params', params, '--json'], { env });
  t.is(run.exitCode, 0, run.stdout);
  const loaded = run.stderr.split('\n').find((l) => / files loaded /.test(l));
  const [, read, total] = / (\d+) of (\d+) files loaded/.exec(loaded ?? '') ?? [];
  t.true(Number(read) < Number(total), loaded);
  t.false(JSON.stringify(run.json.warnings).includes('broken.py'), 'the broken module was never parsed');
  const inline = await tug(repo.root, ['analyze-impact', 'inline', '--at', 'src/shop/prices.py:4:5', '--json'], { env });
  t.true(inline.stderr.split('\n').some((l) => / \d+ of \d+ files loaded /.test(l)), inline.stderr);
  t.not(inline.json.error?.code, 'InternalError', inline.stdout);
});

// Doctest examples and docs code blocks call the function too. Found on Debian's python3-wadllib, whose tests are the
// doctests of docs/index.rst: reversing get_method's parameters said ok with nothing unsure, and the docs'
// `service_root.get_method('get')` then passed 'get' as the other parameter.
const reverse = JSON.stringify([{ name: 'media_type' }, { name: 'http_method' }]);
// connect() looks its class up at run time: what it returns is unknown to tug.
const service = 'class Service:\n    def get_method(self, http_method, media_type):\n        return (http_method, media_type)\n\n\n_KINDS = {"svc": Service}\n\n\ndef connect():\n    return _KINDS["svc"]()\n';

async function changeSignature(files: Record<string, string>, at: string, params: string, extra: string[] = []) {
  const repo = await makeRepo(files);
  const run = await tug(repo.root, ['run', 'change-signature', '--at', at, '--params', params, '--verify', 'syntax', '--json', ...extra]);
  // The result branch's file (git's output loses the last newline, which every file here has).
  const show = async (file: string) => (run.json?.git?.branch ? `${await repo.git('show', `${run.json.git.branch}:${file}`)}\n` : '');
  return { repo, run, show };
}

test('a call in a docstring example is rewritten as in code, with the prompts kept', async (t) => {
  const doc = '"""Services.\n\n>>> Service().get_method(\'GET\', \'text/plain\')\n(\'GET\', \'text/plain\')\n>>> Service().get_method(\n...     \'GET\',\n...     \'text/plain\',\n... )\n(\'GET\', \'text/plain\')\n"""\n';
  const { repo, run, show } = await changeSignature({ 'svc.py': doc + service }, 'svc.py:12:9', reverse);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.status, 'ok');
  t.true((await show('svc.py')).startsWith('"""Services.\n\n>>> Service().get_method(\'text/plain\', \'GET\')\n(\'GET\', \'text/plain\')\n>>> Service().get_method(\n...     \'text/plain\',\n...     \'GET\',\n... )\n'));
  t.deepEqual(run.json.warnings, []);
  await repo.cleanup();
});

test('a .rst example calling the method through an untyped receiver is listed as unsure; a typed one is rewritten', async (t) => {
  const guide = 'Usage\n\n   >>> from svc import Service, connect\n   >>> service_root = connect()\n   >>> service_root.get_method(\'get\')\n   Traceback ...\n   >>> Service().get_method(\'get\',\n   ...                      \'text/plain\')\n   (\'get\', \'text/plain\')\n';
  const { repo, run, show } = await changeSignature({ 'svc.py': service, 'docs/index.rst': guide }, 'svc.py:2:9', reverse);
  t.is(run.exitCode, 0, run.stdout);
  const unsure = (run.json.unsure ?? []).map((u: { file: string; line: number; col: number; text: string; reason: string }) => `${u.file}:${u.line}:${u.col} ${u.text} ${u.reason}`);
  t.deepEqual(unsure, ['docs/index.rst:5:21 service_root.get_method untyped_receiver']);
  t.deepEqual(run.json.warnings.map((w: { code: string }) => w.code), ['UnsureCallSites'], 'the result says a place was left');
  t.is(await show('docs/index.rst'), guide.replace("get_method('get',\n   ...                      'text/plain')", "get_method('text/plain',\n   ...                      'get')"));
  await repo.cleanup();
});

test('a keyword call in a Markdown example and a call in a code block follow a renamed parameter', async (t) => {
  const readme = '# Use\n\n```python\n>>> from svc import lookup\n>>> lookup(b=3, a=1)\n(1, 3)\n```\n\nOr:\n\n```python\nimport svc\nsvc.lookup(a=1)\n```\n';
  const rst = 'Code\n\n.. code-block:: python\n\n    from svc import lookup\n    lookup(\n        2,\n        b=4,\n    )\n';
  const lookup = 'def lookup(a, b=2):\n    return (a, b)\n';
  const { repo, run, show } = await changeSignature({ 'svc.py': lookup, 'README.md': readme, 'docs/code.rst': rst }, 'svc.py:1:5', JSON.stringify([{ name: 'first', from: 'a' }, { name: 'b', default: '2' }]));
  t.is(run.exitCode, 0, run.stdout);
  t.is(await show('README.md'), readme.replace('lookup(b=3, a=1)', 'lookup(first=1, b=3)').replace('svc.lookup(a=1)', 'svc.lookup(first=1)'));
  t.is(await show('docs/code.rst'), rst, 'positional arguments stay as they are');
  t.deepEqual(run.json.warnings, []);
  t.regex(run.json.git.branch, /signature-lookup/);
  await repo.cleanup();
});

test('examples that do not parse give DoctestSkipped, and refusals in examples name the docs file', async (t) => {
  const broken = await changeSignature({ 'svc.py': service, 'docs/index.rst': '   >>> from svc import Service\n   >>> Service().get_method(\'get\',\n' }, 'svc.py:2:9', reverse);
  t.is(broken.run.exitCode, 0, broken.run.stdout);
  t.deepEqual(broken.run.json.warnings.map((w: { code: string; location?: { file: string } }) => `${w.code} ${w.location?.file}`), ['DoctestSkipped docs/index.rst']);
  await broken.repo.cleanup();
  const effects = await changeSignature({ 'svc.py': service, 'docs/index.rst': '   >>> from svc import Service\n   >>> Service().get_method(input(), print())\n' }, 'svc.py:2:9', reverse);
  t.is(effects.run.json.error?.code, 'UnsafeRefactor', effects.run.stdout);
  t.deepEqual(effects.run.json.error?.location, { file: 'docs/index.rst', line: 2, col: 18 });
  await effects.repo.cleanup();
});

// Found on Debian's python3-webencodings and python3-jsonschema: `assert_raises(LookupError, decode, b'…', 'x')` and
// `{"unevaluatedProperties": _validators.unevaluatedProperties}` call the function through a value; a swap said ok
// (with them unsure) and the tests failed. Refused unless force, which lists them.
test('the function used as a value (wrapped, stored) refuses a change old calls no longer fit, unless force (then unsure); appending a defaulted parameter keeps them right', async (t) => {
  const files = {
    'seqs.py': 'def take(n, seq):\n    return list(seq)[:n]\n',
    // toolz.curried's way: a wrapper of the function, called positionally elsewhere.
    'curried.py': 'import functools\n\nimport seqs\n\n\ndef curry(f):\n    return lambda *a: functools.partial(f, *a)\n\n\ntake = curry(seqs.take)\nHANDLERS = {"take": seqs.take}\n',
  };
  const { run: refused, repo: first } = await changeSignature(files, 'seqs.py:1:5', JSON.stringify([{ name: 'seq' }, { name: 'n' }]));
  t.is(refused.json.error?.code, 'UnsafeRefactor', refused.stdout);
  t.is(refused.json.error?.details?.reason, 'value use');
  t.deepEqual(refused.json.error?.location, { file: 'curried.py', line: 10, col: 19 });
  t.false((await first.git('branch', '--list')).includes('tug/'), 'nothing was committed');
  await first.cleanup();
  const { run: reordered, repo } = await changeSignature(files, 'seqs.py:1:5', JSON.stringify([{ name: 'seq' }, { name: 'n' }]), ['--force']);
  t.is(reordered.exitCode, 0, reordered.stdout);
  t.deepEqual(
    reordered.json.unsure.map((u: { file: string; line: number; reason: string }) => `${u.file}:${u.line} ${u.reason}`),
    ['curried.py:10 value_use', 'curried.py:11 value_use'],
  );
  const { run: appended, repo: again } = await changeSignature(files, 'seqs.py:1:5', JSON.stringify([{ name: 'n' }, { name: 'seq' }, { name: 'step', default: '1' }]));
  t.is(appended.exitCode, 0, appended.stdout);
  t.is(appended.json.unsure, undefined, 'calls through the values still fit');
  t.true(appended.json.warnings.some((w: { code: string }) => w.code === 'ReferenceNotCall'));
  await repo.cleanup();
  await again.cleanup();
});

// Found on a real project: refused over "the evaluation order of a lambda", but creating a lambda runs nothing.
test('change-signature reorders a lambda argument past a call: creating a lambda has no effect to reorder', async (t) => {
  const code = [
    'def compute_delay():',
    '    return 5',
    '',
    '',
    'def schedule(callback, delay, name):',
    '    return (name, delay, callback())',
    '',
    '',
    'def start():',
    '    return schedule(lambda: "tick", compute_delay(), "timer")',
    '',
  ].join('\n');
  const params = JSON.stringify([{ name: 'name' }, { name: 'delay' }, { name: 'callback' }]);
  const { repo, run, show } = await changeSignature({ 'timers.py': code }, 'timers.py:5:5', params);
  t.is(run.exitCode, 0, run.stdout);
  t.true((await show('timers.py')).includes('    return schedule("timer", compute_delay(), lambda: "tick")\n'));
  await repo.cleanup();
  // A lambda whose default calls something does run that call where it stands.
  const effect = await changeSignature({ 'timers.py': code.replace('lambda: "tick"', 'lambda d=compute_delay(): d') }, 'timers.py:5:5', params);
  t.is(effect.run.json?.error?.code, 'UnsafeRefactor', effect.run.stdout);
  t.is(effect.run.json.error.details.reason, 'evaluation order');
  await effect.repo.cleanup();
});

// multipledispatch's tests call `ambiguous([A], [B])`: swapping its parameters was refused over the evaluation order
// of two lists of names, but building a list, tuple or set of names and literals runs nothing.
test('change-signature swaps list displays of names: building them has no effect to reorder; a list holding a call still does', async (t) => {
  const code = 'def ambiguous(a, b):\n    return len(a) > len(b)\n\n\ndef check(A, B):\n    return ambiguous([A, B], (B,)), ambiguous({"k": A}, {B})\n';
  const params = JSON.stringify([{ name: 'b' }, { name: 'a' }]);
  const { repo, run, show } = await changeSignature({ 'conflict.py': code }, 'conflict.py:1:5', params);
  t.is(run.exitCode, 0, run.stdout);
  t.true((await show('conflict.py')).includes('    return ambiguous((B,), [A, B]), ambiguous({B}, {"k": A})\n'));
  await repo.cleanup();
  const effect = await changeSignature({ 'conflict.py': code.replace('[A, B], (B,)', '[len(A)], [len(B)]') }, 'conflict.py:1:5', params);
  t.is(effect.run.json?.error?.details?.reason, 'evaluation order', effect.run.stdout);
  await effect.repo.cleanup();
});

// isodate's Duration(years=-self.years, months=-self.months): its parameters reordered, the call was refused over the
// evaluation order of its keywords, which bind by name in any order and can stay as they were written.
test('keyword arguments keep their written order when putting them in the new order would reorder their effects', async (t) => {
  const code = 'class Duration:\n    def __init__(self, days=0, months=0, years=0):\n        self.days, self.months, self.years = days, months, years\n\n    def __neg__(self):\n        return Duration(self.days, years=-self.years, months=-self.months)\n';
  const params = JSON.stringify([{ name: 'years' }, { name: 'months' }, { name: 'days' }]);
  const { repo, run, show } = await changeSignature({ 'duration.py': code }, 'duration.py:2:9', params);
  t.is(run.exitCode, 0, run.stdout);
  t.true((await show('duration.py')).includes('        return Duration(days=self.days, years=-self.years, months=-self.months)\n'));
  await repo.cleanup();
});

test('a call inside an f-string gets its new argument with the other quotes when the project targets Python 3.11', async (t) => {
  const code = ['def label(name, suffix):', '    return name.title() + suffix', '', '', 'def greet(user):', '    return f"<{label(user)}>"', ''].join('\n');
  const old = ['def label(name):', '    return name.title()', '', '', 'def greet(user):', '    return f"<{label(user)}>"', ''].join('\n');
  const params = JSON.stringify([{ name: 'name' }, { name: 'suffix', value: '"!"' }]);
  const files = { 'pyproject.toml': '[project]\nname = "hello"\nversion = "0"\nrequires-python = ">=3.11"\n', 'hello.py': old };
  const { repo, run, show } = await changeSignature(files, 'hello.py:1:5', params);
  t.is(run.exitCode, 0, run.stdout);
  t.is(await show('hello.py'), code.replace('name.title() + suffix', 'name.title()').replace('label(user)', "label(user, '!')"));
  await repo.cleanup();
});

// Found by the sweep: toolz's `itemmap(reversed, D(…), **kw)` was left as it was when itemmap's first two parameters
// were swapped (tests red), and wadllib's `self.request.validate_param_values(…)` went through a property that builds
// a RequestDefinition without an annotation, so tug could not type it.
test('a call with **mapping is rewritten when the mapping can only fill parameters that keep their names; one that cannot is unsure', async (t) => {
  const dicts = 'def itemmap(func, d, factory=dict):\n    rv = factory()\n    rv.update(map(func, d.items()))\n    return rv\n\n\ndef use(kw):\n    return itemmap(reversed, dict(a=1), **kw)\n\n\ndef spread(args):\n    return itemmap(*args)\n';
  const { repo, run, show } = await changeSignature({ 'dicts.py': dicts }, 'dicts.py:1:5', JSON.stringify([{ name: 'd' }, { name: 'func' }, { name: 'factory', default: 'dict' }]));
  t.is(run.exitCode, 0, run.stdout);
  t.true((await show('dicts.py')).includes('return itemmap(dict(a=1), reversed, **kw)'), await show('dicts.py'));
  t.deepEqual((run.json.unsure ?? []).map((u: { line: number; text: string; reason: string }) => `${u.line} ${u.text} ${u.reason}`), ['12 itemmap(*…) kwargs']);
  await repo.cleanup();
  const renamed = await changeSignature({ 'dicts.py': dicts }, 'dicts.py:1:5', JSON.stringify([{ name: 'func' }, { name: 'd' }, { name: 'make', from: 'factory', default: 'dict' }]));
  t.is(renamed.run.exitCode, 0, renamed.run.stdout);
  t.true((await renamed.show('dicts.py')).includes('return itemmap(reversed, dict(a=1), **kw)'), 'the mapping may hold factory=, which is renamed: left, and listed');
  t.deepEqual((renamed.run.json.unsure ?? []).map((u: { line: number; reason: string }) => `${u.line} ${u.reason}`), ['8 kwargs', '12 kwargs']);
  await renamed.repo.cleanup();
});

test('a method reached through an unannotated property that builds the instance is rewritten', async (t) => {
  const app = 'class Request:\n    def __init__(self, tag):\n        self.tag = tag\n\n    def validate(self, params, values):\n        return (params, values)\n\n\nclass Method:\n    @property\n    def request(self):\n        return Request(self)\n\n    def check(self, values):\n        request = self.request\n        return request.validate([], values)\n';
  const { repo, run, show } = await changeSignature({ 'app.py': app }, 'app.py:5:9', JSON.stringify([{ name: 'values' }, { name: 'params' }]));
  t.is(run.exitCode, 0, run.stdout);
  t.true((await show('app.py')).includes('return request.validate(values, [])'), await show('app.py'));
  t.deepEqual(run.json.unsure ?? [], []);
  await repo.cleanup();
});

// change-signature of __init__ was refused as a special method (the largest refusal where rope succeeds in the sweep):
// its call sites are the calls of the class and of subclasses that inherit it, self.__class__(…) inside them, and
// super().__init__(…); lazr.uri's URI.__init__ with its parameters swapped is the sweep's case.
test('__init__: calls of the class, of a subclass, self.__class__(…) and super().__init__(…) follow, in files that never write __init__', async (t) => {
  const uri = 'class URI:\n    def __init__(self, uri=None, scheme=None):\n        self.uri = uri\n        self.scheme = scheme\n\n    def resolve(self, ref):\n        return self.__class__(ref)\n\n\nclass Child(URI):\n    pass\n\n\nclass Named(URI):\n    def __init__(self, uri=None, scheme=None):\n        super().__init__(uri, scheme)\n';
  const use = 'from pkg.uri import URI, Child, Named\n\n\ndef make():\n    return URI("a"), Child("b", scheme="c"), Named("d")\n';
  const { repo, run, show } = await changeSignature({ 'pkg/__init__.py': '', 'pkg/uri.py': uri, 'pkg/use.py': use }, 'pkg/uri.py:2:9', JSON.stringify([{ name: 'scheme' }, { name: 'uri' }]));
  t.is(run.exitCode, 0, run.stdout);
  t.is(await show('pkg/use.py'), use.replace('URI("a"), Child("b", scheme="c"), Named("d")', 'URI(uri="a"), Child(scheme="c", uri="b"), Named(uri="d")'));
  const after = await show('pkg/uri.py');
  t.true(after.includes('return self.__class__(uri=ref)'), after);
  t.true(after.includes('super().__init__(scheme, uri)'), after);
  t.is((after.match(/def __init__\(self, scheme=None, uri=None\)/g) ?? []).length, 2, after);
  t.deepEqual(run.json.unsure ?? [], []);
  await repo.cleanup();
  // Other special methods: tests/python-change-signature-special.test.ts.
});

// webencodings' tests call `assert_raises(LookupError, IncrementalEncoder, 'invalid')`: swapping __init__'s parameters
// said ok, and only the project's tests (run by --verify tests) saw the class called the old way there.
test('__init__ of a class passed to a call that calls it is refused like a function passed as a value; isinstance does not count', async (t) => {
  const enc = "class IncrementalEncoder:\n    def __init__(self, encoding, errors):\n        self.encoding = encoding\n        self.errors = errors\n\n\ndef assert_raises(exception, function, *args):\n    try:\n        function(*args)\n    except exception:\n        return True\n    return False\n\n\ndef check():\n    return isinstance(IncrementalEncoder('utf-8', 'strict'), IncrementalEncoder)\n";
  const swap = JSON.stringify([{ name: 'errors' }, { name: 'encoding' }]);
  const passed = await changeSignature({ 'enc.py': `${enc}\n\ndef test_invalid():\n    assert assert_raises(LookupError, IncrementalEncoder, 'invalid', 'strict')\n` }, 'enc.py:2:9', swap);
  t.is(passed.run.json?.error?.details?.reason, 'value use', passed.run.stdout);
  t.regex(passed.run.json.error.message, /passed or stored as a value at enc\.py:20:\d+ \(IncrementalEncoder\)/);
  await passed.repo.cleanup();
  const inspected = await changeSignature({ 'enc.py': enc }, 'enc.py:2:9', swap);
  t.is(inspected.run.exitCode, 0, inspected.run.stdout);
  t.true((await inspected.show('enc.py')).includes("isinstance(IncrementalEncoder('strict', 'utf-8'), IncrementalEncoder)"), await inspected.show('enc.py'));
  await inspected.repo.cleanup();
});

test('a method called through its class (Base.__init__(self, a, b)) is rewritten with self kept first, never left calling the old order', async (t) => {
  const m = 'class Base:\n    def __init__(self, a, b):\n        self.a = a\n        self.b = b\n\n\nclass Sub(Base):\n    def __init__(self, a, b):\n        Base.__init__(self, a, b)\n\n\ndef make():\n    return Sub(1, 2), Base(3, 4), Base.__init__(*make_args())\n\n\ndef make_args():\n    return (None, 1, 2)\n';
  const { repo, run, show } = await changeSignature({ 'pkg/__init__.py': '', 'pkg/m.py': m }, 'pkg/m.py:2:9', JSON.stringify([{ name: 'b' }, { name: 'a' }]));
  t.is(run.exitCode, 0, run.stdout);
  const after = await show('pkg/m.py');
  t.true(after.includes('Base.__init__(self, b, a)'), after);
  t.true(after.includes('Sub(2, 1), Base(4, 3)'), after);
  // The call that unpacks self and the rest cannot be rewritten: listed, not silently left.
  t.deepEqual((run.json.unsure ?? []).map((u: { line: number; reason: string }) => [u.line, u.reason]), [[13, 'kwargs']]);
  await repo.cleanup();
});
