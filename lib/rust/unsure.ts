// Occurrences of the old name rust-analyzer could not see (unexpanded macro calls, macro_rules! bodies, cfg'd-out code): reported as unsure, never renamed by name alone.
import type { EditRequest } from '../core/patchset.js';
import type { WarningJSON } from '../core/schemas.js';
import { lineStarts, positionOf } from '../core/text.js';
import type { RustAnalyzer } from './lsp-client.js';
import { docTestLines } from './doctests.js';
import { scanRust, type MacroCall } from './macro-calls.js';
import { lspPositionOfOffset } from './positions.js';
import { certainInMacroBody, type ItemDefinition } from './macro-body-names.js';

export type RustUnsureReason = 'macro_unexpanded' | 'macro_definition' | 'cfg_inactive' | 'unresolved' | 'value_use';

export interface RustUnsure {
  file: string;
  line: number;
  col: number;
  text: string;
  reason: RustUnsureReason;
  /** The macro the name is in, without `!`. */
  macro?: string;
  renamed: boolean;
}

export interface UnsureInput {
  server: RustAnalyzer;
  bytesOf: Map<string, Uint8Array>;
  uriOf: (file: string) => string;
  oldName: string;
  newName: string;
  /** `file\0byteStart` of every occurrence rust-analyzer's rename already covers. */
  renamed: ReadonlySet<string>;
  includeUnsure: boolean;
  /** The renamed item's definition, for the macro_rules! mentions that certainly name it (macro-body-names.ts). */
  definition?: ItemDefinition | undefined;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Whole-word mentions of `name` in a file's doc-test code, by byte offset, with the macro called earlier on that line. */
function docTestMentions(bytes: Uint8Array, name: string): Array<{ start: number; macro?: string }> {
  const found: Array<{ start: number; macro?: string }> = [];
  const word = new RegExp(`(?<![\\p{XID_Continue}])${escape(name)}(?![\\p{XID_Continue}])`, 'gu');
  for (const line of docTestLines(bytes)) {
    // String literals hold text, not the name: masked, so `"hamming"` is neither listed nor renamed.
    const code = line.code.replace(/"(?:[^"\\]|\\.)*"/g, (literal) => ' '.repeat(literal.length));
    for (const match of code.matchAll(word)) {
      const before = line.code.slice(0, match.index);
      const macro = [...before.matchAll(/([\p{XID_Start}_][\p{XID_Continue}]*)\s*!\s*[([{]/gu)].pop()?.[1];
      found.push({ start: line.start + encoder.encode(before).length, ...(macro ? { macro } : {}) });
    }
  }
  return found;
}

/**
 * Every identifier spelled like the old name that rust-analyzer's rename left alone is asked about: one rust-analyzer
 * resolves (directly, or in a macro call it expands) is another symbol and stays as it is; one it cannot see is unsure.
 */
export async function findUnsure(input: UnsureInput): Promise<{ unsure: RustUnsure[]; edits: EditRequest[]; warnings: WarningJSON[] }> {
  const { server, oldName } = input;
  const bare = oldName.replace(/^r#/, '');
  const unsure: RustUnsure[] = [];
  const edits: EditRequest[] = [];
  const warnings: WarningJSON[] = [];
  const scans = new Map<string, ReturnType<typeof scanRust>>();
  const scanOf = (file: string) => scans.get(file) ?? scans.set(file, scanRust(decoder.decode(input.bytesOf.get(file)))).get(file)!;
  const callsOf = (name: string) =>
    [...input.bytesOf].flatMap(([file, bytes]) => (decoder.decode(bytes).includes(name) ? scanOf(file).macros.filter((m) => !m.definition && m.name === name).map((m) => ({ file, bytes, start: m.start })) : []));
  for (const [file, bytes] of [...input.bytesOf].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const text = decoder.decode(bytes);
    if (!text.includes(bare)) continue;
    const starts = lineStarts(bytes);
    const uri = input.uriOf(file);
    const expanded = new Map<number, boolean>();
    const { identifiers, macros } = scanOf(file);
    const cfg = cfgRegions(bytes);
    const lineText = (at: number) => {
      const { line } = positionOf(starts, at);
      return decoder.decode(bytes.subarray(starts[line - 1]!, starts[line] ?? bytes.length)).trim().slice(0, 160);
    };
    for (const token of identifiers) {
      if (token.text !== oldName && token.text !== bare) continue;
      if (input.renamed.has(`${file}\0${token.start}`)) continue;
      const position = (at: number) => lspPositionOfOffset(bytes, at, server.encoding, starts);
      const macro = innermost(macros, token.start, token.end);
      let reason: RustUnsureReason | null;
      if (macro?.definition) {
        const mention = { file, bytes, start: token.start, end: token.end, macro, macroName: nameOfRules(text, macro), callsOf };
        if (input.definition && certainInMacroBody(mention, input.definition)) {
          edits.push({ file, span: { start: token.start, end: token.end }, old_text: token.text, new_text: input.newName });
          continue;
        }
        reason = 'macro_definition';
      }
      else if (macro) {
        let seen = expanded.get(macro.start);
        if (seen === undefined) {
          const expansion = await ask<{ expansion: string } | null>(server, 'rust-analyzer/expandMacro', { textDocument: { uri }, position: position(macro.start) });
          seen = !!expansion && new RegExp(`(^|[^\\p{XID_Continue}])${escape(bare)}($|[^\\p{XID_Continue}])`, 'u').test(expansion.expansion);
          expanded.set(macro.start, seen);
        }
        // rust-analyzer expanded the call and did not rename this name: another symbol (say, a field of another type),
        // unless it resolves nothing there (percent-encoding's `CONTROLS.contains(0x20)` in static_assert!, which lands
        // in an array length rust-analyzer does not analyse): then it is as unseen as in a call it could not expand.
        if (seen) {
          const definitions = await ask<unknown[] | null>(server, 'textDocument/definition', { textDocument: { uri }, position: position(token.start) });
          seen = !!definitions && definitions.length > 0;
        }
        reason = seen ? null : 'macro_unexpanded';
      } else {
        const definitions = await ask<unknown[] | null>(server, 'textDocument/definition', { textDocument: { uri }, position: position(token.start) });
        reason = definitions && definitions.length > 0 ? null : cfg.some(([s, e]) => s <= token.start && token.end <= e) ? 'cfg_inactive' : 'unresolved';
      }
      if (reason === null) continue;
      const renamed = input.includeUnsure;
      unsure.push({ file, ...positionOf(starts, token.start), text: lineText(token.start), reason, ...(macro ? { macro: macro.name === 'macro_rules' ? nameOfRules(text, macro) : macro.name } : {}), renamed });
      if (renamed) edits.push({ file, span: { start: token.start, end: token.end }, old_text: token.text, new_text: input.newName });
    }
    // Doc-test code is comment text to the scan above: a mention rust-analyzer's rename (through the doc-test overlay)
    // did not reach is listed, never left silently; cargo test compiles it.
    for (const at of docTestMentions(bytes, bare)) {
      if (input.renamed.has(`${file}\0${at.start}`)) continue;
      const renamed = input.includeUnsure;
      unsure.push({ file, ...positionOf(starts, at.start), text: lineText(at.start), reason: at.macro ? 'macro_unexpanded' : 'unresolved', ...(at.macro ? { macro: at.macro } : {}), renamed });
      if (renamed) edits.push({ file, span: { start: at.start, end: at.start + encoder.encode(bare).length }, old_text: bare, new_text: input.newName });
    }
    for (const at of attributeStrings(bytes, bare)) {
      warnings.push({ code: 'AttributeStringNotRenamed', message: `"${bare}" in an attribute (say, serde(rename = …)) names the old spelling; it was left as it is`, location: { file, ...positionOf(starts, at) } });
    }
  }
  return { unsure, edits, warnings };
}

/** Why each reason is unsure, for messages and docs. */
export const UNSURE_REASONS: Record<RustUnsureReason, string> = {
  macro_unexpanded: 'inside a macro call rust-analyzer could not expand (a proc macro, a macro_rules! it cannot match, or std macros without std sources)',
  macro_definition: 'inside a macro_rules! body, where a name means nothing until the macro is called',
  cfg_inactive: 'in code a #[cfg(…)] switches off, which rust-analyzer does not analyse',
  unresolved: 'rust-analyzer resolves nothing here',
  value_use: 'the fn is named but not called here (a fn pointer, a path passed on): calls through it keep the old signature',
};

async function ask<T>(server: RustAnalyzer, method: string, params: unknown): Promise<T | null> {
  try {
    return await server.request<T>(method, params);
  } catch (error) {
    const code = (error as { code?: number }).code;
    if (code !== undefined && code < 0) return null;
    throw error;
  }
}

function innermost(macros: readonly MacroCall[], start: number, end: number): MacroCall | undefined {
  let found: MacroCall | undefined;
  for (const m of macros) if (m.start < start && end <= m.end && (!found || m.start >= found.start)) found = m;
  return found;
}

function nameOfRules(text: string, macro: MacroCall): string {
  const prefix = Buffer.from(text).subarray(macro.start, macro.end).toString('utf8');
  return /^macro_rules\s*!\s*([\p{XID_Continue}]+)/u.exec(prefix)?.[1] ?? 'macro_rules';
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Byte ranges switched by `#[cfg(…)]` (the attribute and the item after it) and `#![cfg(…)]` (the whole file). */
function cfgRegions(bytes: Uint8Array): Array<[number, number]> {
  const text = Buffer.from(bytes).toString('latin1');
  const regions: Array<[number, number]> = [];
  for (const match of text.matchAll(/#(!?)\[\s*cfg\s*\(/g)) {
    if (match[1] === '!') {
      regions.push([0, text.length]);
      continue;
    }
    const close = text.indexOf(']', match.index);
    let i = close;
    while (i < text.length && text[i] !== '{' && text[i] !== ';') i++;
    if (text[i] === ';') {
      regions.push([match.index, i]);
      continue;
    }
    let depth = 0;
    for (; i < text.length; i++) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}' && --depth === 0) break;
    }
    regions.push([match.index, i]);
  }
  return regions;
}

/** Byte offsets of `"name"` string literals inside `#[…]` attributes. */
function attributeStrings(bytes: Uint8Array, name: string): number[] {
  const text = Buffer.from(bytes).toString('latin1');
  const found: number[] = [];
  for (const match of text.matchAll(/#!?\[[^\]]*\]/g)) {
    const inner = match[0].indexOf(`"${name}"`);
    if (inner !== -1) found.push(match.index + inner + 1);
  }
  return found;
}
