// change-signature of a function called where no edit reaches: through the mock a test replaces it with by its dotted
// path, or by the standard library whose method it overrides (the sweep over real projects, docs/QUALITY.md).
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

// python3-colorama: ansitowin32's tests patch `colorama.winterm.win32.SetConsoleMode` with a Mock and check
// `SetConsoleMode.assert_called_with(1234, ENABLE_VIRTUAL_TERMINAL_PROCESSING)`; swapping its parameters said ok
// (every call site rewritten) and the test failed: `Expected: mock(1234, 4)`, `Actual: mock(4, 1234)`.
const FILES = {
  'pkg/__init__.py': '',
  'pkg/win32.py': 'def SetConsoleMode(handle, mode):\n    return (handle, mode)\n\n\ndef GetConsoleMode(handle):\n    return 0\n',
  'pkg/winterm.py': 'from . import win32\n\n\ndef enable_vt_processing(fd):\n    mode = win32.GetConsoleMode(fd)\n    win32.SetConsoleMode(fd, mode | 4)\n    return True\n',
  'pkg/test_winterm.py': [
    'from unittest.mock import Mock, patch',
    '',
    'from pkg.winterm import enable_vt_processing',
    '',
    '',
    'def test_enable_vt_processing():',
    '    set_mode = Mock()',
    '    with patch("pkg.winterm.win32.SetConsoleMode", set_mode), patch("pkg.winterm.win32.GetConsoleMode", lambda fd: 0):',
    '        assert enable_vt_processing(1234)',
    '    set_mode.assert_called_with(1234, 4)',
    '',
  ].join('\n'),
};
// The two pytest plugins a Python install often auto-loads are blocked: these tests use neither (about 0.8 CPU s a run).
const PYTEST = '["{python}","-m","pytest","-q","-p","no:cacheprovider","-p","no:hypothesispytest","-p","no:benchmark"]';

test('change-signature refuses a reorder of a function a test patches by its dotted path; force or a compatible change proceeds', async (t) => {
  const repo = await makeRepo(FILES);
  const swap = ['run', 'change-signature', '--at', 'pkg/win32.py:1:5', '--params', '[{"name":"mode"},{"name":"handle"}]', '--verify', 'tests', '--test-command', PYTEST, '--json'];
  const run = await tug(repo.root, swap);
  t.is(run.json.error?.code, 'UnsafeRefactor', run.stdout);
  t.is(run.exitCode, 4);
  t.like(run.json.error.details, { reason: 'patched in tests', path: 'pkg/test_winterm.py', line: 8, target: 'pkg.winterm.win32.SetConsoleMode' });
  const forced = await tug(repo.root, ['analyze-impact', ...swap.slice(1, 6), '--force', '--json']);
  t.is(forced.exitCode, 0, forced.stdout);
  // A new parameter with a default fits every old call, the mock's too: it goes through and the tests pass.
  const added = await tug(repo.root, ['run', 'change-signature', '--at', 'pkg/win32.py:1:5', '--params', '[{"name":"handle"},{"name":"mode"},{"name":"flush","default":"False"}]', '--verify', 'tests', '--test-command', PYTEST, '--json']);
  t.is(added.exitCode, 0, added.stdout);
  t.is(added.json.verification.status, 'passed');
  await repo.cleanup();
});

// python3-isodate: `FixedOffset(tzinfo).utcoffset(self, dt)` with `dt` removed said ok (no call in the project passes
// it) and every datetime using the zone raised TypeError: datetime calls `tzinfo.utcoffset(dt)` itself.
test('change-signature refuses an incompatible change of a method that overrides a standard-library base method', async (t) => {
  const zone = 'from datetime import timedelta, tzinfo\n\n\nclass FixedOffset(tzinfo):\n    def __init__(self, hours=0):\n        self.offset = timedelta(hours=hours)\n\n    def utcoffset(self, dt):\n        return self.offset\n\n    def describe(self, dt):\n        return str(self.offset)\n';
  const tests = 'from datetime import datetime\n\nfrom zone import FixedOffset\n\n\ndef test_offset():\n    assert datetime(2020, 1, 1, tzinfo=FixedOffset(2)).utcoffset().seconds == 7200\n    assert FixedOffset(1).describe(None) == "1:00:00"\n';
  const repo = await makeRepo({ 'zone.py': zone, 'test_zone.py': tests });
  const run = await tug(repo.root, ['run', 'change-signature', '--at', 'zone.py:8:9', '--params', '[]', '--verify', 'tests', '--test-command', PYTEST, '--json']);
  t.is(run.json.error?.code, 'UnsafeRefactor', run.stdout);
  t.like(run.json.error.details, { reason: 'library override', base: 'datetime.tzinfo', class: 'FixedOffset' });
  // A method the base does not define changes as before, and its tests pass.
  const own = await tug(repo.root, ['run', 'change-signature', '--at', 'zone.py:11:9', '--params', '[]', '--verify', 'tests', '--test-command', PYTEST, '--json']);
  t.is(own.exitCode, 0, own.stdout);
  t.is(own.json.verification.status, 'passed');
  await repo.cleanup();
});
