// extract_function inside an impl whose type borrows with a lifetime (`impl<'a> PercentEncode<'a>`, field
// `bytes: &'a [u8]`) writes the new method's references without it: a parameter stored into that field
// (`self.bytes = remaining` → `remaining: &[u8]`, E0621) or a return read from it (`-> &[u8]`, which elision ties to
// `&mut self`, so the caller's next write to the field is refused). Such a reference gets the field's lifetime; one the
// body neither stores into nor reads from such a field keeps its elided lifetime (a local's borrow must stay short).
import type { EditRequest } from '../core/patchset.js';
import { anglesAt, declared, outerGenerics, topLevel } from './extract-signature.js';

const IDENT = '[\\p{XID_Start}_][\\p{XID_Continue}]*';

interface Field {
  name: string;
  /** The type as the user wrote it with the impl's lifetime names, and with its references' lifetimes left out. */
  named: string;
  elided: string;
}

/** The self type of the impl head `impl<…> [Trait for] Type<args>`: its name and generic arguments. */
function selfType(head: string): { name: string; args: string[] } | null {
  const m = new RegExp(`\\bimpl\\s*(?:<[\\s\\S]*?>)?\\s*(?:[\\s\\S]*?\\bfor\\s+)?(${IDENT})\\s*(<[\\s\\S]*?>)?\\s*(?:where\\b[\\s\\S]*)?\\{\\s*$`, 'u').exec(head);
  return m ? { name: m[1]!, args: m[2] ? topLevel(m[2].slice(1, -1)) : [] } : null;
}

/** The fields of `struct name<…> { … }` in `text` whose type holds one of its lifetimes, in the impl's names. */
function lifetimeFields(text: string, type: { name: string; args: string[] }): Field[] {
  const m = new RegExp(`\\bstruct\\s+${type.name}\\b`, 'u').exec(text);
  if (!m) return [];
  const at = m.index + m[0].length;
  const params = declared(anglesAt(text, at));
  const open = text.indexOf('{', at);
  if (open < 0 || /;/.test(text.slice(at, open))) return [];
  let depth = 0;
  let close = open;
  for (; close < text.length; close++) {
    if (text[close] === '{') depth++;
    else if (text[close] === '}' && --depth === 0) break;
  }
  const rename = new Map(params.flatMap((p, i) => (p.startsWith("'") && type.args[i]?.startsWith("'") ? [[p, type.args[i]!]] : [])));
  return topLevel(text.slice(open + 1, close).replace(/\/\/[^\n]*/g, '')).flatMap((f) => {
    const field = new RegExp(`^(?:#\\[[^\\]]*\\]\\s*)*(?:pub(?:\\([^)]*\\))?\\s+)?(${IDENT})\\s*:\\s*([\\s\\S]+)$`, 'u').exec(f.trim());
    if (!field) return [];
    const type = field[2]!.trim();
    if (![...rename.keys()].some((l) => new RegExp(`${l}(?![\\p{XID_Continue}])`, 'u').test(type))) return [];
    const named = type.replace(/'[\p{XID_Continue}]+/gu, (l) => rename.get(l) ?? l);
    const elided = named.replace(/&\s*'[\p{XID_Continue}]+\s+/gu, '&');
    return elided === named ? [] : [{ name: field[1]!, named, elided }];
  });
}

/** The new method `name`'s elided references that carry a field's borrow, given that field's lifetime. */
export function nameFieldLifetimes(edits: readonly EditRequest[], name: string, original: Uint8Array): EditRequest[] {
  const text = new TextDecoder().decode(original);
  return edits.map((edit) => {
    const at = edit.new_text.search(new RegExp(`\\bfn\\s+${name}\\b`, 'u'));
    if (at < 0) return edit;
    const start = Buffer.from(original).subarray(0, edit.span!.start).toString('utf8').length;
    const outer = outerGenerics(text, start);
    const head = edit.new_text.slice(0, at).includes('impl') ? edit.new_text.slice(0, at) : outer.implBody ? text.slice(0, outer.implBody[0] + 1) : '';
    const type = selfType(head);
    const fields = type ? lifetimeFields(text, type) : [];
    if (fields.length === 0) return edit;
    const fn = edit.new_text.slice(at);
    const bodyAt = fn.indexOf('{', fn.indexOf(')'));
    if (bodyAt < 0 || !/\(\s*&\s*(?:mut\s+)?self\b/.test(fn.slice(0, bodyAt))) return edit;
    let signature = fn.slice(0, bodyAt);
    const body = fn.slice(bodyAt);
    const arrow = signature.indexOf('->');
    for (const f of fields) {
      const reads = new RegExp(`\\bself\\s*\\.\\s*${f.name}\\b`, 'u').test(body);
      // A parameter the body stores into the field: `self.field = p` (also inside an expression there).
      const stored = (p: string) => new RegExp(`\\bself\\s*\\.\\s*${f.name}\\s*=(?!=)[^;]*(?<![\\p{XID_Continue}])${p}(?![\\p{XID_Continue}])`, 'u').test(body);
      const params = signature.slice(0, arrow < 0 ? signature.length : arrow).replace(new RegExp(`(${IDENT})\\s*:\\s*${escape(f.elided)}(?=\\s*[,)])`, 'gu'), (whole, p: string) => (stored(p) ? `${p}: ${f.named}` : whole));
      const output = arrow < 0 ? '' : reads ? signature.slice(arrow).split(f.elided).join(f.named) : signature.slice(arrow);
      signature = params + output;
    }
    const fixed = signature + body;
    return fixed === fn ? edit : { ...edit, new_text: edit.new_text.slice(0, at) + fixed };
  });
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
