// move-symbol where a module reaches the old module through a lazy import (simplejson: `from . import ordered_dict`
// inside the `except` branch of a function, a Python 2 fallback whose module cannot load on Python 3). The rewritten
// use needs the new module; importing it at the top made every import of the package load it, and fail. The new
// import now goes beside the lazy one. Real CLI, worker and git; pytest runs in the sandbox.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

const files = {
  'pkg/__init__.py': [
    '"""A JSON-ish package with a fallback for old Pythons."""',
    'from .core import dumps',
    '',
    '',
    'def _import_OrderedDict():',
    '    import collections',
    '    try:',
    '        return collections.OrderedDict',
    '    except AttributeError:',
    '        from . import ordered_dict',
    '        return ordered_dict.OrderedDict',
    '',
    '',
    'OrderedDict = _import_OrderedDict()',
    '',
    'try:',
    '    from collections import ChainMap',
    'except ImportError:',
    '    from . import ordered_dict as _fallback',
    '    ChainMap = _fallback.ChainMap',
    '',
  ].join('\n'),
  'pkg/core.py': 'def dumps(value):\n    return repr(value)\n',
  'pkg/ordered_dict.py': [
    '"""Backport for Python 2.4 (never loads on Python 3)."""',
    'from UserDict import DictMixin',
    '',
    '',
    'class OrderedDict(dict, DictMixin):',
    '    pass',
    '',
    '',
    'class ChainMap(DictMixin):',
    '    pass',
    '',
  ].join('\n'),
  'tests/test_pkg.py': 'import pkg\n\n\ndef test_dumps():\n    assert pkg.dumps(1) == "1"\n    assert pkg.OrderedDict is not None\n',
};
// The two pytest plugins a Python install often auto-loads are blocked: these tests use neither (about 0.8 CPU s a run).
const testCommand = JSON.stringify(['{python}', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-p', 'no:hypothesispytest', '-p', 'no:benchmark', 'tests']);

test('a use through a lazily imported module gets its new import beside the lazy one, and the package still imports', async (t) => {
  const repo = await makeRepo(files);
  const run = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/ordered_dict.py:5:7', '--destination', 'pkg/backport.py', '--verify', 'tests', '--test-command', testCommand, '--json']);
  t.is(run.exitCode, 0, run.stdout);
  t.is(run.json.verification.status, 'passed');
  const init = await repo.git('show', `${run.json.git.branch}:pkg/__init__.py`);
  // The new import sits in the except branch (the move's import sorting may merge it with the lazy one there).
  t.regex(init, /except AttributeError:\n {8}(from \. import backport, ordered_dict|from \. import ordered_dict\n {8}from \. import backport)\n {8}return backport\.OrderedDict\n/, init);
  t.false(/^from \. import backport/m.test(init), init);
  await repo.cleanup();
});

test('an import in a module-level except branch is lazy too: the new import stays in that branch', async (t) => {
  const repo = await makeRepo(files);
  const run = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/ordered_dict.py:9:7', '--destination', 'pkg/backport.py', '--verify', 'tests', '--test-command', testCommand, '--json']);
  t.is(run.exitCode, 0, run.stdout);
  const init = await repo.git('show', `${run.json.git.branch}:pkg/__init__.py`);
  // Sorted with the branch's other import; the point is that it stays in the branch.
  t.regex(init, /except ImportError:\n {4}from \. import backport\n {4}from \. import ordered_dict as _fallback\n {4}ChainMap = backport\.ChainMap/, init);
  t.false(/^from \. import backport|^from \.backport import/m.test(init), init);
  await repo.cleanup();
});
