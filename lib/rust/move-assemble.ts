// Writes a planned Rust move: the moved text (with its own paths fixed) appended to the destination or a new file,
// its imports added there, the old module without it (importing it back or re-exporting it), the parent's `mod`
// line for a new module, and every rewritten path. A file rustfmt left unchanged before is formatted after, as
// `cargo fmt` would; other files keep their layout. Each changed file becomes one edit anchored on its old text.
import { TugError } from '../core/errors.js';
import type { EditRequest } from '../core/patchset.js';
import type { WarningJSON } from '../core/schemas.js';
import { movedCodeNeeds, type Import } from './move-deps.js';
import type { TopItem } from './move-items.js';
import { declIn, modulePath, type Destination } from './move-modules.js';
import type { RefOutcome } from './move-refs.js';
import { removeTrees } from './move-refs.js';
import { applyStrEdits, depths, headEnd, importPoint, leavesOf, maskRust, useItems, wholeLines, type StrEdit, type UseItem, type UseTree } from './move-text.js';
import type { VisibilityPlan } from './move-visibility.js';
import { rustfmt, rustfmtSettings } from './rustfmt-imports.js';

export interface AssembleInput {
  texts: ReadonlyMap<string, string>;
  source: string;
  srcText: string;
  masked: string;
  items: readonly TopItem[];
  moved: readonly TopItem[];
  item: TopItem;
  src: readonly string[];
  dest: Destination;
  destItems: readonly TopItem[];
  outcome: RefOutcome;
  visibility: VisibilityPlan;
  members: ReadonlyArray<{ at: number; name: string }>;
  keepReexport: boolean;
  definitionAt: (at: number) => Promise<{ file: string; at: number } | null>;
  rustfmtRoot: string;
}

export async function assembleMove(input: AssembleInput): Promise<{ edits: EditRequest[]; creates: Array<{ path: string; content: string }>; warnings: WarningJSON[] }> {
  const { source, srcText, masked, moved, item, dest } = input;
  const destFile = dest.module.file;
  const destSegs = dest.module.segs;
  const movedNames = new Set([item.name]);
  const siblings = input.items.filter((i) => !moved.includes(i) && !/^(?:unsafe\s+)?impl\b/.test(i.header.keyword));
  const needs = await movedCodeNeeds({
    text: srcText, masked, moved, movedNames, srcSegs: input.src, siblings,
    childModule: (name) => declIn(source, srcText, name) !== null,
    definitionAt: input.definitionAt,
    source,
  });
  const warnings: WarningJSON[] = [];
  const perFile = new Map<string, StrEdit[]>();
  const push = (file: string, edit: StrEdit) => perFile.set(file, [...(perFile.get(file) ?? []), edit]);
  for (const e of input.outcome.edits) push(e.file, e);
  for (const e of needs.edits) push(source, e);
  if (input.visibility.edit) push(source, input.visibility.edit);
  for (const m of input.members) push(source, { start: m.at, end: m.at, text: 'pub(crate) ' });
  const destUnderSource = destSegs.length > input.src.length && input.src.every((s, i) => destSegs[i] === s);
  for (const sibling of needs.needVisible) {
    if (destUnderSource) continue;
    push(source, { start: sibling.header.visStart, end: sibling.header.visStart, text: 'pub(crate) ' });
    warnings.push({ code: 'VisibilityChanged', message: `${sibling.name} is now pub(crate): the moved code uses it from another module`, details: { name: sibling.name, from: 'private', to: 'pub(crate)' } });
  }

  // The moved text, with the edits that fall inside it.
  const sourceEdits = perFile.get(source) ?? [];
  const inside = (e: StrEdit, r: TopItem) => e.start >= r.start && e.end <= r.end;
  const movedText = moved.map((r) => applyStrEdits(srcText.slice(r.start, r.end), sourceEdits.filter((e) => inside(e, r)).map((e) => ({ ...e, start: e.start - r.start, end: e.end - r.start })))).join('\n\n');
  const rest = sourceEdits.filter((e) => !moved.some((r) => inside(e, r)));
  for (const r of moved) rest.push({ ...wholeLines(srcText, r.start, r.end), text: '' });
  rest.push(...unusedAfterMove(input, needs.imports));
  const newPath = `crate${destSegs.length ? `::${modulePath(destSegs)}` : ''}::${item.name}`;
  const back = input.keepReexport ? `${input.visibility.vis ? `${input.visibility.vis} ` : ''}use ${newPath};` : input.visibility.importInSource ? `use ${newPath};` : null;
  if (input.keepReexport && back) rest.push(importEdit(srcText, masked, [back], rest));
  else if (back) rest.push(...importsForBareUses(srcText, masked, input.visibility.bareInSource, input.outcome.useRefs.filter((r) => r.file === source).map((r) => r.at), back, rest));
  perFile.set(source, rest);

  // The destination's imports: what the moved code needs, less what it already has; a different binding is a conflict.
  const destText = dest.create ? '' : input.texts.get(destFile)!;
  const bound = new Map<string, string>();
  for (const use of useItems(destText).filter((u) => u.depth === 0)) for (const leaf of leavesOf(use.tree)) if (leaf.name) bound.set(leaf.name, leaf.path.map((s) => s.text).join('::'));
  const defined = new Set(input.destItems.filter((i) => !/^(?:unsafe\s+)?impl\b/.test(i.header.keyword)).map((i) => i.name));
  const removedImports = new Set((perFile.get(destFile) ?? []).length > 0 ? [item.name] : []);
  if (defined.has(item.name) || (bound.has(item.name) && !removedImports.has(item.name))) {
    throw new TugError('NameConflict', `${destFile} already has a ${item.name}`, { details: { name: item.name, conflicts: [{ file: destFile }] } });
  }
  const ownPrefix = `crate${destSegs.length ? `::${modulePath(destSegs)}` : ''}::`;
  const imports: Import[] = needs.imports.filter((imp) => {
    if (imp.alias === null && imp.path === `${ownPrefix}${imp.name}`) return false;
    if (imp.alias === '_') return true;
    const have = bound.get(imp.alias ?? imp.name);
    if (have === undefined && !defined.has(imp.alias ?? imp.name)) return true;
    if (have === imp.path) return false;
    throw new TugError('NameConflict', `the moved code uses ${imp.name} (${imp.path}), but ${destFile} already binds that name`, { details: { name: imp.name, conflicts: [{ file: destFile }] } });
  });
  const lines = imports.map((i) => `${i.cfg.map((c) => `${c}\n`).join('')}use ${i.path}${i.alias ? ` as ${i.alias}` : ''};`);
  const creates: Array<{ path: string; content: string }> = [];
  if (dest.create) {
    creates.push({ path: destFile, content: `${lines.length ? `${lines.join('\n')}\n\n` : ''}${movedText}\n` });
    push(dest.create.parent, { start: dest.create.declAt, end: dest.create.declAt, text: dest.create.declText });
  } else {
    const destEdits = perFile.get(destFile) ?? [];
    if (lines.length) destEdits.push(importEdit(destText, maskRust(destText), lines, destEdits));
    destEdits.push({ start: destText.length, end: destText.length, text: `${destText.endsWith('\n') || destText === '' ? '' : '\n'}\n${movedText}\n` });
    perFile.set(destFile, destEdits);
  }

  const edits: EditRequest[] = [];
  for (const [file, list] of [...perFile].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const before = input.texts.get(file)!;
    let after: string;
    try {
      after = applyStrEdits(before, list);
    } catch {
      throw new TugError('InternalError', `the move's edits of ${file} overlap`, { details: { file } });
    }
    after = await formatted(input.rustfmtRoot, file, before, after);
    if (after !== before) edits.push(oneEdit(file, before, after));
  }
  for (const c of creates) c.content = await formatted(input.rustfmtRoot, c.path, null, c.content);
  return { edits, creates, warnings };
}

/**
 * The old module's imports only the moved code used, taken out. A name still written in the file stays, and so does
 * everything when a child module file may reach the imports through `use super::*`.
 */
function unusedAfterMove(input: AssembleInput, imports: readonly Import[]): StrEdit[] {
  const { srcText, masked, moved, source } = input;
  const children = [...input.texts.keys()].filter((f) => f !== source && input.texts.get(f)!.includes('super::*'));
  if (children.some((f) => f.startsWith(source.replace(/(mod|lib|main)\.rs$/, '').replace(/\.rs$/, '/')))) return [];
  const uses = useItems(srcText, masked).filter((u) => u.depth === 0);
  let rest = masked;
  for (const span of [...moved, ...uses]) rest = rest.slice(0, span.start) + ' '.repeat(span.end - span.start) + rest.slice(span.end);
  const byItem = new Map<UseItem, Set<UseTree>>();
  for (const imp of imports) {
    if (!imp.from || imp.keep) continue;
    const name = imp.alias ?? imp.name;
    if (new RegExp(`(?<![\\p{XID_Continue}])${name}(?![\\p{XID_Continue}])`, 'u').test(rest)) continue;
    byItem.set(imp.from.item, new Set([...(byItem.get(imp.from.item) ?? []), imp.from.tree]));
  }
  return [...byItem].flatMap(([item, trees]) => removeTrees(srcText, item, trees));
}

/**
 * The import of the moved item for the code left behind: at the top when the module itself names it, else in each
 * inline module that does (a `mod tests` reaching it through `use super::*` keeps it there, so a build without
 * cfg(test) has no unused import).
 */
function importsForBareUses(text: string, masked: string, bare: readonly number[], imported: readonly number[], line: string, others: readonly StrEdit[]): StrEdit[] {
  const modules = new Map<number, number>();
  const importedIn = new Set(imported.map((at) => inlineModuleAt(masked, at)));
  for (const at of bare) {
    const open = inlineModuleAt(masked, at);
    if (importedIn.has(open)) continue;
    if (open === null) return [importEdit(text, masked, [line], others)];
    modules.set(open, at);
  }
  const depth = depths(masked);
  return [...modules.keys()].map((open) => {
    const close = matching(masked, open);
    const inner = useItems(text, masked).filter((u) => u.start > open && u.end < close && depth[u.start] === depth[open]! + 1);
    const last = inner[inner.length - 1];
    const at = last ? text.indexOf('\n', last.end) + 1 : text.indexOf('\n', open) + 1;
    const indent = /^[ \t]*/.exec(text.slice(at))![0] || '    ';
    return { start: at, end: at, text: `${indent}${line}\n` };
  });
}

/** The `{` of the innermost `mod name {` around `at`, or null at the top of the file. */
function inlineModuleAt(masked: string, at: number): number | null {
  let found: number | null = null;
  for (const m of masked.matchAll(/(?<![\p{XID_Continue}])mod\s+[\p{XID_Continue}]+\s*\{/gu)) {
    const open = m.index + m[0].length - 1;
    if (open < at && at < matching(masked, open)) found = open;
  }
  return found;
}

function matching(masked: string, open: number): number {
  let depth = 0;
  for (let i = open; i < masked.length; i++) {
    if (masked[i] === '{') depth++;
    else if (masked[i] === '}' && --depth === 0) return i;
  }
  return masked.length;
}

/** An insertion of `lines` as top-level `use` items, placed clear of the other edits. */
function importEdit(text: string, masked: string, lines: string[], others: readonly StrEdit[]): StrEdit {
  const point = importPoint(text, masked);
  const clash = others.some((e) => e.start < point.at && point.at < e.end);
  const at = clash ? headEnd(text) : point.at;
  const block = lines.map((l) => `${l}\n`).join('');
  if (point.after === 'use' && !clash) return { start: at, end: at, text: block };
  return { start: at, end: at, text: at === 0 ? `${block}\n` : `\n${block}` };
}

/** rustfmt's layout when the file had it before (a new file always gets it); otherwise the text as edited. */
async function formatted(root: string, file: string, before: string | null, after: string): Promise<string> {
  try {
    const settings = await rustfmtSettings(root, file);
    if (before !== null && (await rustfmt(before, settings)) !== before) return after;
    return (await rustfmt(after, settings)) ?? after;
  } catch {
    return after;
  }
}

/** One edit from the first to the last changed character, in bytes. */
function oneEdit(file: string, before: string, after: string): EditRequest {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const start = Buffer.byteLength(before.slice(0, head));
  const oldText = before.slice(head, before.length - tail);
  return { file, span: { start, end: start + Buffer.byteLength(oldText) }, old_text: oldText, new_text: after.slice(head, after.length - tail) };
}
