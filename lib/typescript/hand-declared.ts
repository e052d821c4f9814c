// A JavaScript module whose types come from a declaration file written by hand beside it (lib.js with lib.d.ts): the
// compiler resolves every import of the module to the declaration file, so the language service answers for one of the
// two files and its own users only. A rename of an export is tied to the same export of the other file (both renamed,
// with their users), or refused when the two cannot be matched one to one; the other operations refuse such exports.
import path from 'node:path';
import type * as TS from 'typescript';
import { TugError } from '../core/errors.js';
import { nodeAt } from './occurrences.js';
/** Where the symbol is declared (rename-plan.ts's location). */
type Where = { file: string; line: number; col: number };
type Found = { source: TS.SourceFile; checker: TS.TypeChecker };

/** The declaration file the compiler prefers for a JavaScript file of each extension. */
const DECLARATION_OF: Readonly<Record<string, string>> = { '.js': '.d.ts', '.jsx': '.d.ts', '.mjs': '.d.mts', '.cjs': '.d.cts' };
/** The JavaScript files a declaration file of each extension can stand for. */
const SCRIPTS_OF: ReadonlyArray<[string, readonly string[]]> = [['.d.ts', ['.js', '.jsx']], ['.d.mts', ['.mjs']], ['.d.cts', ['.cjs']]];

/** The declaration file the compiler would read in place of a JavaScript file at `file`, or null for another file. */
export function declarationPathOf(file: string): string | null {
  const ext = path.posix.extname(file);
  const declaration = DECLARATION_OF[ext];
  return declaration === undefined ? null : `${file.slice(0, -ext.length)}${declaration}`;
}

/** The JavaScript file and its hand-written declaration file, when `file` is either and both are among `paths`. */
export function handDeclaredPair(file: string, paths: { has(file: string): boolean }): { js: string; dts: string } | null {
  const dts = declarationPathOf(file);
  if (dts !== null) return paths.has(dts) ? { js: file, dts } : null;
  for (const [ext, scripts] of SCRIPTS_OF) {
    if (!file.endsWith(ext)) continue;
    for (const script of scripts) {
      const js = `${file.slice(0, -ext.length)}${script}`;
      if (paths.has(js)) return { js, dts: file };
    }
  }
  return null;
}

/** Whether `text` has `name` as a whole word (an identifier character neither before nor after). */
export function mentions(text: string, name: string): boolean {
  return new RegExp(`(?<![\\p{ID_Continue}$#])${name.replace(/\$/g, '\\$')}(?![\\p{ID_Continue}$])`, 'u').test(text);
}

function refusal(message: string, why: string, declarationFile: string, definition: Where): TugError {
  return new TugError('UnsafeRefactor', message, {
    details: { reason: 'hand-written declaration file', why, declaration_file: declarationFile, line: definition.line, col: definition.col },
    location: { file: definition.file, line: definition.line, col: definition.col },
  });
}

export interface RenameAt {
  ts: typeof TS;
  paths: { has(file: string): boolean };
  /** The file of the symbol's declaration, and where its name starts (UTF-16). */
  file: string;
  start: number;
  oldName: string;
  /** The symbol is a property, method or other member (reached through a value's type, not an import). */
  member: boolean;
  /** The places the language service gave for the rename in `file` (UTF-16 starts and the text around the new name). */
  own: ReadonlyArray<{ start: number; prefix: string; suffix: string }>;
  sourceOf: (file: string) => Found | undefined;
  textOf: (file: string) => string;
  definition: Where;
}

/**
 * For a rename of the symbol declared at `start` of `file`: null when the language service's answer is the whole
 * rename (the file has no hand-written partner, or the rename leaves every name the module exports as it was); the
 * partner file and where its declaration of the same export starts when the export's name changes and the partner
 * declares it once, directly; else UnsafeRefactor (importers follow the declaration file, which the rename would not
 * reach, or would reach without the implementation).
 */
export function handDeclaredPartner(at: RenameAt): { file: string; start: number } | null {
  const { ts, file, oldName, definition } = at;
  const pair = handDeclaredPair(file, at.paths);
  if (!pair) return null;
  const partner = file === pair.js ? pair.dts : pair.js;
  const refuse = (why: string, message: string) => refusal(`${oldName} is declared in ${file}, whose types ${file === pair.js ? `are declared by hand in ${partner}` : `stand for ${partner}`}: ${message}; rename it in both files and their importers by hand`, why, pair.dts, definition);
  const own = at.sourceOf(file);
  if (!own) throw refuse('file not analysed', `no program holds ${file}`);
  const node = nodeAt(ts, own.source, at.start);
  const symbol = ts.isIdentifier(node) ? own.checker.getSymbolAtLocation(node) : undefined;
  const module = own.checker.getSymbolAtLocation(own.source);
  if (!symbol) return null;
  const exports = module ? own.checker.getExportsOfModule(module) : [];
  const exportsIt = exports.filter((e) => e === symbol || ((e.flags & ts.SymbolFlags.Alias) !== 0 && own.checker.getAliasedSymbol(e) === symbol));
  if (exportsIt.length === 0) {
    // A member reached through an exported value's type, or a global of a script: the other file may declare it too.
    if ((at.member || !module) && mentions(at.textOf(partner), oldName)) throw refuse('member', `${partner} names ${oldName} too, and tug cannot tie a member or a global of the two files together`);
    return null;
  }
  // The export keeps its name when the service writes `newName as oldName` (or the export is `default`, or another name).
  const renamesExport = exportsIt.some((e) => e.name === oldName && (e.declarations ?? []).some((d) => {
    const name = ts.getNameOfDeclaration(d);
    const start = name?.getStart(own.source);
    return d.getSourceFile() === own.source && at.own.some((p) => p.start === start && p.prefix === '' && p.suffix === '');
  }));
  if (!renamesExport) return null;
  if (module?.exports?.has('export=' as TS.__String)) throw refuse('export =', `${file} exports through \`export =\`, which tug does not tie to ${partner}`);
  const other = at.sourceOf(partner);
  const otherModule = other?.checker.getSymbolAtLocation(other.source);
  if (!other || !otherModule) throw refuse('partner not a module', `${partner} is not a module tug could read`);
  if (otherModule.exports?.has('export=' as TS.__String)) throw refuse('export =', `${partner} exports through \`export =\`, which tug does not tie to ${file}`);
  const match = other.checker.getExportsOfModule(otherModule).find((e) => e.name === oldName);
  if (!match) {
    // A type only the declaration file declares (an interface, a type alias) has nothing to tie in the JavaScript.
    if (file === pair.dts && (symbol.flags & ts.SymbolFlags.Value) === 0 && !mentions(at.textOf(partner), oldName)) return null;
    throw refuse('no matching export', `${partner} exports no ${oldName}`);
  }
  if ((match.flags & ts.SymbolFlags.Alias) !== 0) throw refuse('declared differently', `${partner} exports ${oldName} through an alias or a re-export, not a declaration of its own`);
  if ((symbol.declarations ?? []).length !== 1) throw refuse('declared more than once', `${file} declares ${oldName} ${(symbol.declarations ?? []).length} times (overloads or merged declarations)`);
  const declarations = match.declarations ?? [];
  if (declarations.length !== 1) throw refuse('declared more than once', `${partner} declares ${oldName} ${declarations.length} times (overloads, a namespace or an interface merged with it)`);
  if ((match.flags & ts.SymbolFlags.Value) === 0 || (symbol.flags & ts.SymbolFlags.Value) === 0) throw refuse('declared differently', `${oldName} is not a value in both ${file} and ${partner}`);
  const name = ts.getNameOfDeclaration(declarations[0]!);
  if (!name || !ts.isIdentifier(name) || declarations[0]!.getSourceFile() !== other.source) throw refuse('declared differently', `${partner} does not declare ${oldName} by name`);
  return { file: partner, start: name.getStart(other.source) };
}

/**
 * UnsafeRefactor for an operation other than rename (change-signature, move-symbol) on `name` declared in `file`, when
 * `file` is half of a hand-declared module and the other half names it too: the language service would change one
 * file and its own users, and leave the other file and everyone its types reach.
 */
export function assertNotHandDeclared(paths: { has(file: string): boolean }, file: string, name: string, textOf: (file: string) => string, operation: string, at: Where): void {
  const pair = handDeclaredPair(file, paths);
  if (!pair) return;
  const partner = file === pair.js ? pair.dts : pair.js;
  if (!mentions(textOf(partner), name)) return;
  throw refusal(
    `${operation} of ${name} in ${file} would leave ${partner} behind: the module's types are declared by hand in ${pair.dts}, which importers follow, and tug does not change the two together; change both by hand`,
    operation,
    pair.dts,
    at,
  );
}
