// move-symbol on files that are not plain UTF-8 (issue 35): a Latin-1, UTF-16 or NUL-holding module is UnsupportedFile
// as for every other operation (it was an InternalError KeyError), and a UTF-8 file with a byte order mark moves like
// any other (it was called a syntax error), the mark staying first in its file.
import test from 'ava';
import { execa } from '../helpers/execa.js';
import { tug } from '../helpers/cli.js';
import { makeRepo } from '../helpers/repo.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const CORE = 'import json\n\n\ndef encode(value):\n    return json.dumps(value)\n\n\ndef decode(text):\n    return json.loads(text)\n';

test('a source module that is Latin-1, UTF-16 or holds a NUL byte: UnsupportedFile naming it, no branch', async (t) => {
  const latin1 = Buffer.from('# caf\xe9\ndef encode(value):\n    return value\n', 'latin1');
  const utf16 = Buffer.from(`\ufeff${'def encode(value):\n    return value\n'}`, 'utf16le');
  const nul = Buffer.concat([Buffer.from('def encode(value):\n    return value\n'), Buffer.from([0]), Buffer.from('\n')]);
  const repo = await makeRepo({ 'pkg/__init__.py': '', 'pkg/latin.py': latin1, 'pkg/wide.py': utf16, 'pkg/nul.py': nul, 'pkg/core.py': CORE });
  try {
    const branches = await repo.git('branch', '--list');
    for (const [file, at] of [['pkg/latin.py', '2:5'], ['pkg/wide.py', '1:5'], ['pkg/nul.py', '1:5']] as const) {
      const run = await tug(repo.root, ['move', '--at', `${file}:${at}`, '--destination', 'pkg.target', '--verify', 'none', '--json']);
      t.is(run.json?.error?.code, 'UnsupportedFile', `${file}: ${run.stdout}`);
      t.is(run.json.error.details.path, file);
      t.is(run.exitCode, 2);
    }
    // The destination is read too: moving into a Latin-1 module is refused the same way.
    const into = await tug(repo.root, ['move', '--at', 'pkg/core.py:4:5', '--destination', 'pkg/latin.py', '--verify', 'none', '--json']);
    t.is(into.json?.error?.code, 'UnsupportedFile', into.stdout);
    t.is(into.json.error.details.path, 'pkg/latin.py');
    t.is(await repo.git('branch', '--list'), branches);
  } finally {
    await repo.cleanup();
  }
});

test('a module with a byte order mark moves; the mark stays first, and an import added to a marked file goes after it', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': '',
    'pkg/core.py': Buffer.concat([BOM, Buffer.from(CORE)]),
    'pkg/codec.py': Buffer.concat([BOM, Buffer.from('def identity(value):\n    return value\n')]),
    'app.py': 'from pkg.core import decode, encode\n\nprint(decode(encode([1])))\n',
  });
  try {
    const run = await tug(repo.root, ['move', '--at', 'pkg/core.py:4:5', '--destination', 'pkg.codec', '--verify', 'syntax', '--apply', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    const core = await repo.read('pkg/core.py');
    const codec = await repo.read('pkg/codec.py');
    t.true(core.subarray(0, 3).equals(BOM), 'the old module keeps its mark');
    t.true(codec.subarray(0, 3).equals(BOM), 'the destination keeps its mark');
    t.is(codec.subarray(3).toString('utf8'), 'import json\n\n\ndef identity(value):\n    return value\n\n\ndef encode(value):\n    return json.dumps(value)\n');
    t.false(core.toString('utf8').includes('def encode'));
    const { stdout } = await execa('python3', ['app.py'], { cwd: repo.root });
    t.is(stdout, '[1]');
  } finally {
    await repo.cleanup();
  }
});

test('a definition on line 1 of a file with a byte order mark is found at its column as Python counts it', async (t) => {
  const repo = await makeRepo({ 'pkg/__init__.py': '', 'pkg/first.py': Buffer.concat([BOM, Buffer.from('def helper():\n    return 1\n')]) });
  try {
    const run = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'pkg/first.py:1:5', '--destination', 'pkg.second', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    t.deepEqual(run.json.patch.files_created, ['pkg/second.py']);
  } finally {
    await repo.cleanup();
  }
});

test('a Latin-1 file elsewhere that imports the moved name is left as it is and listed as unsure, not skipped in silence', async (t) => {
  const repo = await makeRepo({
    'pkg/__init__.py': '',
    'pkg/core.py': CORE,
    'legacy.py': Buffer.from('# caf\xe9\nfrom pkg.core import encode\n\nprint(encode(1))\n', 'latin1'),
  });
  try {
    const run = await tug(repo.root, ['analyze-impact', 'move-symbol', '--at', 'pkg/core.py:4:5', '--destination', 'pkg.codec', '--json']);
    t.is(run.exitCode, 0, run.stdout);
    t.deepEqual(run.json.unsure, [{ file: 'legacy.py', line: 2, col: 22, text: 'encode', reason: 'unresolved', renamed: false }]);
    t.true(run.json.warnings.some((w: { code: string }) => w.code === 'UnsureReferences'));
    t.false(run.json.patch.unified_diff.includes('legacy.py'));
  } finally {
    await repo.cleanup();
  }
});
