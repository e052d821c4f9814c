// move-symbol of a function whose decorator registers it when its module is imported (jsonschema's
// `@_checks_drafts(...)` fills a table of format checkers). Moved to a module nothing imports, the registration was
// gone: the sweep's is_ipv4 move went red in jsonschema's tests, and is_ipv6 / is_date went green only because no test
// asked for those checkers. Refused now, unless the old module keeps importing the moved function.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

const checks = [
  '"""Format checkers, registered by a decorator as the module is imported."""',
  'import functools',
  'import ipaddress',
  '',
  'from pkg.registry import register',
  '',
  'CHECKERS = {}',
  '',
  '',
  'def _checks(name):',
  '    def wrap(func):',
  '        CHECKERS[name] = func',
  '        return func',
  '',
  '    return wrap',
  '',
  '',
  '@_checks("ipv4")',
  'def is_ipv4(instance):',
  '    return bool(ipaddress.IPv4Address(instance))',
  '',
  '',
  '@register("ipv6")',
  'def is_ipv6(instance):',
  '    return bool(ipaddress.IPv6Address(instance))',
  '',
  '',
  '@functools.lru_cache(maxsize=None)',
  'def is_host(instance):',
  '    return "." in instance',
  '',
].join('\n');
const registry = 'TABLE = {}\n\n\ndef register(name):\n    def wrap(func):\n        TABLE[name] = func\n        return func\n\n    return wrap\n';
const files = { 'pkg/__init__.py': '', 'pkg/registry.py': registry, 'pkg/checks.py': checks };
// What the package's users rely on: importing the checks module fills both tables.
const registered = '["{python}","-c","import pkg.checks, pkg.registry; assert \'ipv4\' in pkg.checks.CHECKERS; assert \'ipv6\' in pkg.registry.TABLE"]';

test('a function with a decorator defined in the project does not move to a module nothing imports', async (t) => {
  const repo = await makeRepo(files);
  try {
    const local = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/checks.py:19:5', '--destination', 'pkg/ip.py', '--verify', 'syntax', '--json']);
    t.is(local.exitCode, 4, local.stdout);
    t.like(local.json.error, { code: 'UnsafeRefactor', details: { reason: 'registering decorator', name: 'is_ipv4', line: 18, col: 2 } });
    t.regex(local.json.error.message, /decorated with `@_checks\(\.\.\.\)` \(line 18\)/);
    // The decorator lives in the old module, so keeping a re-export there would be an import cycle: no such advice.
    t.notRegex(local.json.error.message, /--keep-reexport/);
    const imported = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/checks.py:24:5', '--destination', 'pkg/ip.py', '--verify', 'syntax', '--json']);
    t.is(imported.exitCode, 4, imported.stdout);
    t.like(imported.json.error, { code: 'UnsafeRefactor', details: { reason: 'registering decorator', name: 'is_ipv6', line: 23 } });
    t.regex(imported.json.error.message, /--keep-reexport keeps pkg\.checks importing it/);
  } finally {
    await repo.cleanup();
  }
});

test('with --keep-reexport the old module imports the moved function, so its registration still happens', async (t) => {
  const repo = await makeRepo(files);
  try {
    const kept = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/checks.py:24:5', '--destination', 'pkg/ip.py', '--keep-reexport', '--verify', 'tests', '--test-command', registered, '--json']);
    t.is(kept.exitCode, 0, kept.stdout);
    t.true(kept.json.patch.unified_diff.includes('+from pkg.ip import is_ipv6'), kept.json.patch.unified_diff);
  } finally {
    await repo.cleanup();
  }
});

test('a function whose decorator only wraps it (functools, contextlib, …) moves as before', async (t) => {
  const repo = await makeRepo(files);
  try {
    const moved = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/checks.py:29:5', '--destination', 'pkg/hosts.py', '--verify', 'tests', '--test-command', registered, '--json']);
    t.is(moved.exitCode, 0, moved.stdout);
    t.true(moved.json.patch.unified_diff.includes('+@functools.lru_cache(maxsize=None)'), moved.json.patch.unified_diff);
  } finally {
    await repo.cleanup();
  }
});

// The same loss through a class statement: a base class in the project whose __init_subclass__ (or metaclass) adds
// every subclass to a table, directly or through an intermediate base.
const plugins = 'class Plugin:\n    registry = []\n\n    def __init_subclass__(cls, **kwargs):\n        super().__init_subclass__(**kwargs)\n        Plugin.registry.append(cls.__name__)\n\n\nclass Registering(type):\n    seen = []\n\n    def __init__(cls, name, bases, namespace):\n        super().__init__(name, bases, namespace)\n        Registering.seen.append(name)\n';
const formats = [
  'import abc',
  '',
  'from pkg.plugins import Plugin, Registering',
  '',
  '',
  'class TextPlugin(Plugin):',
  '    pass',
  '',
  '',
  'class Tagged(metaclass=Registering):',
  '    pass',
  '',
  '',
  'class Shape(metaclass=abc.ABCMeta):',
  '    pass',
  '',
].join('\n');
const json = 'from pkg.formats import TextPlugin\n\n\nclass JSONPlugin(TextPlugin):\n    pass\n';

test('a class whose base (in the project) registers its subclasses does not move to a module nothing imports', async (t) => {
  const repo = await makeRepo({ 'pkg/__init__.py': '', 'pkg/plugins.py': plugins, 'pkg/formats.py': formats, 'pkg/json.py': json });
  try {
    const direct = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/formats.py:6:7', '--destination', 'pkg/text.py', '--verify', 'syntax', '--json']);
    t.is(direct.exitCode, 4, direct.stdout);
    t.like(direct.json.error, { code: 'UnsafeRefactor', details: { reason: 'registering base class', name: 'TextPlugin', line: 6, col: 18 } });
    const inherited = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/json.py:4:7', '--destination', 'pkg/text.py', '--verify', 'syntax', '--json']);
    t.like(inherited.json.error, { code: 'UnsafeRefactor', details: { reason: 'registering base class', name: 'JSONPlugin' } });
    const meta = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/formats.py:10:7', '--destination', 'pkg/text.py', '--verify', 'syntax', '--json']);
    t.like(meta.json.error, { code: 'UnsafeRefactor', details: { reason: 'registering base class', name: 'Tagged', line: 10 } });
    const abstract = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/formats.py:14:7', '--destination', 'pkg/shapes.py', '--verify', 'syntax', '--json']);
    t.is(abstract.exitCode, 0, abstract.stdout);
  } finally {
    await repo.cleanup();
  }
});
