// change-signature for a Rust fn or method: rust-analyzer's rename (to a name nobody uses) finds every place that
// names it (the definition, a trait's declaration and every impl, method calls, paths and UFCS calls); each place is
// then rewritten from its source text: the parameter list of a definition, the argument list of a call. A use that is
// not a call (a fn pointer, a path passed on) is listed as unsure, as are the macro bodies rename lists; a call or fn
// there that tug cannot rewrite is refused unless forced (signature-unsure.ts).
import { TugError } from '../core/errors.js';
import type { EditRequest } from '../core/patchset.js';
import { lineStarts, positionOf } from '../core/text.js';
import { readBlobs } from '../git/objects.js';
import { listTreePaths } from '../git/snapshot.js';
import { assertRustIdentifier } from './identifiers.js';
import { isPlainArgument, skipAngles, skipSpace, splitList, type Item } from './arg-lists.js';
import { planRustRename, type RustPlanInput } from './rename-plan.js';
import type { RustUnsure } from './unsure.js';
import { refuseUnrewrittenCalls, unrewrittenCalls } from './signature-unsure.js';

export interface RustNewParam {
  name: string;
  type?: string | undefined;
  from?: string | undefined;
  value?: string | undefined;
}

export interface RustSignatureInput extends Omit<RustPlanInput, 'newName' | 'includeUnsure'> {
  params: readonly RustNewParam[];
  force: boolean;
}

export interface RustSignaturePlan {
  name: string;
  edits: EditRequest[];
  calls: number;
  unsure: RustUnsure[];
}

interface Param {
  text: string;
  /** The binding's name (`mut` dropped), or the whole pattern. */
  key: string;
  pattern: Item;
  type: Item | null;
}

const decoder = new TextDecoder();
const SELF = /^(&\s*('[\p{XID_Continue}_]+\s+)?)?(mut\s+)?self\b/u;

function paramOf(text: string, item: Item): Param {
  const own = text.slice(item.start, item.end);
  const colon = topLevelColon(own);
  const pattern = colon < 0 ? own : own.slice(0, colon).trimEnd();
  return {
    text: own,
    key: pattern.replace(/^mut\s+/, ''),
    pattern: { start: item.start, end: item.start + pattern.length },
    type: colon < 0 ? null : { start: item.start + colon + 1, end: item.end },
  };
}

function topLevelColon(s: string): number {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if ('([{<'.includes(c)) depth++;
    else if (')]}>'.includes(c)) depth--;
    else if (c === ':' && depth === 0 && s[i + 1] !== ':' && s[i - 1] !== ':') return i;
  }
  return -1;
}

export async function planRustSignature(input: RustSignatureInput): Promise<RustSignaturePlan> {
  for (const p of input.params) {
    assertRustIdentifier(p.name, undefined);
    if ((p as { default?: string }).default !== undefined) throw new TugError('InvalidArgument', 'Rust parameters have no defaults; give `value` (inserted at every call) instead', { details: { argument: 'new_params', reason: 'default' } });
  }
  const marker = `__tug_signature_${process.pid}`;
  const found = await planRustRename({ ...input, newName: marker, includeUnsure: false });
  const name = found.oldName;
  if (!['function', 'method'].includes(found.symbol.kind)) {
    throw new TugError('InvalidArgument', `${name} at ${input.target.file}:${input.target.line}:${input.target.col} is a ${found.symbol.kind}, not a fn`, { details: { argument: 'at', reason: 'not a function' } });
  }
  const entries = (await listTreePaths(input.repo, input.tree)).filter((e) => e.type === 'blob');
  const files = [...new Set([...found.edits.map((e) => e.file), ...found.unsure.map((u) => u.file)])];
  const oids = new Map(entries.filter((e) => files.includes(e.path)).map((e) => [e.path, e.oid]));
  const blobs = await readBlobs(input.repo, [...oids.values()]);
  const textOf = new Map(files.map((f) => [f, decoder.decode(blobs.get(oids.get(f)!)!)]));
  // Byte offsets from rust-analyzer → string indexes (the same for ASCII-only text before the span).
  const indexOf = (file: string, byte: number) => Buffer.from(textOf.get(file)!).subarray(0, byte).toString('utf8').length;

  type Site = { file: string; at: number; end: number };
  const sites: Site[] = found.edits.map((e) => ({ file: e.file, at: indexOf(e.file, e.span!.start), end: indexOf(e.file, e.span!.end) }));
  const isDefinition = (s: Site) => /\bfn\s+$/.test(textOf.get(s.file)!.slice(Math.max(0, s.at - 20), s.at));
  const definitions = sites.filter(isDefinition);
  if (definitions.length === 0) throw new TugError('SymbolNotFound', `rust-analyzer shows no definition of ${name} in the workspace`, { details: { name } });
  const primary = definitions.find((d) => d.file === found.symbol.location.file && indexOf(d.file, found.symbol.location.byte_start) === d.at) ?? definitions[0]!;

  const paramsAt = (s: Site) => {
    const text = textOf.get(s.file)!;
    const open = skipSpace(text, skipAngles(text, skipSpace(text, s.end)));
    const list = text[open] === '(' ? splitList(text, open, true) : null;
    if (!list) throw new TugError('InternalError', `could not read the parameters of ${name} at ${s.file}`, { details: { file: s.file } });
    const hasSelf = list.items.length > 0 && SELF.test(text.slice(list.items[0]!.start, list.items[0]!.end));
    return { open, list, hasSelf, params: list.items.slice(hasSelf ? 1 : 0).map((i) => paramOf(text, i)) };
  };
  const main = paramsAt(primary);
  // Each new parameter is an old one (by `from`, else by name) or a new one that calls get `value` for.
  const mapping = input.params.map((p) => {
    const index = main.params.findIndex((q) => q.key === (p.from ?? p.name));
    if (p.from !== undefined && index < 0) throw new TugError('InvalidArgument', `${name} has no parameter ${p.from}`, { details: { argument: 'new_params', reason: 'unknown from', parameters: main.params.map((q) => q.key) } });
    if (index < 0 && (p.type === undefined || p.value === undefined)) {
      throw new TugError('InvalidArgument', `the new parameter ${p.name} needs a type and a value to pass at the calls`, { details: { argument: 'new_params', reason: 'new parameter without type or value' } });
    }
    return { ...p, index };
  });
  const used = mapping.filter((m) => m.index >= 0).map((m) => m.index);
  if (new Set(used).size !== used.length) throw new TugError('InvalidArgument', 'a parameter is listed twice', { details: { argument: 'new_params', reason: 'duplicate' } });

  const edits: EditRequest[] = [];
  const unsure: RustUnsure[] = [...found.unsure];
  const replaceList = (file: string, open: number, items: string[], old: string) => {
    const text = textOf.get(file)!;
    const multiline = old.includes('\n');
    const indent = multiline ? (/\n([ \t]*)\S/.exec(old)?.[1] ?? '    ') : '';
    const closing = multiline ? (/\n([ \t]*)$/.exec(old)?.[1] ?? '') : '';
    const body = multiline ? `\n${items.map((i) => `${indent}${i},`).join('\n')}\n${closing}` : items.join(', ');
    const start = Buffer.byteLength(text.slice(0, open + 1));
    edits.push({ file, span: { start, end: start + Buffer.byteLength(old) }, old_text: old, new_text: body });
  };

  for (const d of definitions) {
    const own = paramsAt(d);
    const text = textOf.get(d.file)!;
    if (own.params.length !== main.params.length) throw new TugError('UnsafeRefactor', `${name} at ${d.file} has ${own.params.length} parameters, the one asked for ${main.params.length}`, { details: { reason: 'definitions differ' } });
    const items = mapping.map((m) => {
      if (m.index < 0) return `${m.name}: ${m.type!.trim()}`;
      const p = own.params[m.index]!;
      const renamed = m.name !== main.params[m.index]!.key && p.key === main.params[m.index]!.key;
      const pattern = renamed ? text.slice(p.pattern.start, p.pattern.end).replace(p.key, m.name) : text.slice(p.pattern.start, p.pattern.end);
      const type = m.type !== undefined ? ` ${m.type.trim()}` : p.type ? text.slice(p.type.start, p.type.end) : '';
      return p.type || m.type !== undefined ? `${pattern}:${type.startsWith(' ') ? type : ` ${type}`}` : pattern;
    });
    // A renamed parameter is renamed in the body too, by rust-analyzer (its edits inside the list are ours already).
    for (const m of mapping) {
      const p = m.index >= 0 ? own.params[m.index]! : null;
      if (!p || m.name === main.params[m.index]!.key || p.key !== main.params[m.index]!.key) continue;
      const at = p.pattern.start + (text.slice(p.pattern.start, p.pattern.end).length - p.key.length);
      const position = positionOf(lineStarts(Buffer.from(text)), Buffer.byteLength(text.slice(0, at)));
      const body = await planRustRename({ ...input, target: { file: d.file, ...position }, newName: m.name, includeUnsure: false });
      const listStart = Buffer.byteLength(text.slice(0, own.open));
      const listEnd = Buffer.byteLength(text.slice(0, own.list.close));
      edits.push(...body.edits.filter((e) => e.file !== d.file || e.span!.end <= listStart || e.span!.start >= listEnd));
    }
    const selfText = own.hasSelf ? [text.slice(own.list.items[0]!.start, own.list.items[0]!.end)] : [];
    replaceList(d.file, own.open, [...selfText, ...items], text.slice(own.open + 1, own.list.close));
  }

  let calls = 0;
  const valueUses: RustUnsure[] = [];
  for (const s of sites) {
    if (isDefinition(s)) continue;
    const text = textOf.get(s.file)!;
    const where = { file: s.file, ...positionOf(lineStarts(Buffer.from(text)), Buffer.byteLength(text.slice(0, s.at))) };
    const before = text.slice(0, s.at).trimEnd();
    const method = before.endsWith('.');
    let after = skipSpace(text, s.end);
    if (text.startsWith('::<', after)) after = skipSpace(text, skipAngles(text, after + 2));
    // An import names it (`use crate::{area, …};`, also in a doc test): no call there.
    if (/(^|[;}\n])\s*(\/\/[/!]\s*)?(pub(\([^)]*\))?\s+)?use\s+[^;]*$/.test(text.slice(before.lastIndexOf(';') + 1, s.at))) continue;
    const list = text[after] === '(' ? splitList(text, after, false) : null;
    if (!list) {
      valueUses.push({ ...where, text: lineAround(text, s.at), reason: 'value_use', renamed: false });
      continue;
    }
    const receiver = !method && main.hasSelf ? 1 : 0;
    const args = list.items.map((i) => text.slice(i.start, i.end));
    if (args.length !== main.params.length + receiver) {
      unsure.push({ ...where, text: text.slice(s.at, list.close + 1).replace(/\s+/g, ' '), reason: 'unresolved', renamed: false });
      continue;
    }
    const own = args.slice(receiver);
    if (!input.force) {
      const dropped = own.filter((_, i) => !used.includes(i)).find((a) => !isPlainArgument(a));
      const moved = used.filter((i) => !isPlainArgument(own[i]!));
      if (dropped !== undefined || moved.some((v, k) => k > 0 && v < moved[k - 1]!)) {
        throw new TugError('UnsafeRefactor', `the call at ${where.file}:${where.line}:${where.col} would ${dropped !== undefined ? `drop \`${dropped}\`` : 'evaluate its arguments in another order'}, which may have effects`, {
          details: { reason: dropped !== undefined ? 'argument with effects removed' : 'arguments with effects reordered', line: where.line, col: where.col, suggestion: 'pass force to change it anyway' },
          location: where,
        });
      }
    }
    const items = [...args.slice(0, receiver), ...mapping.map((m) => (m.index < 0 ? m.value!.trim() : own[m.index]!))];
    replaceList(s.file, after, items, text.slice(after + 1, list.close));
    calls++;
  }
  if (!input.force) refuseUnrewrittenCalls(name, unrewrittenCalls(unsure, name, (f) => textOf.get(f)));
  // A fn passed as a value (`.map(f)`, `let g: fn(u8) = f`) is called with the old signature wherever it goes: that no
  // longer compiles, or, for a reorder of equal types, silently passes the arguments swapped (the sweep: shlex `quote`,
  // percent-encoding `percent_encode_byte`). Refused unless forced; forced, each such use is listed.
  if (valueUses.length > 0 && !input.force) {
    const first = valueUses[0]!;
    throw new TugError('UnsafeRefactor', `${name} is used as a value at ${first.file}:${first.line}:${first.col} (\`${first.text}\`), where calls through it keep the old signature`, {
      details: { reason: 'value use', line: first.line, col: first.col, uses: valueUses.map((u) => `${u.file}:${u.line}:${u.col}`), suggestion: 'pass force to change it anyway; each such use is listed as unsure' },
      location: { file: first.file, line: first.line, col: first.col },
    });
  }
  unsure.push(...valueUses);
  return { name, edits, calls, unsure };
}

/** The source line holding `at`, trimmed: what an unsure entry shows. */
function lineAround(text: string, at: number): string {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const end = text.indexOf('\n', at);
  return text.slice(start, end < 0 ? text.length : end).trim();
}
