// Semantic conflicts: uses of a symbol a branch renamed, moved or re-signed that the other side added since the branch
// was made. git merges them without a conflict, and the merged code calls a name (or a signature) that no longer exists.
import { addedLines } from '../../git/history.js';
import { readBlobs } from '../../git/objects.js';
import { entriesAt } from '../../git/snapshot.js';
import { decodeText } from '../../core/text.js';
import type { OperationRecordJSON } from '../change/record.js';
import { configFor, configuredPython } from '../workspace/config.js';
import type { Workspace } from '../workspace/workspace.js';
import type { TugBranch } from '../replay/branch.js';

/** The operations whose recorded symbol changes what other code must say to use it. */
const CHANGES_USES = new Set(['rename-symbol', 'move-symbol', 'change-signature']);

export interface SemanticConflict {
  file: string;
  line: number;
  col: number;
  /** The line, trimmed. */
  text: string;
  symbol: string;
  operation: string;
  /** The branch commit whose operation the use misses. */
  commit: string;
  /** analysis: the Python analyzer resolved it to the symbol; name: a whole-word match of the old name (other languages). */
  found_by: 'analysis' | 'name';
}

/** Uses the other side (`into`, a tree, at `intoCommit`; since `base`, its merge base with the branch) added of each symbol the branch's operations changed. */
export async function semanticConflicts(ws: Workspace, branch: TugBranch, base: string, intoCommit: string, into: string): Promise<SemanticConflict[]> {
  const steps = branch.steps.filter((s) => s.record?.replay === 'operation' && s.record.symbol && CHANGES_USES.has(s.record.operation));
  if (steps.length === 0) return [];
  const added = await addedLines(ws.repo, base, intoCommit);
  if (added.size === 0) return [];
  const inAdded = (file: string, line: number) => (added.get(file) ?? []).some(([from, to]) => line >= from && line <= to);
  const out: SemanticConflict[] = [];
  for (const step of steps) {
    const record = step.record!;
    const symbol = record.symbol!;
    const uses = /\.pyi?$/.test(symbol.file) ? await pythonUses(ws, record, into) : await nameUses(ws, record, into, added);
    for (const use of uses) {
      if (!inAdded(use.file, use.line)) continue;
      out.push({ ...use, symbol: symbol.qualified_name ?? symbol.name, operation: record.operation, commit: step.commit, found_by: /\.pyi?$/.test(symbol.file) ? 'analysis' : 'name' });
    }
  }
  const lines = await lineTexts(ws, into, out);
  for (const c of out) c.text = lines.get(`${c.file}:${c.line}`) ?? '';
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col));
}

type Use = { file: string; line: number; col: number; text: string };

/** Every occurrence of the Python symbol in `into`, by its id (the recorded one, or the one at its recorded place). */
async function pythonUses(ws: Workspace, record: OperationRecordJSON, into: string): Promise<Use[]> {
  const { listSymbols, referencesOf } = await import('../../python/symbols.js');
  const python = configuredPython(await configFor(ws.repo, {}));
  const symbol = record.symbol!;
  let id = symbol.id;
  if (!id) {
    const listed = await listSymbols(ws.repo, ws.session, record.snapshot, symbol.file, python).catch(() => []);
    id = listed.find((s) => s.name === symbol.name && s.location.line === symbol.line)?.id;
  }
  if (!id) return [];
  // The symbol may be gone from the other side (removed there): then nothing there uses it.
  const references = await referencesOf(ws.repo, ws.session, into, id, python).catch(() => []);
  // A moved symbol breaks only where it is imported (or reached as module.attr); a call through a fixed import is fine.
  const kinds = record.operation === 'move-symbol' ? ['import', 'attribute'] : record.operation === 'change-signature' ? ['call', 'reference'] : null;
  return references.filter((r) => r.kind !== 'definition' && (!kinds || kinds.includes(r.kind))).map((r) => ({ file: r.location.file, line: r.location.line, col: r.location.col, text: '' }));
}

/** Whole-word matches of the old name on the added lines of files in the symbol's language. */
async function nameUses(ws: Workspace, record: OperationRecordJSON, into: string, added: Map<string, Array<[number, number]>>): Promise<Use[]> {
  const symbol = record.symbol!;
  const ext = symbol.file.slice(symbol.file.lastIndexOf('.'));
  const files = [...added.keys()].filter((f) => f.endsWith(ext));
  const pattern = new RegExp(`(?<![\\w])${symbol.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`, 'gu');
  const texts = await fileTexts(ws, into, files);
  const uses: Use[] = [];
  for (const file of files) {
    const lines = texts.get(file)?.split('\n') ?? [];
    for (const [index, text] of lines.entries()) {
      for (const hit of text.matchAll(pattern)) uses.push({ file, line: index + 1, col: Buffer.byteLength(text.slice(0, hit.index)) + 1, text: '' });
    }
  }
  return uses;
}

async function fileTexts(ws: Workspace, tree: string, files: readonly string[]): Promise<Map<string, string>> {
  const entries = await entriesAt(ws.repo, tree, files);
  const blobs = await readBlobs(ws.repo, [...entries.values()].map((e) => e.oid));
  const out = new Map<string, string>();
  for (const [file, entry] of entries) {
    const text = decodeText(blobs.get(entry.oid) ?? new Uint8Array());
    if (text.ok) out.set(file, text.text);
  }
  return out;
}

async function lineTexts(ws: Workspace, tree: string, uses: readonly { file: string; line: number }[]): Promise<Map<string, string>> {
  const texts = await fileTexts(ws, tree, [...new Set(uses.map((u) => u.file))]);
  const out = new Map<string, string>();
  for (const u of uses) out.set(`${u.file}:${u.line}`, (texts.get(u.file)?.split('\n')[u.line - 1] ?? '').trim());
  return out;
}
