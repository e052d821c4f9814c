// The worker's stdout cut into lines. Node's readline did this, but a facts reply is one line of several MB (17 MB
// for the 57 files of a large rename): readline joins the chunks into one string and scans all of it again for a
// line ending, ~10 ms of CPU per 3 MB; here each chunk is searched once for a newline byte and a line is decoded once
// (docs/PERFORMANCE.md, issue 33 step 17).
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';

const NEWLINE = 0x0a;

/**
 * Emits 'line' with each line's text (UTF-8, without its "\n"), and what follows the last newline when the stream
 * ends, as readline does. A newline byte never occurs inside a multi-byte UTF-8 character, so decoding whole lines
 * never splits one. The worker writes "\n" only (JSON escapes every "\r" in a string).
 */
export function jsonLines(input: Readable): EventEmitter {
  const lines = new EventEmitter();
  let held: Buffer[] = [];
  input.on('data', (chunk: Buffer) => {
    let at = 0;
    for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, at)) {
      const tail = chunk.subarray(at, end);
      const line = held.length === 0 ? tail : Buffer.concat([...held, tail]);
      held = [];
      at = end + 1;
      lines.emit('line', line.toString('utf8'));
    }
    if (at < chunk.length) held.push(at === 0 ? chunk : chunk.subarray(at));
  });
  input.on('end', () => {
    const rest = held;
    held = [];
    if (rest.length > 0) lines.emit('line', Buffer.concat(rest).toString('utf8'));
  });
  return lines;
}
