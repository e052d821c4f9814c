// Names inside a macro_rules! body that mean the renamed item without doubt, so a rename changes them with the rest
// instead of listing them unsure and leaving the crate broken (the sweep: scopeguard's `$crate::guard(…)` in `defer!`,
// itoa's `DEC_DIGITS_LUT` and `private::Sealed` in `impl_Integer!`). Two cases only: a `$crate::a::b::name` path whose
// module path is the definition's, and a plain path to an item of the module whose own, unexported macro uses it and
// is called only in that module. Anything else stays unsure.
import type { MacroCall } from './macro-calls.js';

const decoder = new TextDecoder();
const IDENT = '[\\p{XID_Start}_][\\p{XID_Continue}]*';

export interface ItemDefinition {
  file: string;
  /** Byte offset of the definition's name. */
  start: number;
  bytes: Uint8Array;
}

/** The crate directory (`…/` before `src/`) and module path of a file under a library's `src/`; null elsewhere. */
function fileModule(file: string): { crate: string; path: string[] } | null {
  const at = file.startsWith('src/') ? 0 : file.lastIndexOf('/src/') + 1;
  if (at < 0 || (at === 0 && !file.startsWith('src/'))) return null;
  const rel = file.slice(at + 4).replace(/\.rs$/, '');
  if (rel === 'main' || rel.startsWith('bin/')) return null;
  const parts = rel.split('/');
  if (parts.at(-1) === 'mod') parts.pop();
  if (parts.length === 1 && parts[0] === 'lib') parts.pop();
  return { crate: file.slice(0, at), path: parts };
}

/** The inline `mod name {` blocks around `offset` (outermost first); null when another block encloses it. */
function inlineModules(text: string, offset: number): string[] | null {
  const stack: Array<string | null> = [];
  let i = 0;
  while (i < offset) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i + 2) < 0 ? text.length : text.indexOf('*/', i + 2) + 2;
    else if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === "'" && /^'(?:\\.|[^\\'])'/.test(text.slice(i, i + 4))) i += text[i + 1] === '\\' ? 4 : 3;
    else if (c === '{') {
      const head = /(?:^|[;{}\]])\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([\p{XID_Start}_][\p{XID_Continue}]*)\s*$/u.exec(text.slice(Math.max(0, i - 200), i));
      stack.push(head ? head[1]! : null);
      i++;
    } else if (c === '}') {
      stack.pop();
      i++;
    } else i++;
  }
  return stack.every((s) => s !== null) ? (stack as string[]) : null;
}

/** The module path (from the crate root) of the item or macro at byte `offset` of a file; null when not at module level. */
function moduleAt(file: string, bytes: Uint8Array, offset: number): { crate: string; path: string[] } | null {
  const own = fileModule(file);
  if (!own) return null;
  const text = decoder.decode(bytes);
  if (/#\s*\[\s*path\s*=/.test(text)) return null;
  const inline = inlineModules(text, decoder.decode(bytes.subarray(0, offset)).length);
  return inline ? { crate: own.crate, path: [...own.path, ...inline] } : null;
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export interface BodyMention {
  file: string;
  bytes: Uint8Array;
  /** The token's byte range and the macro_rules! definition it is in. */
  start: number;
  end: number;
  macro: MacroCall;
  /** The macro's name, and every file's macro invocations (to find where it is called). */
  macroName: string;
  callsOf: (name: string) => Array<{ file: string; bytes: Uint8Array; start: number }>;
}

/** Whether the mention in a macro_rules! body certainly names the item defined at `def`. */
export function certainInMacroBody(mention: BodyMention, def: ItemDefinition): boolean {
  const defModule = moduleAt(def.file, def.bytes, def.start);
  if (!defModule) return false;
  const before = decoder.decode(mention.bytes.subarray(Math.max(0, mention.start - 300), mention.start));
  const after = decoder.decode(mention.bytes.subarray(mention.end, mention.end + 40));
  const macroFile = fileModule(mention.file);
  const viaCrate = new RegExp(`\\$crate\\s*::\\s*((?:${IDENT}\\s*::\\s*)*)$`, 'u').exec(before);
  if (viaCrate) {
    const path = viaCrate[1]!.split('::').map((s) => s.trim()).filter(Boolean);
    return macroFile?.crate === defModule.crate && same(path, defModule.path);
  }
  // A plain path (`NAME`, `private::Sealed`, `self::m::NAME`): not a field, method, macro variable, lifetime, binding
  // or macro call; its module prefix is read from the macro's module, where the macro is called.
  const chain = new RegExp(`((?:(?:crate|self|super|${IDENT})\\s*::\\s*)*)$`, 'u').exec(before)![1]!;
  const ahead = before.slice(0, before.length - chain.length);
  if (/(?:\.|\$|::|'|\blet\s+(?:mut\s+)?|\bmut\s+|\bfn\s+|\bstruct\s+|\benum\s+|\bconst\s+|\bstatic\s+|\btype\s+|\bmod\s+|\|)\s*$/u.test(ahead)) return false;
  if (/^\s*(?:!|:(?!:)|@)/u.test(after)) return false;
  const macroModule = moduleAt(mention.file, mention.bytes, mention.macro.start);
  if (!macroModule || macroModule.crate !== defModule.crate) return false;
  const target = [...macroModule.path];
  for (const seg of chain.split('::').map((x) => x.trim()).filter(Boolean)) {
    if (seg === 'crate') target.length = 0;
    else if (seg === 'super') target.pop();
    else if (seg !== 'self') target.push(seg);
  }
  if (!same(target, defModule.path)) return false;
  const head = decoder.decode(mention.bytes.subarray(Math.max(0, mention.macro.start - 120), mention.macro.start));
  if (/macro_export/.test(head.slice(head.lastIndexOf('}') + 1))) return false;
  // The body must not bind the name itself (a `let`, a parameter, a pattern, an item of the same name).
  const body = decoder.decode(mention.bytes.subarray(mention.macro.start, mention.macro.end));
  const word = decoder.decode(mention.bytes.subarray(mention.start, mention.end));
  const binds = new RegExp(`(?:\\blet\\s+(?:mut\\s+)?|\\bmut\\s+|\\b(?:fn|struct|enum|const|static|type|mod|trait)\\s+|\\|[^|]*)${word}(?![\\p{XID_Continue}])|${word}\\s*(?::(?!:)|@)`, 'u');
  if (binds.test(body)) return false;
  const calls = mention.callsOf(mention.macroName);
  return calls.length > 0 && calls.every((c) => {
    const at = moduleAt(c.file, c.bytes, c.start);
    return at !== null && at.crate === macroModule.crate && same(at.path, macroModule.path);
  });
}
