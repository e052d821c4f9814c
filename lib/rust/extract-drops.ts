// A binding held only for its Drop (`let _guard = lock();`, or scopeguard's `defer!(…)`, which expands to
// `let _guard = guard((), |()| …);`) lives until the end of its block. Moved into a new fn by extract-function, it is
// dropped when that fn returns, before the rest of the block runs: the sweep's scopeguard `defer!(drops.set(1000))`
// then ran at once and the crate's test failed. Such a selection is refused before anything is verified.
import { TugError } from '../core/errors.js';

const IDENT = '[\\p{XID_Start}_][\\p{XID_Continue}]*';
/** `let _name` (not `let _`, which drops at once), optionally `mut`. */
const HELD = new RegExp(`\\blet\\s+(?:mut\\s+)?(_[\\p{XID_Continue}]+)\\b`, 'u');

/** What in `selected` declares a binding held for its Drop: the binding itself or the same file's macro that does. */
export function heldForDrop(selected: string, file: string, after: string): string | null {
  // A `_name` the code after the selection reads is returned by the new fn, and lives on.
  const direct = HELD.exec(selected);
  if (direct && !new RegExp(`(?<![\\p{XID_Continue}])${direct[1]}(?![\\p{XID_Continue}])`, 'u').test(after)) return `\`let ${direct[1]}\``;
  for (const call of selected.matchAll(new RegExp(`(?:^|[;{}]\\s*)(${IDENT})!\\s*[([{]`, 'gu'))) {
    const name = call[1]!;
    const definition = new RegExp(`macro_rules!\\s*${name}\\s*\\{`, 'u').exec(file);
    if (!definition) continue;
    let depth = 0;
    let end = definition.index + definition[0].length - 1;
    for (; end < file.length; end++) {
      if (file[end] === '{') depth++;
      else if (file[end] === '}' && --depth === 0) break;
    }
    const held = HELD.exec(file.slice(definition.index, end));
    if (held) return `\`${name}!\`, which declares \`let ${held[1]}\``;
  }
  return null;
}

/** Throws UnsupportedByAdapter when the selection holds a binding for its Drop (see above). */
export function refuseHeldForDrop(selected: string, file: string, after: string): void {
  const held = heldForDrop(selected, file, after);
  if (!held) return;
  throw new TugError('UnsupportedByAdapter', `the selection declares a binding held for its Drop (${held}); in a new fn it would be dropped when the fn returns, before the rest of the block`, {
    details: { operation: 'extract-function', offered: ['extract_function'], reason: 'binding held for its drop' },
  });
}
