// move-symbol for TypeScript/JavaScript: the language service's "Move to file" refactor (a new file when the destination does not exist), asked in every project that holds the old module, with tug's additions: re-exports follow, the moved text kept byte for byte, import-time cycles refused, unsure places listed.
import path from 'node:path';
import type * as TS from 'typescript';
import { TugError } from '../core/errors.js';
import type { EditRequest } from '../core/patchset.js';
import type { WarningJSON } from '../core/schemas.js';
import type { z } from 'zod';
import type { Unsure } from '../core/schemas.js';
import { lineStarts, offsetOf } from '../core/text.js';
import { rewriteEdits } from '../core/text-edits.js';
import type { Repo } from '../git/repo.js';
import { inNodeModules, isScriptFile, OffsetMap } from './files.js';
import { serviceCall } from './compat.js';
import { formatOf } from './format.js';
import { assertNotHandDeclared, handDeclaredPair } from './hand-declared.js';
import { moveTarget } from './move-target.js';
import { keepMovedText } from './move-text.js';
import { exportLine, followReexports, newSpecifier } from './move-reexports.js';
import { assertNoImportCycle } from './move-cycle.js';
import { annotateNewExports } from './move-annotations.js';
import { moveUnsure } from './move-unsure.js';
import { packageDeclarationUnsure } from './package-declarations.js';
import { syntaxError } from './rename-plan.js';
import { openTsWorkspace, requireScript, type TsWorkspace } from './workspace.js';

type UnsureJSON = z.infer<typeof Unsure>;

export interface TsMoveInput {
  repo: Repo;
  tree: string;
  file: string;
  line: number;
  col: number;
  /** Repository path of the destination module (a script file; created when missing). */
  destination: string;
  keepReexport: boolean;
}

export interface TsMovePlan {
  edits: EditRequest[];
  creates: { path: string; content: string }[];
  warnings: WarningJSON[];
  unsure: UnsureJSON[];
  name: string;
  subject: string;
  slug: string;
}

const TS_FAMILY = /\.[mc]?tsx?$/;

export async function planTsMove(input: TsMoveInput): Promise<TsMovePlan> {
  const { file, destination } = input;
  const ws = await openTsWorkspace(input.repo, input.tree, file);
  const { ts } = ws.compiler;
  const bytes = requireScript(ws, file);
  const label = `${file}:${input.line}:${input.col}`;
  const offset = offsetOf(bytes, lineStarts(bytes), input.line, input.col);
  if (offset === null) throw new TugError('InvalidPosition', `${label} is outside the file`, { details: { location: label }, location: { file, line: input.line, col: input.col } });
  checkDestination(ws, file, destination);
  const absolute = ws.fs.absolute(file);
  const text = ws.fs.readFile(absolute)!;
  const projects = ws.containing(file);
  const primary = projects[0];
  if (!primary) throw new TugError('InternalError', `no TypeScript project holds ${file}`, { details: { path: file } });
  const parseErrors = primary.service.getSyntacticDiagnostics(absolute);
  if (parseErrors.length > 0) throw syntaxError(ts, file, bytes, parseErrors[0]!);
  const source = primary.service.getProgram()!.getSourceFile(absolute)!;
  const target = moveTarget(ts, file, source, new OffsetMap(text).utf16Of(offset), label);
  const textOf = (f: string) => ws.fs.readFile(ws.fs.absolute(f)) ?? '';
  const at = { file, line: input.line, col: input.col };
  for (const name of target.names) assertNotHandDeclared(ws.paths, file, name, textOf, 'move-symbol', at);
  const into = handDeclaredPair(destination, ws.paths);
  if (into) {
    throw new TugError('UnsafeRefactor', `${destination}'s types are declared by hand in ${into.dts}, which importers follow: what the move puts in ${destination} would be missing from them; move it by hand and declare it there`, {
      details: { reason: 'hand-written declaration file', why: 'destination', declaration_file: into.dts, line: input.line, col: input.col },
      location: at,
    });
  }
  const exists = ws.paths.has(destination);
  if (exists) refuseTaken(ws, ts, destination, target.names);

  const range = { pos: target.statement.getStart(source), end: target.statement.end };
  const preferences: TS.UserPreferences = {
    allowTextChangesInNewFiles: true,
    importModuleSpecifierEnding: specifierEnding(ts, ws, source, primary.options),
    quotePreference: quoteOf(text) === '"' ? 'double' : 'single',
    preferTypeOnlyAutoImports: typeOnlyImports(ts, ws, source, primary.options),
  };
  const format = formatOf(ts, text, 2);
  const after = new Map<string, string>();
  const destinationAbsolute = ws.fs.absolute(destination);
  for (const project of [...projects, ...ws.projects.all(ws.scripts, ws.configs).filter((p) => !projects.includes(p) && p.service.getProgram()?.getSourceFile(absolute))]) {
    const result = serviceCall(ts, label, () => project.service.getEditsForRefactor(absolute, format, range, 'Move to file', 'Move to file', preferences, { targetFile: destinationAbsolute } as never));
    if (!result && project === primary) {
      // "Move to file" (a named destination) came with TypeScript 5.2; a project's own older compiler has only "Move to a new file".
      const [major = 0, minor = 0] = ts.versionMajorMinor.split('.').map(Number);
      const old = major < 5 || (major === 5 && minor < 2);
      throw new TugError('UnsupportedByAdapter', old ? `the TypeScript ${ts.version} that analyses ${file} has no "Move to file" refactor (TypeScript 5.2 and later have it)` : `the language service offered no move for ${label}`, {
        details: { location: label, ...(old ? { reason: 'not offered by the language service', typescript: ts.version } : {}) },
      });
    }
    const byFile = new Map<string, TS.TextChange[]>();
    for (const change of result?.edits ?? []) byFile.set(change.fileName, [...(byFile.get(change.fileName) ?? []), ...change.textChanges]);
    for (const [fileName, changes] of byFile) {
      const rel = ws.fs.relative(fileName);
      if (rel === null || inNodeModules(rel) || after.has(rel)) continue; // the first project to answer for a file wins
      if (project !== primary && (rel === file || rel === destination)) continue;
      const before = rel === destination && !exists ? '' : ws.fs.readFile(fileName);
      if (before === undefined) continue;
      after.set(rel, applyChanges(before, changes));
    }
  }
  if (!after.has(destination)) throw new TugError('UnsupportedByAdapter', `the language service's move of ${label} wrote nothing into ${destination}`, { details: { location: label } });
  after.set(destination, keepMovedText(ts, destination, after.get(destination)!, source, target));
  const specifier = (from: string, like: string | null) => newSpecifier(from, file, destination, like, preferences.importModuleSpecifierEnding === 'js');
  followReexports(ws, ts, after, { file, destination, names: target.names, exported: target.exported, specifier });
  if (input.keepReexport) {
    const old = after.get(file) ?? text;
    after.set(file, `${old}${old.endsWith('\n') || old === '' ? '' : '\n'}${exportLine(target.names.map((n) => ({ name: n })), specifier(file, null), false, quoteOf(text))}\n`);
  }
  annotateNewExports({ ws, project: primary, after, files: [file, destination], format, preferences, subject: `moving ${target.name} to ${destination}` });
  assertNoImportCycle(ws, ts, after, file, destination);

  const edits: EditRequest[] = [];
  const creates: { path: string; content: string }[] = [];
  for (const [rel, next] of [...after].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (rel === destination && !exists) creates.push({ path: rel, content: next });
    else edits.push(...rewriteEdits(rel, ws.fs.readFile(ws.fs.absolute(rel))!, next));
  }
  const unsure = moveUnsure(ws, ts, after, file, target.name);
  const warnings: WarningJSON[] = ws.projects.problems.map((p) => ({ code: 'ConfigNotRead', message: `${p.config} could not be read: ${p.message}; its files were analysed with default options` }));
  if (unsure.length > 0) warnings.push({ code: 'UnsureReferences', message: `${unsure.length} place(s) may still reach ${target.name} through ${file}; tug left them as they are (see unsure)` });
  // An export moved out of its module leaves the package's own declaration file (tied to nothing) describing it there.
  if (target.exported && !input.keepReexport) {
    for (const name of target.names) {
      const published = packageDeclarationUnsure({ ts, paths: ws.paths, textOf: (f) => ws.fs.readFile(ws.fs.absolute(f)), file, source, start: undefined, oldName: name, newName: name, member: false, edited: new Set(after.keys()), includeUnsure: false });
      unsure.push(...published.unsure);
    }
  }
  const module = destination.replace(/\.[^./]+$/, '');
  return { edits, creates, warnings, unsure, name: target.name, subject: `move ${target.name} from ${file} to ${destination}`, slug: `${target.name}-to-${path.posix.basename(module)}` };
}

function checkDestination(ws: TsWorkspace, file: string, destination: string): void {
  const reject = (reason: string): never => {
    throw new TugError('InvalidArgument', `destination ${JSON.stringify(destination)}: ${reason}`, { details: { argument: 'destination', reason } });
  };
  if (!isScriptFile(destination) || /\.d\.[mc]?ts$/.test(destination)) reject('give the module\'s path with its extension (.ts, .tsx, .mts, .cts, .js, .jsx, .mjs, .cjs), not a declaration file');
  if (destination === file) reject('it is the module the symbol is in');
  if (inNodeModules(destination)) reject('it is inside node_modules');
  if (TS_FAMILY.test(file) !== TS_FAMILY.test(destination)) reject(`a ${path.posix.extname(file)} declaration would change language in a ${path.posix.extname(destination)} module`);
  if (ws.paths.has(destination) && !ws.bytes.has(destination)) reject('it exists but is not a UTF-8 script tug read');
}

/** The destination must not bind the name already (other than by importing it from the old module, which the move rewrites). */
function refuseTaken(ws: TsWorkspace, ts: typeof TS, destination: string, names: readonly string[]): void {
  const text = ws.fs.readFile(ws.fs.absolute(destination))!;
  const source = ts.createSourceFile(destination, text, ts.ScriptTarget.Latest, true);
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) continue;
    const declared = statementNames(ts, statement);
    const clash = names.find((n) => declared.includes(n));
    if (clash) {
      const at = source.getLineAndCharacterOfPosition(statement.getStart(source));
      throw new TugError('NameConflict', `${destination} already declares ${clash} at line ${at.line + 1}`, {
        details: { conflicts: [{ file: destination, line: at.line + 1, col: at.character + 1, reason: 'already_defined', name: clash }] },
        location: { file: destination, line: at.line + 1, col: at.character + 1 },
      });
    }
  }
}

function statementNames(ts: typeof TS, statement: TS.Statement): string[] {
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  const name = (statement as { name?: TS.Node }).name;
  return name && ts.isIdentifier(name) ? [name.text] : [];
}

/**
 * How the project writes relative imports decides how the new ones are written (`./a.js` under NodeNext or in an ES
 * module package): the old module's own imports, else those of every script.
 */
function specifierEnding(ts: typeof TS, ws: TsWorkspace, source: TS.SourceFile, options: TS.CompilerOptions): 'js' | 'minimal' {
  const relative = (text: string) => [...text.matchAll(/\b(?:from|import|require)\s*\(?\s*['"](\.\.?\/[^'"]+)['"]/g)].map((m) => m[1]!);
  let seen = relative(source.text);
  if (seen.length === 0) seen = ws.scripts.flatMap((f) => relative(ws.fs.readFile(ws.fs.absolute(f)) ?? ''));
  if (seen.length > 0) return seen.filter((s) => /\.[mc]?js$/.test(s)).length * 2 >= seen.length ? 'js' : 'minimal';
  const nodeNext = options.moduleResolution === ts.ModuleResolutionKind.Node16 || options.moduleResolution === ts.ModuleResolutionKind.NodeNext;
  return nodeNext ? 'js' : 'minimal';
}

/**
 * Whether a name used only as a type is imported with `import type`/`{ type X }`: required under
 * verbatimModuleSyntax (TS1484 otherwise), expected under isolatedModules (each file compiled alone cannot tell a type
 * from a value), and the project's own habit when its files already write type-only imports.
 */
function typeOnlyImports(ts: typeof TS, ws: TsWorkspace, source: TS.SourceFile, options: TS.CompilerOptions): boolean {
  if (options.verbatimModuleSyntax || options.isolatedModules || options.preserveValueImports) return true;
  if (options.importsNotUsedAsValues === ts.ImportsNotUsedAsValues.Error) return true;
  const typeOnly = /\bimport\s+type\s|\bimport\s*\{[^}]*\btype\s/;
  return typeOnly.test(source.text) || ws.scripts.some((f) => TS_FAMILY.test(f) && !inNodeModules(f) && typeOnly.test(ws.fs.readFile(ws.fs.absolute(f)) ?? ''));
}

/** The quote the file writes its module specifiers with. */
export function quoteOf(text: string): string {
  const match = /\b(?:from|import|require\()\s*(['"])/.exec(text);
  return match?.[1] ?? "'";
}

function applyChanges(text: string, changes: readonly TS.TextChange[]): string {
  // The service's changes do not overlap; at one position an insertion comes before a deletion that starts there.
  const ordered = [...changes].map((c, i) => ({ c, i })).sort((a, b) => a.c.span.start - b.c.span.start || a.c.span.length - b.c.span.length || a.i - b.i);
  let out = '';
  let at = 0;
  for (const { c } of ordered) {
    out += text.slice(at, c.span.start) + c.newText;
    at = Math.max(at, c.span.start + c.span.length);
  }
  return out + text.slice(at);
}
