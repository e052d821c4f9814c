// move-symbol of a class whose annotations name a module the old module imports only under `if TYPE_CHECKING:`
// (jsonschema's Validator protocol): the new module got no import for it and read an undefined name, which the tests
// did not notice (annotations are lazy) and pyflakes did (the sweep's one broken move). Refused now, naming the import.
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

const protocols = [
  '"""typing.Protocol classes for the package."""',
  'from __future__ import annotations',
  '',
  'from typing import TYPE_CHECKING, Protocol',
  '',
  'if TYPE_CHECKING:',
  '    import pkg',
  '',
  '',
  'class Validator(Protocol):',
  '    TYPE_CHECKER: pkg.TypeChecker',
  '',
  '    def is_valid(self, instance: object) -> bool:',
  '        ...',
  '',
  '',
  'class Plain(Protocol):',
  '    def check(self, instance: object) -> bool:',
  '        ...',
  '',
].join('\n');
const files = { 'pkg/__init__.py': 'class TypeChecker:\n    pass\n', 'pkg/protocols.py': protocols };

test('a class that reads a TYPE_CHECKING-only import is refused with the import\'s line; one that does not moves', async (t) => {
  const repo = await makeRepo(files);
  const refused = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/protocols.py:10:7', '--destination', 'pkg/validators.py', '--verify', 'syntax', '--json']);
  t.is(refused.exitCode, 4, refused.stdout);
  t.like(refused.json.error, { code: 'UnsafeRefactor', details: { reason: 'type-checking import', name: 'pkg', line: 7 } });
  const moved = await tug(repo.root, ['run', 'move-symbol', '--at', 'pkg/protocols.py:17:7', '--destination', 'pkg/validators.py', '--verify', 'syntax', '--json']);
  t.is(moved.exitCode, 0, moved.stdout);
  await repo.cleanup();
});
