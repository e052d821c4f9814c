// organize-imports for TypeScript/JavaScript: the language service's organizeImports (sort, merge, drop unused) on each file, as byte-anchored edits.
import type { EditRequest } from '../core/patchset.js';
import type { Repo } from '../git/repo.js';
import { rewriteEdits } from '../core/text-edits.js';
import { serviceCall } from './compat.js';
import { formatOf } from './format.js';
import { editable } from './projects.js';
import { syntaxError } from './rename-plan.js';
import { openTsWorkspace, requireScript } from './workspace.js';

export interface TsImportsPlan {
  edits: EditRequest[];
  /** Files whose imports changed. */
  changed: string[];
}

/** The service's changes, non-overlapping spans of the old text, applied from the end. */
function applyChanges(text: string, changes: ReadonlyArray<{ span: { start: number; length: number }; newText: string }>): string {
  let out = text;
  for (const c of [...changes].sort((a, b) => b.span.start - a.span.start)) out = out.slice(0, c.span.start) + c.newText + out.slice(c.span.start + c.span.length);
  return out;
}

// A list written one name a line whose last name has a comma (`  c,\n} from`): compilers before 5.0 reprint it without
// that comma, a change of style the user did not ask for, so in a file written that way the comma is put back.
const TRAILING_COMMA = /,[ \t]*\r?\n[ \t]*\}[ \t]*from[ \t]/;
const LAST_ITEM = /([^\s,{])(\r?\n[ \t]*\}[ \t]*from[ \t])/g;

export async function planTsImports(repo: Repo, tree: string, files: readonly string[]): Promise<TsImportsPlan> {
  const ws = await openTsWorkspace(repo, tree, files[0]!);
  const { ts } = ws.compiler;
  const edits: EditRequest[] = [];
  const changed = new Set<string>();
  for (const file of files) {
    const bytes = requireScript(ws, file);
    const absolute = ws.fs.absolute(file);
    const project = ws.containing(file)[0]!;
    const parseErrors = project.service.getSyntacticDiagnostics(absolute);
    if (parseErrors.length > 0) throw syntaxError(ts, file, bytes, parseErrors[0]!);
    const text = ws.fs.readFile(absolute)!;
    // The file's own line ending, indentation and semicolon style for the lines the service writes.
    const format = formatOf(ts, text);
    const changes = serviceCall(ts, file, () => project.service.organizeImports({ type: 'file', fileName: absolute, skipDestructiveCodeActions: false }, format, { quotePreference: 'auto' }));
    // The service rewrites the whole import block even when it would come out the same: the file's new text is
    // compared with the old and only the lines that differ become edits.
    const own = changes.filter((c) => editable(ws.fs, c.fileName, ws.paths) === file).flatMap((c) => c.textChanges);
    const after = applyChanges(text, TRAILING_COMMA.test(text) ? own.map((c) => ({ ...c, newText: c.newText.replace(LAST_ITEM, '$1,$2') })) : own);
    if (after !== text) {
      edits.push(...rewriteEdits(file, text, after));
      changed.add(file);
    }
  }
  return { edits, changed: [...changed].sort() };
}
