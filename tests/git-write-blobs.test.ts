// writeBlobs, the one batch write of a change's new file contents: exact bytes and git's own ids, one git process, and a large batch stored as one pack instead of a loose object (and a scratch file) per blob.
import test from 'ava';
import { execa } from './helpers/execa.js';
import { writeBlobs } from '../lib/git/objects.js';
import { fastImportError } from '../lib/git/write-blobs.js';
import { discoverRepo } from '../lib/git/repo.js';
import { makeRepo } from './helpers/repo.js';

const counts = async (git: (...args: string[]) => Promise<string>) => {
  const lines = (await git('count-objects', '-v')).split('\n').map((l) => l.split(': ') as [string, string]);
  const of = new Map(lines);
  return { loose: Number(of.get('count')), packed: Number(of.get('in-pack')) };
};

test('writeBlobs stores each content byte for byte under the id git hash-object gives it, in the order given', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  try {
    const contents = [
      Buffer.from('plain\n'),
      Buffer.from('no newline at the end'),
      Buffer.from('crlf\r\nlines\r\n'),
      Buffer.from([0, 1, 2, 255, 10, 0]),
      Buffer.from(''),
      Buffer.from('plain\n'),
      Buffer.from('data 3\nblob\nmark :1\n'),
    ];
    const ids = await writeBlobs(await discoverRepo(repo.root), contents);
    t.is(ids.length, contents.length);
    for (const [i, bytes] of contents.entries()) {
      await repo.write(`probe-${i}`, bytes);
      t.is(ids[i], await repo.git('hash-object', '--no-filters', `probe-${i}`), `content ${i} has git's id`);
      const back = (await execa('git', ['cat-file', 'blob', ids[i]!], { cwd: repo.root, encoding: 'buffer', stripFinalNewline: false })).stdout;
      t.deepEqual(Buffer.from(back), bytes, `content ${i} reads back as written`);
    }
    t.deepEqual(await writeBlobs(await discoverRepo(repo.root), []), []);
  } finally {
    await repo.cleanup();
  }
});

test('a batch of hundreds of blobs becomes one pack, a small one loose objects', async (t) => {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  try {
    const before = await counts(repo.git);
    const many = Array.from({ length: 300 }, (_, i) => Buffer.from(`export const v${i} = ${i};\n`));
    const ids = await writeBlobs(await discoverRepo(repo.root), many);
    t.is(new Set(ids).size, 300);
    const after = await counts(repo.git);
    t.is(after.loose, before.loose, 'no loose object per blob');
    t.is(after.packed, before.packed + 300);
    const few = await writeBlobs(await discoverRepo(repo.root), [Buffer.from('one\n'), Buffer.from('two\n')]);
    t.is(few.length, 2);
    const last = await counts(repo.git);
    t.is(last.loose, after.loose + 2, 'a small batch does not leave a pack of its own behind');
    t.is(last.packed, after.packed);
    t.is(await repo.git('fsck', '--no-dangling'), '');
  } finally {
    await repo.cleanup();
  }
});

test('fast-import failures: its out-of-space messages are DiskFull like hash-object, any other is a structured InternalError', (t) => {
  const cases: Array<[string, string, string | undefined]> = [
    ["fatal: sha1 file '.git/objects/pack/tmp_pack_abc' write error. Out of diskspace\n", 'DiskFull', 'ENOSPC'],
    ["fatal: sha1 file '.git/objects/pack/tmp_pack_abc' write error: No space left on device\n", 'DiskFull', 'ENOSPC'],
    ["fatal: sha1 file '.git/objects/pack/tmp_pack_abc' write error: Disk quota exceeded\n", 'DiskFull', 'EDQUOT'],
    ['fatal: short write to pack file\n', 'DiskFull', 'ENOSPC'],
    ['fatal: Unsupported command: bogus\nfast-import: dumping crash report to .git/fast_import_crash_1\n', 'InternalError', undefined],
  ];
  for (const [stderr, code, reason] of cases) {
    const error = fastImportError(128, stderr);
    t.is(error.code as string, code, stderr);
    t.is(error.details?.['reason'], reason);
    t.regex(String(error.details?.['command']), /^git fast-import/);
  }
  t.regex(fastImportError(128, cases[4]![0]).message, /Unsupported command: bogus/);
  t.is(fastImportError(0, '').code, 'InternalError', 'fewer ids than blobs is not taken as success');
});
