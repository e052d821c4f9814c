// Under `isolatedDeclarations` every exported declaration needs a type a reader can see without inference. A move exports what the moved code needs from the old module (`const m = s * 60;` becomes `export const m = …`) and the moved declaration itself: each new such error gets the annotation the language service's own quick fix infers, else the move is refused.
import type * as TS from 'typescript';
import { TugError } from '../core/errors.js';
import { lineStarts, positionOf } from '../core/text.js';
import { OffsetMap } from './files.js';
import type { TsProject } from './projects.js';
import type { TsWorkspace } from './workspace.js';

/** The compiler's isolatedDeclarations diagnostics (TS9007 function return type … TS9039 private name in a type). */
const isIsolated = (code: number) => code >= 9007 && code <= 9039;

/** The quick fixes that only write a type the checker inferred (not the rewrites into `satisfies`, extracted variables…). */
const ANNOTATION = /^(Add annotation of type|Add return type) /;

export interface AnnotateInput {
  ws: TsWorkspace;
  project: TsProject;
  /** New text of each file the move changes or creates; rewritten in place with the annotations. */
  after: Map<string, string>;
  /** The files whose declarations the move exports (the old module and the destination). */
  files: readonly string[];
  format: TS.FormatCodeSettings;
  preferences: TS.UserPreferences;
  subject: string;
}

export function annotateNewExports(input: AnnotateInput): void {
  const { ws, project, after, format, preferences } = input;
  if (!project.options.isolatedDeclarations) return;
  const { ts } = ws.compiler;
  const files = input.files.filter((f) => after.has(f));
  const before = new Map(files.map((f) => [f, ws.paths.has(f) ? keys(project, ws.fs.absolute(f)) : []]));
  for (let round = 0; round < 2; round++) {
    for (const [file, text] of after) ws.projects.overlay.set(ws.fs.absolute(file), { text, version: 1 });
    try {
      let left: { file: string; diagnostic: TS.Diagnostic }[] = [];
      const fixed = new Map<string, TS.TextChange[]>();
      for (const file of files) {
        const absolute = ws.fs.absolute(file);
        for (const diagnostic of newErrors(project, absolute, before.get(file)!)) {
          const start = diagnostic.start ?? 0;
          const fix = round === 0 ? project.service.getCodeFixesAtPosition(absolute, start, start + (diagnostic.length ?? 0), [diagnostic.code], format, preferences).find((f) => ANNOTATION.test(f.description)) : undefined;
          const changes = fix?.changes.filter((c) => c.fileName === absolute).flatMap((c) => c.textChanges) ?? [];
          if (changes.length === 0) left.push({ file, diagnostic });
          else fixed.set(file, [...(fixed.get(file) ?? []), ...changes]);
        }
      }
      if (left.length > 0) refuse(ts, ws, input.subject, left);
      if (fixed.size === 0) return;
      for (const [file, changes] of fixed) after.set(file, applyDistinct(after.get(file)!, changes));
    } finally {
      for (const file of after.keys()) ws.projects.overlay.delete(ws.fs.absolute(file));
    }
  }
}

/** A file's isolatedDeclarations errors as `code` + the text they point at (positions move; the declarations do not). */
function keys(project: TsProject, absolute: string): string[] {
  const source = project.service.getProgram()?.getSourceFile(absolute);
  if (!source) return [];
  return project.service.getSemanticDiagnostics(absolute).filter((d) => isIsolated(d.code)).map((d) => key(source, d));
}

const key = (source: TS.SourceFile, d: TS.Diagnostic) => `${d.code}\0${source.text.slice(d.start ?? 0, (d.start ?? 0) + (d.length ?? 0))}`;

/** The errors of the file's new text that its old text did not have (as many of each as the old text had are old). */
function newErrors(project: TsProject, absolute: string, old: readonly string[]): TS.Diagnostic[] {
  const source = project.service.getProgram()?.getSourceFile(absolute);
  if (!source) return [];
  const remaining = [...old];
  return project.service.getSemanticDiagnostics(absolute).filter((d) => {
    if (!isIsolated(d.code)) return false;
    const at = remaining.indexOf(key(source, d));
    if (at === -1) return true;
    remaining.splice(at, 1);
    return false;
  });
}

/** Applies the fixes of several declarations at once; an identical change asked twice (one import for two) once. */
function applyDistinct(text: string, changes: readonly TS.TextChange[]): string {
  const seen = new Set<string>();
  const ordered = changes.filter((c) => {
    const id = `${c.span.start}:${c.span.length}:${c.newText}`;
    return !seen.has(id) && seen.add(id);
  });
  ordered.sort((a, b) => b.span.start - a.span.start || b.span.length - a.span.length);
  let out = text;
  for (const c of ordered) out = out.slice(0, c.span.start) + c.newText + out.slice(c.span.start + c.span.length);
  return out;
}

function refuse(ts: typeof TS, ws: TsWorkspace, subject: string, left: { file: string; diagnostic: TS.Diagnostic }[]): never {
  const spots = left.map(({ file, diagnostic }) => {
    // Where the user can find it: the same text in the file as it is now (a declaration the move only exports), else
    // in the file the move writes.
    const start = diagnostic.start ?? 0;
    const wanted = diagnostic.file!.text.slice(start, start + (diagnostic.length ?? 0));
    const old = ws.paths.has(file) ? ws.fs.readFile(ws.fs.absolute(file)) : undefined;
    const found = old !== undefined && wanted !== '' ? old.indexOf(wanted) : -1;
    const text = found >= 0 ? old! : diagnostic.file!.text;
    const at = positionOf(lineStarts(new TextEncoder().encode(text)), new OffsetMap(text).byteOf(found >= 0 ? found : start));
    return { file, ...at, message: `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}` };
  });
  const first = spots[0]!;
  throw new TugError('UnsafeRefactor', `${subject} would export a declaration without the explicit type isolatedDeclarations requires, and tug could not write one (${first.file}:${first.line}: ${first.message}); annotate it first`, {
    details: { reason: 'isolatedDeclarations', places: spots },
    location: { file: first.file, line: first.line, col: first.col },
  });
}
