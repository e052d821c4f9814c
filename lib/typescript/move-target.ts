// What a TypeScript/JavaScript move-symbol moves: the top-level declaration at a position, and the refusals for what the language service's "Move to file" cannot carry over completely (default exports, import-time side effects, CommonJS exports).
import type * as TS from 'typescript';
import { TugError } from '../core/errors.js';
import type { TypeScriptModule } from './load.js';
import { decoratorsOf, isStaticBlock, modifiersOf } from './compat.js';

export interface MoveTarget {
  statement: TS.Statement;
  /** Every name the statement declares at top level (a `const a = 1, b = 2` declares two). */
  names: string[];
  /** The name the position is on. */
  name: string;
  kind: string;
  /** Written with `export`. */
  exported: boolean;
}

/** The names a top-level statement declares, or null when it declares none (an expression, an import). */
export function declaredNames(ts: TypeScriptModule, statement: TS.Statement): { names: string[]; kind: string } | null {
  if (ts.isFunctionDeclaration(statement) && statement.name) return { names: [statement.name.text], kind: 'function' };
  if (ts.isClassDeclaration(statement) && statement.name) return { names: [statement.name.text], kind: 'class' };
  if (ts.isInterfaceDeclaration(statement)) return { names: [statement.name.text], kind: 'interface' };
  if (ts.isTypeAliasDeclaration(statement)) return { names: [statement.name.text], kind: 'type_alias' };
  if (ts.isEnumDeclaration(statement)) return { names: [statement.name.text], kind: 'enum' };
  if (ts.isVariableStatement(statement)) {
    const names: string[] = [];
    for (const d of statement.declarationList.declarations) {
      if (!ts.isIdentifier(d.name)) return null; // a destructuring pattern: the service moves no part of it
      names.push(d.name.text);
    }
    return { names, kind: 'variable' };
  }
  return null;
}

const where = (file: string, source: TS.SourceFile, node: TS.Node) => {
  const at = source.getLineAndCharacterOfPosition(node.getStart(source));
  return { line: at.line + 1, col: at.character + 1, text: `${file}:${at.line + 1}:${at.character + 1}` };
};

/** The top-level declaration whose name is at `position` (UTF-16), checked movable; throws a refusal otherwise. */
export function moveTarget(ts: TypeScriptModule, file: string, source: TS.SourceFile, position: number, label: string): MoveTarget {
  const statement = source.statements.find((s) => s.getStart(source) <= position && position <= s.end);
  if (!statement) throw new TugError('SymbolNotFound', `nothing to move at ${label}: the position is outside every top-level statement`, { details: { location: label } });
  const declared = declaredNames(ts, statement);
  const nameNode = nameNodes(ts, statement).find((n) => n.getStart(source) <= position && position <= n.end);
  if (!declared || !nameNode) {
    throw new TugError('UnsupportedOperation', `move-symbol moves a top-level function, class, variable, interface, type or enum; ${label} is not on the name of one`, {
      details: { operation: 'move-symbol', reason: 'not a top-level declaration name', location: label },
    });
  }
  const name = nameNode.text;
  refuseDefaultExport(ts, file, source, statement, name);
  refuseSideEffects(ts, file, source, statement, name);
  refuseCommonJs(ts, file, source, name);
  const exported = modifiersOf(ts, statement).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  return { statement, names: declared.names, name, kind: declared.kind, exported };
}

function nameNodes(ts: TypeScriptModule, statement: TS.Statement): TS.Identifier[] {
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.map((d) => d.name).filter((n): n is TS.Identifier => ts.isIdentifier(n));
  const name = (statement as { name?: TS.Node }).name;
  return name && ts.isIdentifier(name) ? [name] : [];
}

function unsafe(reason: string, message: string, at: { line: number; col: number }, name: string): TugError {
  return new TugError('UnsafeRefactor', message, { details: { reason, name, line: at.line, col: at.col } });
}

/**
 * A default export is imported under any name (`import x from`), so the service cannot tell which imports to move, and
 * the old module would lose its default: refused, whether written on the declaration or as `export default name` /
 * `export { name as default }`.
 */
function refuseDefaultExport(ts: TypeScriptModule, file: string, source: TS.SourceFile, statement: TS.Statement, name: string): void {
  const modifiers = modifiersOf(ts, statement);
  let found: TS.Node | null = modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword) ? statement : null;
  for (const s of source.statements) {
    if (found) break;
    if (ts.isExportAssignment(s) && !s.isExportEquals && ts.isIdentifier(s.expression) && s.expression.text === name) found = s;
    if (ts.isExportDeclaration(s) && !s.moduleSpecifier && s.exportClause && ts.isNamedExports(s.exportClause)) {
      if (s.exportClause.elements.some((e) => e.name.text === 'default' && (e.propertyName ?? e.name).text === name)) found = s;
    }
  }
  if (!found) return;
  const at = where(file, source, found);
  throw unsafe('default export', `${name} is the default export of ${file} (${at.text}): importers name it as they like, so tug cannot move its imports; make it a named export first`, at, name);
}

/** Expressions that run code when the module is evaluated: calls, `new`, tagged templates, `await`, `delete`, assignments. */
function runsCode(ts: TypeScriptModule, node: TS.Node): TS.Node | null {
  if (ts.isFunctionLike(node) || isStaticBlock(ts, node)) return null; // a body runs when called, not at import
  if (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isTaggedTemplateExpression(node) || ts.isAwaitExpression(node) || ts.isDeleteExpression(node)) return node;
  if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment) return node;
  if (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) {
    if (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken) return node;
  }
  return ts.forEachChild(node, (child) => runsCode(ts, child) ?? undefined) ?? null;
}

/**
 * A declaration whose initializer runs code at import time (`const db = connect()`, a decorated class, a class whose
 * static field calls something) would run it when the new module loads, in another order and maybe not at all: refused.
 */
function refuseSideEffects(ts: TypeScriptModule, file: string, source: TS.SourceFile, statement: TS.Statement, name: string): void {
  let effect: TS.Node | null = null;
  if (ts.isVariableStatement(statement)) {
    for (const d of statement.declarationList.declarations) effect ??= d.initializer ? runsCode(ts, d.initializer) : null;
  } else if (ts.isClassDeclaration(statement)) {
    const decorators = decoratorsOf(ts, statement);
    effect = decorators[0] ?? null;
    for (const member of statement.members) {
      if (effect) break;
      const isStatic = modifiersOf(ts, member).some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
      if (isStaticBlock(ts, member)) effect = member;
      else if (isStatic && ts.isPropertyDeclaration(member) && member.initializer) effect = runsCode(ts, member.initializer);
      const memberDecorators = decoratorsOf(ts, member);
      effect ??= memberDecorators[0] ?? null;
    }
    if (!effect && statement.heritageClauses) {
      for (const clause of statement.heritageClauses) for (const type of clause.types) effect ??= runsCode(ts, type.expression);
    }
  } else if (ts.isEnumDeclaration(statement)) {
    for (const member of statement.members) effect ??= member.initializer ? runsCode(ts, member.initializer) : null;
  }
  if (!effect) return;
  const at = where(file, source, effect);
  throw unsafe('side effects at import time', `${name} runs code when ${file} is loaded (${at.text}): moved, it would run when the new module loads instead, in another order or not at all`, at, name);
}

/**
 * CommonJS exports (`module.exports = { name }`, `exports.name = …`) are plain assignments to the language service: its
 * move leaves them, and every `require` of them, pointing at the old module. Refused until tug writes them itself.
 */
function refuseCommonJs(ts: TypeScriptModule, file: string, source: TS.SourceFile, name: string): void {
  if (!/\.(c?js|jsx)$/.test(file)) return;
  let found: TS.Node | null = null;
  const visit = (node: TS.Node): void => {
    if (found) return;
    if (ts.isPropertyAccessExpression(node) && ((ts.isIdentifier(node.expression) && node.expression.text === 'module' && node.name.text === 'exports') || (ts.isIdentifier(node.expression) && node.expression.text === 'exports'))) {
      found = node;
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!found) return;
  const at = where(file, source, found);
  throw new TugError('UnsupportedOperation', `${file} exports through CommonJS (${at.text}); move-symbol moves ES module declarations (\`export function ${name}\`) only: the language service's move does not follow module.exports and require`, {
    details: { operation: 'move-symbol', reason: 'CommonJS exports', name, location: at.text },
  });
}
