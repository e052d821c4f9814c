// inline of a Python local whose value would run after calls or attribute stores that came after it (colorama's
// `handle = _GetStdHandle(stream_id)` used three statements on, jsonschema's `cls = self.__class__` read after
// `changes.setdefault(…)`): inlined with an EvaluationOrderChanged warning naming them, as extract-variable does the
// other way round; --strict refuses. What provably changes the value stays refused: the same attribute stored
// between, an item store, a statement between that may leave before the use. The package's tests run on each result.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo, PYTEST_INI } from './helpers/repo.js';

const code = `LOG = []


def get_handle(stream_id):
    LOG.append("handle")
    return stream_id * 10


def make_size(length):
    LOG.append("size")
    return length + 1


def fill(stream_id, length):
    handle = get_handle(stream_id)
    size = make_size(length)
    for _ in range(3):
        if size:
            break
    return (handle, size)


class Validator:
    def __init__(self, schema):
        self.schema = schema
        self.values = [schema]
        self.loaded = False

    def evolve(self, changes):
        cls = self.__class__
        schema = changes.setdefault("schema", self.schema)
        return cls(schema)

    def load(self):
        values = self.values
        self.loaded = True
        return list(values)

    def reset(self):
        values = self.values
        self.values = []
        return values

    def first(self, stream_id):
        handle = get_handle(stream_id)
        if not self.values:
            return None
        return handle
`;
const tests = `from pkg.io import Validator, fill


def test_fill():
    assert fill(2, 4) == (20, 5)


def test_validator():
    v = Validator(1)
    assert v.evolve({}).schema == 1
    assert v.load() == [1] and v.loaded
    assert v.reset() == [1] and v.values == []
    assert Validator(2).first(3) == 30
`;

async function inline(at: string, ...flags: string[]) {
  const repo = await makeRepo({ 'pkg/__init__.py': '', 'pkg/io.py': code, 'tests/test_io.py': tests, ...PYTEST_INI });
  const run = await tug(repo.root, ['run', 'inline', '--at', at, '--verify', 'tests', '--json', ...flags]);
  const after = run.json?.git?.branch ? await repo.git('show', `${run.json.git.branch}:pkg/io.py`) : '';
  await repo.cleanup();
  return { run, after };
}

function orderWarnings(run: { json: any }) {
  return (run.json.warnings ?? []).filter((w: { code: string }) => w.code === 'EvaluationOrderChanged').map((w: any) => [w.details, w.location]);
}

test('a call used statements later runs after the calls between, named in the warning; a break in a loop between is no exit', async (t) => {
  const { run, after } = await inline('pkg/io.py:15:5');
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification?.status, 'passed', run.stdout);
  t.deepEqual(orderWarnings(run), [[{ calls: ['make_size(length)', 'range(3)'] }, { file: 'pkg/io.py', line: 15, col: 14 }]]);
  t.true(after.includes('            break\n    return (get_handle(stream_id), size)\n'), after);
});

test('--strict refuses the same inline', async (t) => {
  const { run } = await inline('pkg/io.py:15:5', '--strict');
  t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
  t.regex(run.json.error.message, /strict/);
});

test('an attribute read after a call between: inlined with the call named', async (t) => {
  const { run, after } = await inline('pkg/io.py:30:9');
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification?.status, 'passed', run.stdout);
  t.deepEqual(orderWarnings(run), [[{ calls: ['changes.setdefault("schema", self.schema)'] }, { file: 'pkg/io.py', line: 30, col: 15 }]]);
  t.true(after.includes('        return self.__class__(schema)\n'), after);
});

test('an attribute read after a store of another attribute: inlined with the store named', async (t) => {
  const { run, after } = await inline('pkg/io.py:35:9');
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification?.status, 'passed', run.stdout);
  t.deepEqual(orderWarnings(run), [[{ calls: ['self.loaded ='] }, { file: 'pkg/io.py', line: 35, col: 18 }]]);
  t.true(after.includes('        self.loaded = True\n        return list(self.values)\n'), after);
});

test('a store of the attribute the value reads is refused: the use would read the new value', async (t) => {
  const { run } = await inline('pkg/io.py:40:9');
  t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
  t.regex(run.json.error.message, /an assignment before a use may change it/);
});

test('a return between the call and its use is refused: the call would not run on that path', async (t) => {
  const { run } = await inline('pkg/io.py:45:9');
  t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
  t.regex(run.json.error.message, /may leave or pause before it/);
});

test('strict on a file that is not Python is InvalidArgument', async (t) => {
  const repo = await makeRepo({ 'src/lib.rs': 'pub fn f() -> i32 {\n    let x = 1;\n    x\n}\n' });
  const run = await tug(repo.root, ['run', 'inline', '--at', 'src/lib.rs:2:9', '--strict', '--json']);
  await repo.cleanup();
  t.is(run.json?.error?.code, 'InvalidArgument', run.stdout);
});

test('an attribute read past an item store into another dict and a getattr of the same object (which only reads): inlined with both named; an item read is not', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': '',
    'pkg/evolve.py': 'def evolve(obj, changes, fields):\n    cls = obj.__class__\n    for name in fields:\n        changes[name] = getattr(obj, name)\n    return cls(**changes)\n\n\ndef first(rows, out):\n    head = rows[0]\n    out[0] = 1\n    return head\n',
  });
  const run = await tug(repo.root, ['analyze-impact', 'inline', '--at', 'pkg/evolve.py:2:5', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  t.deepEqual(orderWarnings(run), [[{ calls: ['changes[name] =', 'getattr(obj, name)'] }, { file: 'pkg/evolve.py', line: 2, col: 11 }]]);
  const item = await tug(repo.root, ['analyze-impact', 'inline', '--at', 'pkg/evolve.py:9:5', '--json']);
  t.is(item.json?.error?.code, 'UnsafeRefactor', item.stdout);
  await repo.cleanup();
});

test('a value that does nothing but allowlisted reads goes into a comprehension that runs at once; other comprehensions refuse', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': '',
    'pkg/sig.py': [
      'def super_signature(signatures):',
      '    n = len(signatures[0])',
      '    assert all(len(s) == n for s in signatures)',
      '    return [signatures[0][i] for i in range(n)]',
      '',
      '',
      'def later(signatures):',
      '    n = len(signatures[0])',
      '    return (len(s) == n for s in signatures)',
      '',
      '',
      'def fresh(signatures):',
      '    seen = []',
      '    return [seen for s in signatures]',
      '',
      '',
      'def shadowed(signatures, s):',
      '    n = len(s)',
      '    return [n for s in signatures]',
      '',
      '',
      'def calls(signatures, log):',
      '    n = len(signatures[0])',
      '    return [log.append(s) or n for s in signatures]',
      '',
    ].join('\n'),
    'tests/test_sig.py': 'from pkg.sig import super_signature\n\n\ndef test_super():\n    assert super_signature([(1, 2), (3, 4)]) == [1, 2]\n',
  });
  const run = await tug(repo.root, ['run', 'inline', '--at', 'pkg/sig.py:2:5', '--verify', 'tests', '--json']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification?.status, 'passed', run.stdout);
  const after = await repo.git('show', `${run.json.git.branch}:pkg/sig.py`);
  t.true(after.includes('    assert all(len(s) == len(signatures[0]) for s in signatures)\n    return [signatures[0][i] for i in range(len(signatures[0]))]\n'), after);
  for (const [at, reason] of [
    ['pkg/sig.py:8:5', /generator expression that may run later/],
    ['pkg/sig.py:13:5', /build a new object for each item/],
    ['pkg/sig.py:18:5', /binds s itself/],
    ['pkg/sig.py:23:5', /calls something, which could change what the value reads/],
  ] as const) {
    const refused = await tug(repo.root, ['analyze-impact', 'inline', '--at', at, '--json']);
    t.is(refused.json?.error?.code, 'UnsafeRefactor', `${at}: ${refused.stdout}`);
    t.regex(refused.json.error.message, reason, at);
  }
  await repo.cleanup();
});

test('a value that calls something is refused where code before its use reads what the call may change (mock: `final = args.pop()`)', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': '',
    'pkg/conf.py': 'def configure(target, dotted, value):\n    args = dotted.split(".")\n    final = args.pop()\n    obj = target\n    for entry in args:\n        obj = getattr(obj, entry)\n    setattr(obj, final, value)\n',
  });
  const run = await tug(repo.root, ['analyze-impact', 'inline', '--at', 'pkg/conf.py:3:5', '--json']);
  await repo.cleanup();
  t.is(run.json?.error?.code, 'UnsafeRefactor', run.stdout);
  t.regex(run.json.error.message, /code before its use reads args, which that call may change/);
});
