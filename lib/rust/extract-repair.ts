// Two mistakes rust-analyzer's extract_function makes, found by the sweep on real crates, repaired in its edit before
// tug applies it: a `*` put before a macro call whose arguments use a parameter taken by reference (shlex:
// `*assert_eq!(sh.line_no, 3);`), and an elided lifetime in the new fn's return type that its parameters make
// ambiguous (percent-encoding: `fn f(iter: &mut slice::Iter<'_, u8>) -> slice::Iter<'_, u8>`, E0106).
import type { EditRequest } from '../core/patchset.js';

const IDENT = '[\\p{XID_Start}_][\\p{XID_Continue}]*';

/** The edits with the new function `name` repaired; `selected` is the code the user selected. */
export function repairExtracted(edits: readonly EditRequest[], selected: string, name: string): EditRequest[] {
  return edits.map((e) => {
    const at = e.new_text.search(new RegExp(`\\bfn\\s+${name}\\b`, 'u'));
    if (at < 0) return e;
    const head = e.new_text.slice(0, at);
    let fn = e.new_text.slice(at);
    // A deref rust-analyzer put before a macro call (it cannot see into the call): auto-deref reaches fields and
    // methods; a comparison that needed it fails cargo check, which is the verification's to say.
    fn = fn.replace(new RegExp(`\\*(${IDENT}!\\s*[(\\[{])`, 'gu'), (whole, call: string, offset: number, text: string) => {
      const before = text.slice(Math.max(0, offset - 1), offset);
      return selected.includes(`*${call}`) || /[\p{XID_Continue})\]]/u.test(before) ? whole : call;
    });
    fn = nameElidedLifetime(fn, name);
    return fn === e.new_text.slice(at) ? e : { ...e, new_text: head + fn };
  });
}

/**
 * `'_` in the return type is E0106 when the parameters hold more than one elided lifetime (each `&` without one and
 * each `'_`). Every `'_` of the signature becomes one named lifetime: the value returned comes from the borrowed
 * data, which is what rust-analyzer's `'_` in the parameter type stood for.
 */
function nameElidedLifetime(fn: string, name: string): string {
  const open = fn.indexOf('(');
  const body = fn.indexOf('{');
  if (open < 0 || body < 0) return fn;
  const signature = fn.slice(0, body);
  const arrow = signature.indexOf('->');
  if (arrow < 0) return fn;
  const params = signature.slice(open, arrow);
  const output = signature.slice(arrow);
  const elided = (params.match(/&(?!\s*')/g) ?? []).length + (params.match(/'_\b/g) ?? []).length;
  if (!/'_\b/.test(output) || elided < 2 || /&\s*(mut\s+)?self\b/.test(params)) return fn;
  const used = new Set([...signature.matchAll(/'([a-z]\w*)/g)].map((m) => m[1]));
  const life = ['a', 'b', 'c', 'd', 'e'].find((l) => !used.has(l)) ?? 'tug';
  const generics = new RegExp(`^(fn\\s+${name}\\s*)(<)?`, 'u');
  const named = signature.replaceAll(/'_\b/g, `'${life}`).replace(generics, (_, fnName: string, lt?: string) => (lt ? `${fnName}<'${life}, ` : `${fnName}<'${life}>`));
  return named + fn.slice(body);
}
