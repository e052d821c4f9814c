// Private fields of a moved tuple struct (`struct StringWrapper<'a>(&'a str);`) that code left in the old module
// needs: its constructor or pattern (`StringWrapper(a)`) and `.0` there fill or read fields that are private to the
// new module (strsim in the sweep: E0423). Like a named private field, each becomes `pub(crate)`; rust-analyzer's
// document symbols list no tuple fields, so they are read from the struct's text.
import type { TopItem } from './move-items.js';
import { topLevel } from './extract-signature.js';

/**
 * The private fields of the tuple struct `item` (indexes where `pub(crate) ` goes, and the field's number) when code
 * outside the moved items calls its constructor (`refs` followed by `(`) or reads a numbered field (`x.0`).
 */
export function tupleFieldsUsedOutside(
  item: TopItem,
  masked: string,
  refs: ReadonlyArray<{ file: string; at: number }>,
  source: string,
  insideMoved: (file: string, at: number) => boolean,
): Array<{ at: number; name: string }> {
  if (!/^struct\b/.test(item.header.keyword)) return [];
  let i = item.nameAt + item.name.length;
  while (/\s/.test(masked[i] ?? '')) i++;
  if (masked[i] === '<') {
    let depth = 0;
    for (; i < item.end; i++) {
      if (masked[i] === '<') depth++;
      else if (masked[i] === '>' && masked[i - 1] !== '-' && --depth === 0) break;
    }
    i++;
    while (/\s/.test(masked[i] ?? '')) i++;
  }
  if (masked[i] !== '(') return [];
  const open = i;
  let depth = 0;
  let close = open;
  for (; close < item.end; close++) {
    if ('([{<'.includes(masked[close]!)) depth++;
    else if (')]}>'.includes(masked[close]!) && !(masked[close] === '>' && masked[close - 1] === '-') && --depth === 0) break;
  }
  const constructed = refs.some((r) => r.file === source && !insideMoved(r.file, r.at) && /^\s*\(/.test(masked.slice(r.at + item.name.length, r.at + item.name.length + 40)));
  const fields: Array<{ at: number; name: string }> = [];
  let at = open + 1;
  topLevel(masked.slice(open + 1, close)).forEach((field, n) => {
    const start = masked.indexOf(field, at);
    at = start + field.length;
    const own = /^(?:#\[[^\]]*\]\s*)*/.exec(field)![0].length;
    if (/^pub\b/.test(field.slice(own))) return;
    const read = [...masked.matchAll(new RegExp(`(?:[\\p{XID_Start}_][\\p{XID_Continue}]*|[)\\]])\\s*\\.\\s*${n}(?![\\p{XID_Continue}])`, 'gu'))].some((m) => !insideMoved(source, m.index!));
    if (constructed || read) fields.push({ at: start + own, name: String(n) });
  });
  return fields;
}
