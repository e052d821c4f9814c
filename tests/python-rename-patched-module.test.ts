// Rename of a module constant that code reads through a module a test replaces with a mock, and the test reads the
// mock's attribute by the old name: no edit ties the two (the sweep over real projects, docs/QUALITY.md: colorama).
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

// python3-colorama: winterm reads `win32.STDOUT`; its tests `@patch('colorama.winterm.win32')` and compare the calls
// with `mockWin32.STDOUT` (unsure: a mock). Renaming STDOUT said ok and the comparison failed (two mock attributes).
test('rename of a constant read through a module a test mocks, whose mock the test reads by the old name, is refused', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': '',
    'pkg/win32.py': 'STDOUT = -11\nSTDERR = -12\n\n\ndef set_attr(handle, attrs):\n    return (handle, attrs)\n',
    'pkg/winterm.py': 'from . import win32\n\n\ndef set_console(attrs, on_stderr=False):\n    handle = win32.STDERR if on_stderr else win32.STDOUT\n    return win32.set_attr(handle, attrs)\n',
    'pkg/test_winterm.py': "from unittest.mock import patch\n\nfrom pkg.winterm import set_console\n\n\n@patch('pkg.winterm.win32')\ndef test_on_stdout(mock_win32):\n    set_console(7)\n    mock_win32.set_attr.assert_called_once_with(mock_win32.STDOUT, 7)\n",
  });
  const run = await tug(repo.root, ['run', 'rename-symbol', '--at', 'pkg/win32.py:1:1', '--to', 'STD_OUTPUT', '--verify', 'tests', '--test-command', '["{python}","-m","pytest","-q","-p","no:cacheprovider","-p","no:hypothesispytest","-p","no:benchmark"]', '--json']);
  t.is(run.json.error?.code, 'UnsafeRefactor', run.stdout);
  t.is(run.exitCode, 4);
  t.like(run.json.error.details, { reason: 'module patched in tests', path: 'pkg/winterm.py', line: 5, col: 45, target: 'pkg.winterm.win32' });
  // STDERR, which the test never reads from the mock, renames as before and the tests pass.
  const other = await tug(repo.root, ['run', 'rename-symbol', '--at', 'pkg/win32.py:2:1', '--to', 'STD_ERROR', '--verify', 'tests', '--test-command', '["{python}","-m","pytest","-q","-p","no:cacheprovider","-p","no:hypothesispytest","-p","no:benchmark"]', '--json']);
  t.is(other.exitCode, 0, other.stdout);
  t.is(other.json.verification.status, 'passed');
  await repo.cleanup();
});
