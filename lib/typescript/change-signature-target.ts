// What change-signature works on in TypeScript/JavaScript: the function, method or constructor at a position (its definition or a use), the definitions among the places that name it, and what each other place is (a call to rewrite, an import, a use tug lists as unsure).
import type * as TS from 'typescript';
import { TugError } from '../core/errors.js';
import { editable } from './projects.js';
import type { TsWorkspace } from './workspace.js';
import { isJsDocLink, isSatisfies } from './compat.js';

export interface Target {
  kind: 'function' | 'constructor';
  name: string;
  /** The definition whose parameters new_params refers to (an overloaded function's implementation). */
  fn: TS.SignatureDeclaration;
  file: string;
  /** Where the references search starts (UTF-16): the function's name, or the class's. */
  searchAt: number;
  /** A class or object member: receivers and computed keys matter for the unsure list. */
  member: boolean;
  constructors: TS.ConstructorDeclaration[];
}

/** A definition's body, if it has one (an overload signature or an interface member has none). */
export function bodyOf(fn: TS.SignatureDeclaration): TS.Node | undefined {
  return (fn as { body?: TS.Node }).body;
}

type Use = { kind: 'call'; call: TS.CallExpression | TS.NewExpression } | { kind: 'skip' } | { kind: 'unsure' } | { kind: 'subclass'; cls: TS.ClassLikeDeclaration };

function unwrap(ts: typeof TS, node: TS.Expression): TS.Expression {
  let at = node;
  while (ts.isParenthesizedExpression(at) || ts.isAsExpression(at) || isSatisfies(ts, at)) at = at.expression;
  return at;
}

/** The function a declaration's name stands for: a function or method, or a variable or property holding one. */
export function functionOfName(ts: typeof TS, node: TS.Node): TS.SignatureDeclaration | null {
  const parent = node.parent;
  if (!parent || (parent as { name?: TS.Node }).name !== node) return null;
  if (ts.isFunctionDeclaration(parent) || ts.isMethodDeclaration(parent) || ts.isMethodSignature(parent) || ts.isFunctionExpression(parent)) return parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.initializer) {
    const value = unwrap(ts, parent.initializer);
    if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) return value;
  }
  if (ts.isPropertySignature(parent) && parent.type && ts.isFunctionTypeNode(parent.type)) return parent.type;
  return null;
}

export function targetAt(ts: typeof TS, ws: TsWorkspace, source: TS.SourceFile, checker: TS.TypeChecker, position: number, where: string, location: { file: string; line: number; col: number }): Target {
  const token = (ts as unknown as { getTouchingPropertyName(f: TS.SourceFile, p: number): TS.Node }).getTouchingPropertyName(source, position);
  const notFunction = (reason: string) =>
    new TugError('SymbolNotFound', `${where} is not on a function, method or constructor (its definition or a use of it): ${reason}`, { details: { location: where, reason }, location });
  if (token.kind === ts.SyntaxKind.ConstructorKeyword && ts.isConstructorDeclaration(token.parent)) return constructorTarget(ts, ws, token.parent.parent, where, location);
  if (!ts.isIdentifier(token) && !ts.isPrivateIdentifier(token)) throw notFunction('not on a name');
  let symbol = checker.getSymbolAtLocation(token);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declarations = symbol?.declarations ?? [];
  if (declarations.length === 0) throw notFunction('the name resolves to nothing');
  const cls = declarations.find((d): d is TS.ClassLikeDeclaration => ts.isClassLike(d));
  if (cls) return constructorTarget(ts, ws, cls, where, location);
  const functions = declarations.flatMap((d) => {
    const name = (d as TS.NamedDeclaration).name;
    const fn = name ? functionOfName(ts, name) : null;
    return fn ? [{ d, fn }] : [];
  });
  const primary = functions.find((f) => bodyOf(f.fn) !== undefined) ?? functions[0];
  if (!primary) throw notFunction(`${token.getText(source)} is not a function`);
  const file = editable(ws.fs, primary.d.getSourceFile().fileName, ws.paths);
  if (file === null) {
    throw new TugError('UnsafeRefactor', `${token.getText(source)} is defined outside the workspace (${primary.d.getSourceFile().fileName}); its signature is not the workspace's to change`, { details: { reason: 'defined outside the workspace', line: location.line, col: location.col }, location });
  }
  const name = (primary.d as TS.NamedDeclaration).name!;
  const member = !ts.isFunctionDeclaration(primary.d) && !ts.isVariableDeclaration(primary.d);
  return { kind: 'function', name: name.getText(primary.d.getSourceFile()), fn: primary.fn, file, searchAt: name.getStart(primary.d.getSourceFile()), member, constructors: [] };
}

function constructorTarget(ts: typeof TS, ws: TsWorkspace, cls: TS.ClassLikeDeclaration, where: string, location: { file: string; line: number; col: number }): Target {
  const source = cls.getSourceFile();
  const constructors = cls.members.filter((m): m is TS.ConstructorDeclaration => ts.isConstructorDeclaration(m));
  const name = cls.name?.text ?? 'constructor';
  if (constructors.length === 0 || !cls.name) {
    throw new TugError('SymbolNotFound', `${where}: the class ${name} has no constructor of its own to change; add one first`, { details: { location: where, reason: 'class without a constructor' }, location });
  }
  const file = editable(ws.fs, source.fileName, ws.paths);
  if (file === null) throw new TugError('UnsafeRefactor', `${name} is defined outside the workspace`, { details: { reason: 'defined outside the workspace', line: location.line, col: location.col }, location });
  const primary = constructors.find((c) => c.body !== undefined) ?? constructors[0]!;
  return { kind: 'constructor', name, fn: primary, file, searchAt: cls.name.getStart(source), member: false, constructors };
}

/** What a place that names the function (or, for a constructor, its class) is. */
export function classifyUse(ts: typeof TS, node: TS.Node, kind: Target['kind']): Use {
  if (ts.findAncestor(node, (n) => ts.isJSDoc(n) || isJsDocLink(ts, n) || (n.kind >= ts.SyntaxKind.FirstJSDocNode && n.kind <= ts.SyntaxKind.LastJSDocNode))) return { kind: 'skip' };
  const parent = node.parent;
  if (!parent) return { kind: 'skip' };
  if (ts.isImportSpecifier(parent) || ts.isImportClause(parent) || ts.isNamespaceImport(parent) || ts.isExportSpecifier(parent) || ts.isImportEqualsDeclaration(parent) || ts.isExportAssignment(parent) || ts.isBindingElement(parent)) return { kind: 'skip' };
  if (ts.isTypeQueryNode(parent) || ts.isTypeReferenceNode(parent) || ts.isQualifiedName(parent) || ts.isTypeNode(parent)) return { kind: 'skip' };
  if (ts.isStringLiteralLike(node) && !ts.isElementAccessExpression(parent)) return { kind: 'skip' };
  let expr: TS.Node = node;
  if ((ts.isPropertyAccessExpression(parent) && parent.name === node) || (ts.isElementAccessExpression(parent) && parent.argumentExpression === node)) expr = parent;
  while (expr.parent && (ts.isParenthesizedExpression(expr.parent) || ts.isNonNullExpression(expr.parent))) expr = expr.parent;
  const up = expr.parent;
  if (kind === 'constructor') {
    if (ts.isNewExpression(up) && up.expression === expr) return { kind: 'call', call: up };
    if (ts.isExpressionWithTypeArguments(up) && ts.isHeritageClause(up.parent)) {
      return up.parent.token === ts.SyntaxKind.ExtendsKeyword && ts.isClassLike(up.parent.parent) ? { kind: 'subclass', cls: up.parent.parent } : { kind: 'skip' };
    }
    if (ts.isClassLike(parent) && parent.name === node) return { kind: 'skip' };
    if (ts.isPropertyAccessExpression(up) && up.expression === expr) return { kind: 'skip' };
    if (ts.isBinaryExpression(up) && up.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword) return { kind: 'skip' };
    return isExport(ts, expr) ? { kind: 'skip' } : { kind: 'unsure' };
  }
  if ((ts.isCallExpression(up) || ts.isNewExpression(up)) && up.expression === expr) return { kind: 'call', call: up };
  if (isExport(ts, expr)) return { kind: 'skip' };
  return { kind: 'unsure' };
}

/** `module.exports = { f }`, `module.exports.f = f`, `exports.f = f`: CommonJS exports name it without calling it. */
function isExport(ts: typeof TS, expr: TS.Node): boolean {
  const exportsTarget = (n: TS.Node) => /^(module\.)?exports\b/.test(n.getText());
  const parent = expr.parent;
  if (ts.isShorthandPropertyAssignment(parent) || (ts.isPropertyAssignment(parent) && parent.initializer === expr)) {
    const object = parent.parent;
    return ts.isBinaryExpression(object.parent) && object.parent.right === object && exportsTarget(object.parent.left);
  }
  return ts.isBinaryExpression(parent) && parent.right === expr && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && exportsTarget(parent.left);
}
