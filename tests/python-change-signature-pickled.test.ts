// change-signature of a constructor whose class rebuilds its instances for pickle and copy (`__reduce__` returning
// `(self.__class__, (self.msg, self.doc, …))`, simplejson's JSONDecodeError): that call passes the old arguments by
// position where no edit reaches, so the project's own pickling test failed in the sweep (caught by verification).
// Now refused unless the change keeps positional calls right. Real CLI, worker, git; unittest runs in the sandbox.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

const errors = `class JSONDecodeError(ValueError):
    def __init__(self, msg, doc, pos, end=None):
        ValueError.__init__(self, '%s: %d' % (msg, pos))
        self.msg = msg
        self.doc = doc
        self.pos = pos
        self.end = end

    def __reduce__(self):
        return self.__class__, (self.msg, self.doc, self.pos, self.end)


class StrictError(JSONDecodeError):
    pass
`;
const decoder = `from pkg.errors import JSONDecodeError


def scan(doc):
    if not doc:
        raise JSONDecodeError('Expecting value', doc, 0)
    return doc
`;
const tests = `import copy
import pickle
import unittest
from pkg.decoder import scan
from pkg.errors import JSONDecodeError, StrictError


class TestErrors(unittest.TestCase):
    def test_round_trip(self):
        err = JSONDecodeError('bad', 'doc', 3)
        again = pickle.loads(pickle.dumps(err))
        self.assertEqual((again.msg, again.doc, again.pos), ('bad', 'doc', 3))
        self.assertEqual(copy.copy(StrictError('bad', 'doc', 3)).doc, 'doc')

    def test_scan(self):
        with self.assertRaises(JSONDecodeError):
            scan('')
`;
const files = { 'pkg/__init__.py': '', 'pkg/errors.py': errors, 'pkg/decoder.py': decoder, 'tests/__init__.py': '', 'tests/test_errors.py': tests };
const testCommand = JSON.stringify(['{python}', '-m', 'unittest', '-q']);

async function change(params: unknown[]) {
  const repo = await makeRepo(files);
  const run = await tug(repo.root, ['run', 'change-signature', '--at', 'pkg/errors.py:2:9', '--params', JSON.stringify(params), '--verify', 'tests', '--test-command', testCommand, '--json']);
  const after = run.json?.git?.branch ? await repo.git('show', `${run.json.git.branch}:pkg/errors.py`) : '';
  await repo.cleanup();
  return { run, after };
}

test('reordering the parameters of a constructor that __reduce__ calls is refused, naming the hook', async (t) => {
  const swap = await change([{ name: 'doc' }, { name: 'msg' }, { name: 'pos' }, { name: 'end' }]);
  t.is(swap.run.exitCode, 2, swap.run.stdout);
  t.is(swap.run.json.error.code, 'UnsupportedOperation');
  t.is(swap.run.json.error.details.reason, 'pickled constructor');
  t.regex(swap.run.json.error.message, /pkg\.errors\.JSONDecodeError\.__reduce__ rebuilds instances for pickle and copy .*it moves doc/);
  const removed = await change([{ name: 'msg' }, { name: 'doc' }, { name: 'pos' }]);
  t.regex(removed.run.json.error.message, /it removes end/);
});

test('a rename or a new parameter with a default after the old ones still fits the __reduce__ call, and the tests pass', async (t) => {
  const added = await change([{ name: 'msg' }, { name: 'doc' }, { name: 'pos' }, { name: 'end' }, { name: 'hint', default: 'None' }]);
  t.is(added.run.exitCode, 0, added.run.stdout);
  t.is(added.run.json.verification.status, 'passed');
  t.true(added.after.includes('def __init__(self, msg, doc, pos, end=None, hint=None):'), added.after);
  const renamed = await change([{ name: 'message', from: 'msg' }, { name: 'doc' }, { name: 'pos' }, { name: 'end' }]);
  t.is(renamed.run.exitCode, 0, renamed.run.stdout);
  t.true(renamed.after.includes('def __init__(self, message, doc, pos, end=None):'), renamed.after);
});
