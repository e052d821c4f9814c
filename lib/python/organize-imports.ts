// organize-imports for Python: ruff's own import rules (I001 sorting and grouping, F401 unused imports), run as
// WebAssembly in this process and applied fix by fix until nothing changes, as `ruff check --fix` does.
import { TugError } from '../core/errors.js';
import { lineStarts } from '../core/text.js';
import { loadRuff } from './ruff-wasm.js';
import { mark } from '../core/timing.js';

/** The isort settings tug passes on to ruff (ruff's names), read from the project's configuration. */
export type IsortSettings = Record<string, unknown>;

export interface OrganizeOptions {
  /** The repository's own top-level packages and modules: ruff cannot look at the disk from WebAssembly. */
  firstParty: readonly string[];
  isort: IsortSettings;
  lineLength?: number | undefined;
  /** `__init__.py`: its imports are the package's interface, so unused ones are kept and only sorted. */
  packageInit: boolean;
}

interface RuffEdit {
  content: string | null;
  location: { row: number; column: number };
  end_location: { row: number; column: number };
}
interface RuffDiagnostic {
  code: string | null;
  message: string;
  start_location: { row: number; column: number };
  fix: { edits: RuffEdit[] } | null;
}
interface RuffWorkspace {
  check(contents: string): RuffDiagnostic[];
}

const workspaces = new Map<string, RuffWorkspace>();
/**
 * ruff leaves at most one blank line after the imports of a stub (`.pyi`), but WebAssembly checks text as a `.py` file
 * and would ask for two: a stub gets the stub's limit through the setting itself.
 */
function stubLinesAfter(isort: IsortSettings): IsortSettings {
  const configured = typeof isort['lines-after-imports'] === 'number' ? (isort['lines-after-imports'] as number) : -1;
  return { ...isort, 'lines-after-imports': configured < 0 ? 1 : Math.min(configured, 1) };
}

async function ruffFor(options: OrganizeOptions, stub: boolean): Promise<RuffWorkspace> {
  const isort = stub ? stubLinesAfter(options.isort) : options.isort;
  const settings = {
    ...(options.lineLength ? { 'line-length': options.lineLength } : {}),
    lint: { select: options.packageInit ? ['I001'] : ['I001', 'F401'], isort: { ...isort, 'known-first-party': [...new Set([...((options.isort['known-first-party'] as string[] | undefined) ?? []), ...options.firstParty])].sort() } },
  };
  const key = JSON.stringify(settings);
  const known = workspaces.get(key);
  if (known) return known;
  const { Workspace, PositionEncoding } = await loadRuff();
  let workspace: RuffWorkspace;
  try {
    workspace = new Workspace(settings, PositionEncoding.Utf8) as unknown as RuffWorkspace;
  } catch (error) {
    throw new TugError('InvalidArgument', `the project's isort settings are not ones ruff accepts: ${String(error)}`, { details: { argument: 'isort settings', reason: String(error) } });
  }
  workspaces.set(key, workspace);
  mark('ruff: workspace');
  return workspace;
}

/** Ruff's 1-based row and UTF-8 byte column as an offset into the text's bytes. */
function offsetOf(starts: readonly number[], at: { row: number; column: number }): number {
  return starts[at.row - 1]! + at.column - 1;
}

/**
 * Applies the fixes that do not overlap an earlier one (ruff's own order), at most `limit` of them; returns null
 * when there were none.
 */
function applyFixes(bytes: Uint8Array, diagnostics: readonly RuffDiagnostic[], limit = Infinity): Uint8Array | null {
  const starts = lineStarts(bytes);
  const starts2 = [...starts, bytes.length];
  const spans: Array<{ start: number; end: number; content: Uint8Array }> = [];
  const fixes = diagnostics
    .map((diagnostic) =>
      (diagnostic.fix?.edits ?? []).map((e) => ({
        start: offsetOf(starts2, e.location),
        end: offsetOf(starts2, e.end_location),
        content: new TextEncoder().encode(e.content ?? ''),
      })),
    )
    .filter((edits) => edits.length > 0);
  // `ruff check --fix` takes fixes in the order of their first edit (a stable sort): the same order here gives the
  // same result where an F401 removal and an I001 rewrite overlap (a comment above a removed import stays put).
  const first = (edits: ReadonlyArray<{ start: number }>) => Math.min(...edits.map((e) => e.start));
  fixes.sort((a, b) => first(a) - first(b));
  let taken = 0;
  for (const edits of fixes) {
    if (taken >= limit) break;
    if (edits.length === 0 || edits.some((e) => spans.some((s) => e.start < s.end && s.start < e.end))) continue;
    spans.push(...edits);
    taken++;
  }
  if (spans.length === 0) return null;
  spans.sort((a, b) => a.start - b.start);
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const span of spans) {
    parts.push(bytes.subarray(at, span.start), span.content);
    at = span.end;
  }
  parts.push(bytes.subarray(at));
  return Buffer.concat(parts);
}

/**
 * Rows the file asks import tools to leave alone: a `# isort: skip` line and everything between `# isort: off` and
 * `# isort: on`. ruff keeps them out of sorting; tug also keeps their unused imports (they are there on purpose).
 */
function leftAlone(text: string): Set<number> {
  const rows = new Set<number>();
  let off = false;
  text.split('\n').forEach((line, index) => {
    if (/#\s*isort:\s*off\b/.test(line)) off = true;
    if (off || /#\s*isort:\s*skip(_file)?\b/.test(line)) rows.add(index + 1);
    if (/#\s*isort:\s*on\b/.test(line)) off = false;
  });
  return rows;
}

/** The file with its imports organized; the same bytes when there is nothing to do. */
export async function organizeImports(path: string, bytes: Uint8Array, options: OrganizeOptions): Promise<Uint8Array> {
  // `# isort: skip_file` keeps the whole file as it is, as isort and ruff do.
  if (/#\s*isort:\s*skip_file\b/.test(new TextDecoder().decode(bytes))) return bytes;
  const ruff = await ruffFor(options, path.endsWith('.pyi'));
  const check = (bytes: Uint8Array): { diagnostics: RuffDiagnostic[]; broken?: RuffDiagnostic } => {
    const text = new TextDecoder().decode(bytes);
    let all: RuffDiagnostic[];
    try {
      all = ruff.check(text);
    } catch (error) {
      throw new TugError('SourceSyntaxError', `${path} could not be read by ruff: ${String(error)}`, { details: { path } });
    }
    const kept = leftAlone(text);
    const broken = all.find((d) => d.code === null || d.code === 'invalid-syntax');
    return { diagnostics: all.filter((d) => d.code === 'I001' || (d.code === 'F401' && !kept.has(d.start_location.row))), ...(broken ? { broken } : {}) };
  };
  let current = bytes;
  let checked = check(current);
  if (checked.broken) {
    const broken = checked.broken;
    throw new TugError('SourceSyntaxError', `${path} does not parse: ${broken.message}`, {
      details: { path },
      location: { file: path, line: broken.start_location.row, col: broken.start_location.column },
    });
  }
  for (let round = 0; round < 20; round++) {
    let next = applyFixes(current, checked.diagnostics);
    if (next === null) return current;
    let after = check(next);
    if (after.broken) {
      // ruff --fix takes one removal per enclosing statement and pass: two unused imports that are a block's whole
      // body, removed together, leave it empty, and one at a time the second becomes `pass`.
      next = applyFixes(current, checked.diagnostics, 1)!;
      after = check(next);
      if (after.broken) throw new TugError('SourceSyntaxError', `ruff's fixes of ${path}'s imports do not parse: ${after.broken.message}`, { details: { path } });
    }
    current = next;
    checked = after;
  }
  return current;
}
