// doctestText reads prompts from the bytes and decodes only the lines that hold one (issue 33 step 21): its answer must
// equal the scan that decoded every line, on awkward lines and on every Python file of the interpreter's own library.
import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { doctestText, type DoctestLine, type DoctestText } from '../lib/python/doctest-text.js';

/** The scan as it was before: every line decoded and matched against the prompt pattern. */
function decodingEveryLine(file: string, bytes: Uint8Array, prefix = ''): DoctestText | null {
  const PROMPT = /^([ \t]*)(>>>|\.\.\.)( |$)/;
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!source.includes('>>>')) return null;
  const prefixBytes = Buffer.from(prefix, 'utf8');
  const parts: Buffer[] = [prefixBytes];
  const lines: DoctestLine[] = [];
  let virtual = prefixBytes.length;
  let inExample = false;
  let start = 0;
  while (start < source.length) {
    let end = source.indexOf(10, start);
    if (end === -1) end = source.length;
    const line = source.subarray(start, end).toString('utf8').replace(/\r$/, '');
    const match = PROMPT.exec(line);
    if (match && (match[2] === '>>>' || inExample)) {
      const codeStart = Buffer.byteLength(match[0]);
      const code = Buffer.from(line.slice(match[0].length), 'utf8');
      lines.push({ virtual, real: start + codeStart, length: code.length });
      parts.push(code, Buffer.from('\n'));
      virtual += code.length + 1;
      inExample = true;
    } else {
      inExample = false;
    }
    start = end + 1;
  }
  if (lines.length === 0) return null;
  return { file, text: Buffer.concat(parts).toString('utf8'), prefixLength: prefixBytes.length, lines };
}

const awkward = [
  '>>> x = 1\n... y = 2\n',
  '... not an example\n>>> a\n...\n... b\n',
  '>>>\n>>>x\n>>>>\n....\n>>> ok\n',
  '\t>>> tab\n \t ... mixed\n  >>> \r\n  ... crlf\r\n',
  '>>> a\r\r\n... b\r',
  '\ufeff>>> bom\n>>> after\n',
  '    >>> indented\n    ...     more\n\n    ... after a blank\n',
  '>>> é = "☕"\n... ü\n',
  '>>> end without newline',
  '>>> x\n\u00a0>>> nbsp\n\u3000... ideographic\n',
  '"""\n>>> f()\n1\n... not after output\n"""\n',
];

test('awkward lines: the same examples, offsets and text as decoding every line', (t) => {
  for (const text of awkward) {
    for (const prefix of ['', 'from m import (a, b)\n']) t.deepEqual(doctestText('f.py', Buffer.from(text, 'utf8'), prefix), decodingEveryLine('f.py', Buffer.from(text, 'utf8'), prefix), JSON.stringify(text));
  }
  const invalid = Buffer.concat([Buffer.from('>>> a\n'), Buffer.from([0xff, 0xfe, 0x20, 0x3e, 0x3e, 0x3e, 0x20, 0x62, 0x0a]), Buffer.from('... c \xff\n', 'latin1'), Buffer.from('>>> d\n')]);
  t.deepEqual(doctestText('f.py', invalid), decodingEveryLine('f.py', invalid));
  t.truthy(doctestText('f.py', Buffer.from(awkward[0]!)), 'a plain example is found');
});

/** The interpreter's own library, where docstring examples abound (skipped where none is installed). */
function libraryFiles(): string[] {
  const lib = readdirSync('/usr/lib').filter((d) => /^python3\.\d+$/.test(d)).sort().pop();
  if (!lib) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      const info = statSync(full, { throwIfNoEntry: false });
      if (info?.isDirectory() && name !== '__pycache__' && name !== 'site-packages' && name !== 'dist-packages') walk(full);
      else if (info?.isFile() && name.endsWith('.py')) out.push(full);
    }
  };
  walk(path.join('/usr/lib', lib));
  return out;
}

test('every Python file of the installed standard library: the same answer as decoding every line', (t) => {
  const files = libraryFiles();
  if (files.length === 0) return t.pass('no standard library under /usr/lib');
  let withExamples = 0;
  for (const file of files) {
    const bytes = readFileSync(file);
    const found = doctestText(file, bytes, 'from m import (x)\n');
    t.deepEqual(found, decodingEveryLine(file, bytes, 'from m import (x)\n'), file);
    if (found) withExamples++;
  }
  t.true(withExamples > 20, `only ${withExamples} files with examples`);
});
