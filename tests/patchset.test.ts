// The PatchSet IR in memory: anchors, conflicts, ordering and byte preservation, without git or a filesystem.
import test from 'ava';
import { buildPatchSet, summarize, toEditJSON, type EditRequest, type SourceFile } from '../lib/core/patchset.js';
import { blobOid, sha256 } from '../lib/core/hash.js';
import { unifiedDiff } from '../lib/core/unified-diff.js';
import { TugError } from '../lib/core/errors.js';

function files(contents: Record<string, string | Uint8Array>): Map<string, SourceFile> {
  return new Map(
    Object.entries(contents).map(([path, content]) => {
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      return [path, { path, bytes, oid: blobOid(bytes), mode: '100644' }];
    }),
  );
}

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof TugError) return error.code;
    throw error;
  }
  return 'no error';
}

const src = files({ 'a.py': 'def f():\n    return f\n', 'b.py': 'from a import f\nf()\n' });

test('line/col and span anchors resolve to the same edit', (t) => {
  const byLine = buildPatchSet([{ file: 'a.py', line: 1, col: 5, old_text: 'f', new_text: 'g' }], src);
  const bySpan = buildPatchSet([{ file: 'a.py', span: { start: 4, end: 5 }, old_text: 'f', new_text: 'g' }], src);
  t.deepEqual(byLine.edits.map(toEditJSON), bySpan.edits.map(toEditJSON));
  t.is(Buffer.from(byLine.files[0]!.after).toString(), 'def g():\n    return f\n');
});

test('a stale anchor is AnchorMismatch with expected and actual text', (t) => {
  const error = t.throws(() => buildPatchSet([{ file: 'a.py', line: 1, col: 1, old_text: 'class', new_text: 'x' }], src), { instanceOf: TugError });
  t.is(error?.code, 'AnchorMismatch');
  t.is(error?.details?.['expected'], 'class');
  t.is(error?.details?.['actual'], 'def f');
});

test('old_hash must match the bytes too', (t) => {
  const good: EditRequest = { file: 'a.py', line: 1, col: 5, old_text: 'f', new_text: 'g', old_hash: `sha256:${sha256('f')}` };
  t.is(buildPatchSet([good], src).edits.length, 1);
  t.is(code(() => buildPatchSet([{ ...good, old_hash: sha256('x') }], src)), 'AnchorMismatch');
});

test('a context anchor finds a moved span once, and refuses when ambiguous', (t) => {
  const moved = files({ 'a.py': '# new line\ndef f():\n    return f\n' });
  const patch = buildPatchSet([{ file: 'a.py', line: 1, col: 5, old_text: 'f', new_text: 'g', context: { before: 'def ', after: '():' } }], moved);
  t.is(Buffer.from(patch.files[0]!.after).toString(), '# new line\ndef g():\n    return f\n');
  t.is(patch.edits[0]!.line, 2);
  const twice = files({ 'a.py': 'def f():\n    pass\ndef f():\n    pass\n' });
  t.is(code(() => buildPatchSet([{ file: 'a.py', span: { start: 0, end: 1 }, old_text: 'f', new_text: 'g', context: { before: 'def ' } }], twice)), 'AnchorMismatch');
});

test('overlapping edits and two insertions at one point are ConflictingEdits', (t) => {
  t.is(
    code(() =>
      buildPatchSet(
        [
          { file: 'a.py', span: { start: 0, end: 5 }, old_text: 'def f', new_text: 'x' },
          { file: 'a.py', span: { start: 4, end: 6 }, old_text: 'f(', new_text: 'y' },
        ],
        src,
      ),
    ),
    'ConflictingEdits',
  );
  t.is(
    code(() =>
      buildPatchSet(
        [
          { file: 'a.py', span: { start: 0, end: 0 }, old_text: '', new_text: '# a\n' },
          { file: 'a.py', span: { start: 0, end: 0 }, old_text: '', new_text: '# b\n' },
        ],
        src,
      ),
    ),
    'ConflictingEdits',
  );
});

test('adjacent edits and exact duplicates are fine', (t) => {
  const patch = buildPatchSet(
    [
      { file: 'a.py', span: { start: 0, end: 3 }, old_text: 'def', new_text: 'async def' },
      { file: 'a.py', span: { start: 3, end: 4 }, old_text: ' ', new_text: '  ' },
      { file: 'a.py', span: { start: 3, end: 4 }, old_text: ' ', new_text: '  ' },
    ],
    src,
  );
  t.is(patch.edits.length, 2);
  t.is(Buffer.from(patch.files[0]!.after).toString(), 'async def  f():\n    return f\n');
});

test('positions out of range, missing files and split characters are rejected', (t) => {
  t.is(code(() => buildPatchSet([{ file: 'a.py', line: 9, col: 1, old_text: 'x', new_text: 'y' }], src)), 'InvalidPosition');
  t.is(code(() => buildPatchSet([{ file: 'a.py', span: { start: 3, end: 999 }, old_text: 'x', new_text: 'y' }], src)), 'InvalidPosition');
  t.is(code(() => buildPatchSet([{ file: 'zz.py', line: 1, col: 1, old_text: 'x', new_text: 'y' }], src)), 'FileNotFound');
  t.is(code(() => buildPatchSet([{ file: 'a.py', old_text: 'x', new_text: 'y' }], src)), 'InvalidArgument');
  const utf = files({ 'u.py': 's = "é"\n' });
  t.is(code(() => buildPatchSet([{ file: 'u.py', span: { start: 6, end: 6 }, old_text: '', new_text: 'x' }], utf)), 'InvalidPosition');
});

test('columns count UTF-8 bytes', (t) => {
  const utf = files({ 'u.py': 'é = f(1)\n' });
  const patch = buildPatchSet([{ file: 'u.py', line: 1, col: 6, old_text: 'f', new_text: 'g' }], utf);
  t.is(Buffer.from(patch.files[0]!.after).toString(), 'é = g(1)\n');
});

test('CRLF line endings and a BOM survive edits byte for byte', (t) => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const content = Buffer.concat([bom, Buffer.from('def f():\r\n    return 1\r\n')]);
  const patch = buildPatchSet([{ file: 'c.py', line: 1, col: 8, old_text: 'f', new_text: 'g' }], files({ 'c.py': content }));
  const after = Buffer.from(patch.files[0]!.after);
  t.deepEqual(after.subarray(0, 3), bom);
  t.is(after.subarray(3).toString(), 'def g():\r\n    return 1\r\n');
  t.true(unifiedDiff(patch.files).includes('-\ufeffdef f():\r\n+\ufeffdef g():\r\n'));
});

test('input order does not change the result, JSON or diff', (t) => {
  const edits: EditRequest[] = [
    { file: 'b.py', line: 2, col: 1, old_text: 'f', new_text: 'g' },
    { file: 'a.py', line: 2, col: 12, old_text: 'f', new_text: 'g' },
    { file: 'b.py', line: 1, col: 15, old_text: 'f', new_text: 'g' },
    { file: 'a.py', line: 1, col: 5, old_text: 'f', new_text: 'g' },
  ];
  const forward = buildPatchSet(edits, src);
  const backward = buildPatchSet([...edits].reverse(), src);
  t.deepEqual(forward.edits.map(toEditJSON), backward.edits.map(toEditJSON));
  t.is(unifiedDiff(forward.files), unifiedDiff(backward.files));
  t.deepEqual(forward.edits.map((e) => `${e.file}:${e.start}`), ['a.py:4', 'a.py:20', 'b.py:14', 'b.py:16']);
  t.deepEqual(summarize(forward), { files_changed: 2, edits_count: 4, bytes_added: 4, bytes_removed: 4 });
});

test('the diff marks a missing final newline', (t) => {
  const patch = buildPatchSet([{ file: 'n.py', line: 1, col: 3, old_text: '1', new_text: '2' }], files({ 'n.py': 'x=1' }));
  t.is(unifiedDiff(patch.files), 'diff --git a/n.py b/n.py\n--- a/n.py\n+++ b/n.py\n@@ -1,1 +1,1 @@\n-x=1\n\\ No newline at end of file\n+x=2\n\\ No newline at end of file\n');
});
