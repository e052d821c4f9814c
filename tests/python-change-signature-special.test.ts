// change-signature of special methods other than __init__ (the largest refusal where rope succeeded in the sweep,
// docs/QUALITY.md): Python calls them from operators and protocols, so a change is made only when those calls still
// fit, and refused naming the operator otherwise. Real CLI, worker and git; the project's unittest suite runs on the
// result in tug's sandbox (--verify tests), so "ok" means the operators still work.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

// The shape of python3-lazr.uri's URI (`__ne__` calls `self.__eq__(other)`) and of simplejson's OrderedDict.
const uri = `class URI:
    def __init__(self, uri):
        self.uri = uri

    def __eq__(self, other):
        return isinstance(other, URI) and self.uri == other.uri

    def __ne__(self, other):
        equal = self.__eq__(other)
        if equal == NotImplemented:
            return NotImplemented
        return not equal

    def __hash__(self):
        return hash(self.uri)

    def __repr__(self):
        return '%s(%r)' % (self.__class__.__name__, self.uri)


class Table(dict):
    def __setitem__(self, key, value):
        dict.__setitem__(self, key, value)

    def __missing__(self, key):
        return URI(key)


class Handler:
    def __call__(self, request, strict=False):
        return (request, strict)
`;
const tests = `import unittest
from pkg.uri import URI, Table, Handler


class TestURI(unittest.TestCase):
    def test_operators(self):
        self.assertEqual(URI('a'), URI('a'))
        self.assertNotEqual(URI('a'), URI('b'))
        self.assertFalse(URI('a') != URI('a'))
        self.assertEqual(repr(URI('a')), "URI('a')")
        self.assertEqual(len({URI('a'), URI('a')}), 1)

    def test_table(self):
        t = Table()
        t['k'] = 1
        self.assertEqual(t['k'], 1)
        self.assertEqual(t['x'], URI('x'))

    def test_handler(self):
        self.assertEqual(Handler()('r', strict=True), ('r', True))
`;
const files = { 'pkg/__init__.py': '', 'pkg/uri.py': uri, 'tests/__init__.py': '', 'tests/test_uri.py': tests };
const testCommand = JSON.stringify(['{python}', '-m', 'unittest', '-q']);

async function change(at: string, params: unknown[]) {
  const repo = await makeRepo(files);
  const run = await tug(repo.root, ['run', 'change-signature', '--at', at, '--params', JSON.stringify(params), '--verify', 'tests', '--test-command', testCommand, '--json']);
  const after = run.json?.git?.branch ? await repo.git('show', `${run.json.git.branch}:pkg/uri.py`) : '';
  await repo.cleanup();
  return { run, after };
}

test('a special method gets a new parameter with a default: the operators still call it, the explicit self.__eq__(other) is kept', async (t) => {
  const { run, after } = await change('pkg/uri.py:5:9', [{ name: 'other' }, { name: 'strict', default: 'False' }]);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.status, 'ok');
  t.true(after.includes('def __eq__(self, other, strict=False):'), after);
  t.true(after.includes('equal = self.__eq__(other)'), after);
  const repr = await change('pkg/uri.py:17:9', [{ name: 'verbose', default: 'None' }]);
  t.is(repr.run.exitCode, 0, repr.run.stdout);
  t.true(repr.after.includes('def __repr__(self, verbose=None):'), repr.after);
});

test('a parameter of an operator method is renamed: Python passes it by position, and the body follows the new name', async (t) => {
  const { run, after } = await change('pkg/uri.py:25:9', [{ name: 'name', from: 'key' }]);
  t.is(run.exitCode, 0, run.stdout);
  t.true(after.includes('def __missing__(self, name):\n        return URI(name)'), after);
});

test('a change the implicit calls would no longer fit is refused, naming the operator and what the change does', async (t) => {
  const swap = await change('pkg/uri.py:22:9', [{ name: 'value' }, { name: 'key' }]);
  t.is(swap.run.exitCode, 2, swap.run.stdout);
  t.is(swap.run.json.error.code, 'UnsupportedOperation');
  t.is(swap.run.json.error.details.reason, 'special method');
  t.regex(swap.run.json.error.message, /__setitem__ is called by Python itself \(item assignments, obj\[key\] = value\).*it moves value/);
  const removed = await change('pkg/uri.py:8:9', []);
  t.regex(removed.run.json.error.message, /__ne__ is called by Python itself \(the != operator\).*it removes other/);
  const required = await change('pkg/uri.py:5:9', [{ name: 'other' }, { name: 'mode', value: '"x"' }]);
  t.regex(required.run.json.error.message, /the new parameter mode has no default/);
  const defaulted = await change('pkg/uri.py:30:9', [{ name: 'request' }, { name: 'strict', default: 'True' }]);
  t.regex(defaulted.run.json.error.message, /__call__ .*it changes the default of strict/);
  // obj(…) may pass any keyword: a rename there could break a call tug cannot see.
  const renamed = await change('pkg/uri.py:30:9', [{ name: 'req', from: 'request' }, { name: 'strict' }]);
  t.regex(renamed.run.json.error.message, /__call__ is called by Python itself \(every call of an instance, obj\(…\)\).*it renames request, which those calls may pass by name/);
  const added = await change('pkg/uri.py:30:9', [{ name: 'request' }, { name: 'strict' }, { name: 'timeout', default: 'None' }]);
  t.is(added.run.exitCode, 0, added.run.stdout);
  t.true(added.after.includes('def __call__(self, request, strict=False, timeout=None):'), added.after);
});
