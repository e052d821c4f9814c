// `--name` for rust-analyzer's extract assists: the variable or function the assist created is found by position and
// renamed by rust-analyzer itself, so a name that was already in scope (`let align = …` next to the new `let align`)
// is never touched. Replacing the picked name by text had turned `let align = align.unwrap_or(0)` into
// `let requested = requested.unwrap_or(0)`.
import { fileURLToPath } from 'node:url';
import type { WorkspaceEdit } from 'vscode-languageserver-protocol';
import { TugError } from '../core/errors.js';
import type { EditRequest } from '../core/patchset.js';
import type { RustAnalyzer } from './lsp-client.js';
import { lspPositionOfOffset } from './positions.js';
import { convertWorkspaceEdit } from './workspace-edit.js';

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const IDENT = '[\\p{XID_Start}_][\\p{XID_Continue}]*';

export interface CreatedName {
  server: RustAnalyzer;
  /** The file as the repository has it, and its path on the server's disk. */
  file: string;
  onDisk: string;
  uri: string;
  original: Uint8Array;
  /** The assist's edits (all files) and the text the user selected for it. */
  edits: EditRequest[];
  selected: string;
  name: string;
  kind: 'variable' | 'function';
}

/** The file's bytes with its own edits applied (edits in any order; they do not overlap). */
function applied(original: Uint8Array, edits: readonly EditRequest[]): string {
  let out = '';
  let at = 0;
  for (const e of [...edits].sort((a, b) => a.span!.start - b.span!.start)) {
    out += decoder.decode(original.subarray(at, e.span!.start)) + e.new_text;
    at = e.span!.end;
  }
  return out + decoder.decode(original.subarray(at));
}

/** Byte offset of the name the assist bound: a `let`/`fn` of a name that has one binding more than before. */
function binderOffset(before: string, after: string, input: CreatedName): number {
  const binder = new RegExp(input.kind === 'variable' ? `\\blet\\s+(?:mut\\s+)?(${IDENT})` : `\\bfn\\s+(${IDENT})`, 'gu');
  const binders = (text: string) => [...text.matchAll(binder)].map((m) => ({ word: m[1]!, at: m.index! + m[0].length - m[1]!.length }));
  const counts = (text: string) => binders(text).reduce((map, b) => map.set(b.word, (map.get(b.word) ?? 0) + 1), new Map<string, number>());
  const old = counts(before);
  const now = counts(after);
  const created = [...now].filter(([word, n]) => n > (old.get(word) ?? 0)).map(([word]) => word);
  let found = created.length === 1 ? binders(after).filter((b) => b.word === created[0]) : [];
  // Among several bindings of that name, the variable's is the one bound to the selected expression.
  if (found.length > 1 && input.kind === 'variable') {
    const selected = input.selected.trim();
    const initializer = (b: { word: string; at: number }) => after.slice(b.at + b.word.length).replace(/^\s*(?::[^=;]*)?=\s*/u, '\0');
    found = found.filter((b) => initializer(b).startsWith(`\0${selected}`));
  }
  if (found.length !== 1) {
    throw new TugError('UnsupportedByAdapter', `could not tell which ${input.kind} rust-analyzer created, so --name cannot be applied`, { details: { operation: `extract-${input.kind}`, offered: [] } });
  }
  return encoder.encode(after.slice(0, found[0]!.at)).length;
}

/**
 * The assist's edits with the created binding renamed to `name` by rust-analyzer (shown the changed file in memory,
 * asked to rename at the binding's position, then shown the file as it is again): one edit over the changed stretch.
 */
export async function renameCreated(input: CreatedName): Promise<EditRequest[]> {
  const own = input.edits.filter((e) => e.file === input.file);
  if (own.length === 0) return input.edits;
  const before = decoder.decode(input.original);
  const after = applied(input.original, own);
  const afterBytes = encoder.encode(after);
  const offset = binderOffset(before, after, input);
  const placed = byPosition(own, after, offset, input);
  if (placed !== null) return oneEdit(input, encoder.encode(placed));
  const { server } = input;
  await server.showText(input.onDisk, after);
  let renamed: WorkspaceEdit | null = null;
  let refusal = '';
  try {
    const position = lspPositionOfOffset(afterBytes, offset, server.encoding);
    renamed = await server.request<WorkspaceEdit | null>('textDocument/rename', { textDocument: { uri: input.uri }, position, newName: input.name });
  } catch (error) {
    // rust-analyzer's own "cannot rename here" (in code its cfg leaves out: "No references found at position") is an
    // answer, as in rename-plan.ts; anything else (a crash, a timeout) is reported as it is.
    const code = (error as { code?: number }).code;
    if (error instanceof TugError || (code !== -32602 && code !== -32600)) throw error;
    refusal = ` (${(error as Error).message})`;
  } finally {
    if (server.alive) await server.showText(input.onDisk, before);
  }
  const converted = renamed
    ? convertWorkspaceEdit(renamed, { encoding: server.encoding, locate: (uri) => (fileURLToPath(uri) === input.onDisk ? { path: input.file } : { skip: 'outside-workspace', where: uri }), bytes: (file) => (file === input.file ? afterBytes : undefined), filesUnder: () => [] })
    : { edits: [] as EditRequest[] };
  if (converted.edits.length === 0) {
    throw new TugError('UnsupportedByAdapter', `rust-analyzer did not rename the ${input.kind} it created${refusal}, so --name cannot be applied`, { details: { operation: `extract-${input.kind}`, offered: [] } });
  }
  return oneEdit(input, encoder.encode(applied(afterBytes, converted.edits)));
}

/**
 * The name put in by position: every whole-word occurrence of the created name inside the text the assist inserted
 * (the `let`/`fn` and the use or call that replaced the selection), outside the copy of the selected code it carries.
 * Null when that does not find the binding and at least one use; rust-analyzer's rename is asked then. Asking
 * rust-analyzer first lost the name on percent-encoding (`cannot find value sweep_v`) when its view lagged.
 */
function byPosition(own: readonly EditRequest[], after: string, binder: number, input: CreatedName): string | null {
  const afterBytes = encoder.encode(after);
  const word = /^[\p{XID_Start}_][\p{XID_Continue}]*/u.exec(decoder.decode(afterBytes.subarray(binder)))?.[0];
  if (!word) return null;
  const selected = input.selected.trim();
  const places: number[] = [];
  let shift = 0;
  for (const e of [...own].sort((a, b) => a.span!.start - b.span!.start)) {
    const at = e.span!.start + shift;
    const text = e.new_text;
    // What the edit keeps of the old text (its common head and tail) was not written by the assist: on strsim one edit
    // ran past `b.chars()` on a later line, whose method got the variable's name. A path or method segment never is it.
    const old = e.old_text;
    let head = 0;
    while (head < text.length && head < old.length && text[head] === old[head]) head++;
    let tail = 0;
    while (tail < text.length - head && tail < old.length - head && text[text.length - 1 - tail] === old[old.length - 1 - tail]) tail++;
    const masked = selected === '' ? text : text.split(selected).join('\0'.repeat(selected.length));
    for (const m of masked.matchAll(new RegExp(`(?<![\\p{XID_Continue}])${word}(?![\\p{XID_Continue}])`, 'gu'))) {
      if (m.index! + word.length <= head || m.index! >= text.length - tail) continue;
      const place = at + encoder.encode(text.slice(0, m.index!)).length;
      // A method or path segment is never the variable, whatever edit wrote it: the `.` may stand outside this edit
      // (strsim: rust-analyzer's `let chars = a.chars();` came as small edits, one of them `count` → `chars` after
      // the file's own `.`, and `a.chars()` became `a.sweep_v()`).
      if (/(?:\.|::)\s*$/u.test(decoder.decode(afterBytes.subarray(Math.max(0, place - 32), place)))) continue;
      places.push(place);
    }
    shift += encoder.encode(text).length - (e.span!.end - e.span!.start);
  }
  if (!places.includes(binder) || places.length < 2) return null;
  let out = '';
  let from = 0;
  for (const p of places) {
    const head = decoder.decode(afterBytes.subarray(from, p));
    // A struct literal's shorthand field (`Shlex { in_iter, … }`) keeps its field name: `in_iter: sweep_v`.
    const shorthand = p !== binder && isShorthandField(after.slice(0, decoder.decode(afterBytes.subarray(0, p)).length), decoder.decode(afterBytes.subarray(p + encoder.encode(word).length)));
    out += head + (shorthand ? `${word}: ${input.name}` : input.name);
    from = p + encoder.encode(word).length;
  }
  return out + decoder.decode(afterBytes.subarray(from));
}

/**
 * Whether a name between `before` and `rest` stands alone as a field of a struct literal (`Name { a, x, b }`): right
 * after `{` or `,` and before `,` or `}`, in braces that follow a type's name (capitalised, as Rust's types are).
 * Renaming it there names a field that does not exist (the sweep: shlex, percent-encoding, scopeguard).
 */
function isShorthandField(before: string, rest: string): boolean {
  if (!/[{,]\s*$/u.test(before) || !/^\s*[,}]/u.test(rest)) return false;
  let depth = 0;
  for (let i = before.length - 1; i >= 0; i--) {
    const c = before[i]!;
    if (')]}'.includes(c)) depth++;
    else if ('([{'.includes(c)) {
      if (depth > 0) {
        depth--;
        continue;
      }
      return c === '{' && /(?:^|[^\p{XID_Continue}])(?:Self|[\p{Lu}][\p{XID_Continue}]*)(?:\s*::\s*<[^{}]*>)?\s*$/u.test(before.slice(0, i));
    }
  }
  return false;
}

/** One edit over the stretch where the file changed: the common head and tail stay as they are. */
function oneEdit(input: CreatedName, final: Uint8Array): EditRequest[] {
  // One edit over the stretch where the file changed: the common head and tail stay as they are.
  let head = 0;
  while (head < final.length && head < input.original.length && final[head] === input.original[head]) head++;
  let tail = 0;
  while (tail < final.length - head && tail < input.original.length - head && final[final.length - 1 - tail] === input.original[input.original.length - 1 - tail]) tail++;
  // Never cut a UTF-8 sequence: move the cut back to a character's first byte.
  while (head > 0 && (input.original[head]! & 0xc0) === 0x80) head--;
  while (tail > 0 && (input.original[input.original.length - tail]! & 0xc0) === 0x80) tail--;
  const span = { start: head, end: input.original.length - tail };
  const edit: EditRequest = { file: input.file, span, old_text: decoder.decode(input.original.subarray(span.start, span.end)), new_text: decoder.decode(final.subarray(head, final.length - tail)) };
  return [...input.edits.filter((e) => e.file !== input.file), edit];
}
