// change-signature's refusal of calls it cannot rewrite: a call or definition of the fn that rust-analyzer's references
// do not reach (in a macro_rules! body, a macro call it cannot map, code a #[cfg] switches off) keeps the old signature,
// so the crate stops compiling (the sweep: itoa's `buffer.format($value)` in a test macro and `rem.write(..)` in
// `impl_Integer128!`, percent-encoding's `CONTROLS.contains(0x20)` in static_assert!). Refused unless forced.
import { TugError } from '../core/errors.js';
import { lineStarts } from '../core/text.js';
import type { RustUnsure } from './unsure.js';

/** The unsure places where the name is followed by an argument or parameter list: calls and fns left as they were. */
export function unrewrittenCalls(unsure: readonly RustUnsure[], name: string, textOf: (file: string) => string | undefined): RustUnsure[] {
  return unsure.filter((u) => {
    if (u.reason === 'value_use') return false;
    const text = textOf(u.file);
    if (text === undefined) return true;
    const bytes = Buffer.from(text);
    const start = (lineStarts(bytes)[u.line - 1] ?? 0) + u.col - 1;
    const after = bytes.subarray(start, start + Buffer.byteLength(name) + 80).toString('utf8');
    if (!after.startsWith(name)) return true;
    return /^\s*(::\s*<|\()/.test(after.slice(name.length));
  });
}

export function refuseUnrewrittenCalls(name: string, calls: readonly RustUnsure[]): void {
  if (calls.length === 0) return;
  const first = calls[0]!;
  const where = `${first.file}:${first.line}:${first.col}`;
  const inside = first.macro ? ` inside ${first.reason === 'macro_definition' ? 'the body of macro_rules! ' : ''}${first.macro}!` : first.reason === 'cfg_inactive' ? ' in code a #[cfg] switches off' : '';
  throw new TugError('UnsafeRefactor', `${name} is called or defined at ${where}${inside} (\`${first.text}\`), where rust-analyzer cannot show tug the call to rewrite; it would keep the old signature`, {
    details: { reason: 'call not rewritten', line: first.line, col: first.col, places: calls.map((c) => `${c.file}:${c.line}:${c.col}`), suggestion: 'pass force to change it anyway; each such place is listed as unsure' },
    location: { file: first.file, line: first.line, col: first.col },
  });
}
