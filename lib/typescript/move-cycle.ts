// Import cycles a move would create: when the new module imports the old one and the old one imports the new one, a name read while a module is still loading (outside any function) is undefined or in its temporal dead zone; refused as ImportCycle, as for Python.
import path from 'node:path';
import type * as TS from 'typescript';
import { TugError } from '../core/errors.js';
import type { TypeScriptModule } from './load.js';
import { resolveSpecifier } from './move-specifiers.js';
import type { TsWorkspace } from './workspace.js';
import { isStaticBlock, modifiersOf } from './compat.js';

const stem = (file: string) => file.replace(/\.(d\.)?[mc]?[jt]sx?$/, '').replace(/\/index$/, '');

/** Whether `specifier`, written in `from`, names `target` (which may be a file the move creates). */
function pointsAt(ws: TsWorkspace, ts: TypeScriptModule, from: string, specifier: string, target: string): boolean {
  if (specifier.startsWith('.')) return stem(path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier))) === stem(target);
  return resolveSpecifier(ws, ts, ws.containing(from)[0]?.options ?? {}, from, specifier) === target;
}

/** Names `file` imports as values from `other`, and the first of them it reads while loading. */
function importTimeUse(ws: TsWorkspace, ts: TypeScriptModule, file: string, text: string, other: string): { names: string[]; used: string | null } {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  for (const s of source.statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier) || !pointsAt(ws, ts, file, s.moduleSpecifier.text, other)) continue;
    const clause = s.importClause;
    if (!clause || clause.isTypeOnly) continue;
    if (clause.name) names.push(clause.name.text);
    if (clause.namedBindings && ts.isNamespaceImport(clause.namedBindings)) names.push(clause.namedBindings.name.text);
    if (clause.namedBindings && ts.isNamedImports(clause.namedBindings)) for (const e of clause.namedBindings.elements) if (!e.isTypeOnly) names.push(e.name.text);
  }
  if (names.length === 0) return { names, used: null };
  let used: string | null = null;
  const visit = (node: TS.Node): void => {
    if (used || ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
    // Function bodies run when called, after every module has loaded; class bodies other than static parts run on `new`.
    if (ts.isFunctionLike(node) && !isStaticBlock(ts, node)) return;
    if (ts.isPropertyDeclaration(node) && !modifiersOf(ts, node).some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) return;
    if (ts.isIdentifier(node) && names.includes(node.text) && !(ts.isPropertyAccessExpression(node.parent) && node.parent.name === node)) {
      used = node.text;
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { names, used };
}

export function assertNoImportCycle(ws: TsWorkspace, ts: TypeScriptModule, after: ReadonlyMap<string, string>, file: string, destination: string): void {
  const read = (f: string) => after.get(f) ?? ws.fs.readFile(ws.fs.absolute(f)) ?? '';
  const fromNew = importTimeUse(ws, ts, destination, read(destination), file);
  const fromOld = importTimeUse(ws, ts, file, read(file), destination);
  if (fromNew.names.length === 0 || fromOld.names.length === 0) return;
  const used = fromNew.used ?? fromOld.used;
  if (!used) return; // a cycle through function bodies only: both modules have loaded before any of them runs
  const reader = fromNew.used ? destination : file;
  throw new TugError('ImportCycle', `after the move ${file} and ${destination} would import each other, and ${reader} reads ${used} while loading, before the other module has run; move the names it needs too, or pick another destination`, {
    details: { modules: [file, destination], names: [...new Set([...fromNew.names, ...fromOld.names])].sort(), reader, name: used },
  });
}
