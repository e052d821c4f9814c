// Symbol listings and reference lookups by symbol id, for MCP resources: the same ids analyze-impact reports.
import { TugError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import { lineStarts, positionOf } from '../core/text.js';
import type { Repo } from '../git/repo.js';
import { loadPythonProject, type LoadedProject } from './load-project.js';
import { entityKey, type Entity } from './project.js';

export interface SymbolEntry {
  id: string;
  name: string;
  kind: string;
  location: { file: string; line: number; col: number; byte_start: number; byte_end: number };
  container?: string;
}

export function symbolId(loaded: LoadedProject, entity: Entity): string {
  return `sym_${sha256(entityKey(loaded.resolver.normalize(entity))).slice(0, 12)}`;
}

/** Module-level definitions and class members of one file (imports excluded: they are someone else's symbols). */
function definitions(loaded: LoadedProject, file: string): SymbolEntry[] {
  const info = loaded.project.files.get(file);
  if (!info) return [];
  const starts = lineStarts(loaded.bytesOf.get(file)!);
  const out: SymbolEntry[] = [];
  for (const binding of info.facts.bindings) {
    if (info.importOf.has(binding.id) || (binding.symbol !== undefined && binding.symbol !== binding.id)) continue;
    const scope = info.scopes.get(binding.scope);
    if (scope?.kind !== 'module' && scope?.kind !== 'class') continue;
    const entity = loaded.project.entityOfBinding(info, binding);
    const kind = binding.kind === 'class' ? 'class' : binding.kind === 'function' ? (scope.kind === 'class' ? 'method' : 'function') : 'variable';
    const container = scope.kind === 'class' ? loaded.project.ownerPath(info, scope.id) : undefined;
    out.push({
      id: symbolId(loaded, entity),
      name: binding.name,
      kind,
      location: { file, ...positionOf(starts, binding.span[0]), byte_start: binding.span[0], byte_end: binding.span[1] },
      ...(container ? { container } : {}),
    });
  }
  return out;
}

type Session = { dir: string; paths: { facts: string; workers: string } };

export async function listSymbols(repo: Repo, session: Session, tree: string, file: string | undefined, python?: string) {
  const loaded = await loadPythonProject(repo, session, tree, python);
  const files = file ? [file] : [...loaded.bytesOf.keys()].sort();
  if (file && !loaded.bytesOf.has(file)) throw new TugError('FileNotFound', `${file} is not a Python file in the workspace`, { details: { path: file } });
  return files.flatMap((f) => definitions(loaded, f));
}

export async function referencesOf(repo: Repo, session: Session, tree: string, id: string, python?: string) {
  const loaded = await loadPythonProject(repo, session, tree, python);
  for (const file of [...loaded.bytesOf.keys()].sort()) {
    const info = loaded.project.files.get(file);
    if (!info) continue;
    for (const binding of info.facts.bindings) {
      if (info.importOf.has(binding.id)) continue;
      const entity = loaded.project.entityOfBinding(info, binding);
      if (symbolId(loaded, entity) !== id) continue;
      return loaded.resolver.occurrences(entity).map((o) => {
        const { line, col } = positionOf(lineStarts(loaded.bytesOf.get(o.file)!), o.span[0]);
        return { location: { file: o.file, line, col, byte_start: o.span[0], byte_end: o.span[1] }, kind: o.kind === 'keyword' || o.kind === 'all' ? 'reference' : o.kind };
      });
    }
  }
  throw new TugError('SymbolNotFound', `no symbol with id ${id} in this snapshot (ids are stable within a snapshot)`, { details: { symbol_id: id } });
}
