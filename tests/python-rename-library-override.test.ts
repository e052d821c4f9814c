// A member that overrides one of a standard-library base class is called by the library by its name, which no
// reference in the project shows (the sweep over real projects, docs/QUALITY.md: webencodings' x_user_defined codec).
import test from 'ava';
import { tug } from './helpers/cli.js';
import { makeRepo } from './helpers/repo.js';

// python3-webencodings: renaming `IncrementalEncoder.encode` of its x_user_defined codec said ok (the calls through
// `codec_info.incrementalencoder().encode` unsure), and the codec raised NotImplementedError from codecs' own encode.
const CODEC = [
  'import codecs',
  '',
  '',
  'class IncrementalEncoder(codecs.IncrementalEncoder):',
  '    def encode(self, input, final=False):',
  "        return codecs.charmap_encode(input, self.errors, encoding_table)[0]",
  '',
  '',
  'class IncrementalDecoder(codecs.IncrementalDecoder):',
  '    def decode(self, input, final=False):',
  "        return codecs.charmap_decode(input, self.errors, decoding_table)[0]",
  '',
  '    def table_size(self):',
  '        return len(decoding_table)',
  '',
  '',
  "decoding_table = ''.join(chr(i) for i in range(256))",
  'encoding_table = codecs.charmap_build(decoding_table)',
  '',
].join('\n');
const TESTS = 'from codec import IncrementalDecoder, IncrementalEncoder\n\n\ndef test_round_trip():\n    assert IncrementalDecoder().decode(IncrementalEncoder().encode("ab", final=True)) == "ab"\n    assert IncrementalDecoder().table_size() == 256\n';
// The two pytest plugins a Python install often auto-loads are blocked: these tests use neither (about 0.8 CPU s a run).
const PYTEST = '["{python}","-m","pytest","-q","-p","no:cacheprovider","-p","no:hypothesispytest","-p","no:benchmark"]';

test('rename of a method that overrides a standard-library base class method is refused', async (t) => {
  const repo = await makeRepo({ 'codec.py': CODEC, 'test_codec.py': TESTS });
  const run = await tug(repo.root, ['run', 'rename-symbol', '--at', 'codec.py:5:9', '--to', 'encode_text', '--verify', 'tests', '--test-command', PYTEST, '--json']);
  t.is(run.json.error?.code, 'UnsafeRefactor', run.stdout);
  t.is(run.exitCode, 4);
  t.like(run.json.error.details, { reason: 'library override', name: 'encode', base: 'codecs.IncrementalEncoder', class: 'IncrementalEncoder' });
  t.is(await repo.git('branch', '--list', 'tug/*'), '', 'nothing was committed');
  // Its parameter `final` too: codecs' callers pass it by keyword (webencodings `encode('', final=True)`).
  const final = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'codec.py:5:29', '--to', 'last', '--json']);
  t.is(final.json.error?.code, 'UnsafeRefactor', final.stdout);
  t.like(final.json.error.details, { reason: 'library override', name: 'final', base: 'codecs.IncrementalEncoder', class: 'IncrementalEncoder' });
  // A method the base does not define renames as before, and the tests pass on the result.
  const own = await tug(repo.root, ['run', 'rename-symbol', '--at', 'codec.py:13:9', '--to', 'size', '--verify', 'tests', '--test-command', PYTEST, '--json']);
  t.is(own.exitCode, 0, own.stdout);
  t.is(own.json.verification.status, 'passed');
  await repo.cleanup();
});

test('rename onto a name a standard-library or builtin base class defines is refused (the member would start overriding it)', async (t) => {
  const worker = 'import threading\n\n\nclass Poller(threading.Thread):\n    def poll_once(self):\n        return 1\n\n\nclass Counts(dict):\n    def total(self):\n        return sum(self.values())\n';
  const repo = await makeRepo({ 'poller.py': worker });
  const run = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'poller.py:5:9', '--to', 'run', '--json']);
  t.is(run.json.error?.code, 'UnsafeRefactor', run.stdout);
  t.like(run.json.error.details, { reason: 'library override', name: 'run', base: 'threading.Thread' });
  const keys = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'poller.py:10:9', '--to', 'keys', '--json']);
  t.is(keys.json.error?.code, 'UnsafeRefactor', keys.stdout);
  t.like(keys.json.error.details, { reason: 'library override', name: 'keys', base: 'builtins.dict' });
  t.regex(keys.json.error.message, /^dict defines keys/);
  const plain = await tug(repo.root, ['analyze-impact', 'rename-symbol', '--at', 'poller.py:10:9', '--to', 'grand_total', '--json']);
  t.is(plain.exitCode, 0, plain.stdout);
  await repo.cleanup();
});
