// extract-variable and extract-function for TypeScript/JavaScript: the language service's "Extract Symbol" refactor at a range, its generated name replaced by the caller's, as line edits.
import { TugError } from '../core/errors.js';
import type { EditRequest } from '../core/patchset.js';
import { lineStarts, offsetOf } from '../core/text.js';
import { rewriteEdits } from '../core/text-edits.js';
import type { Repo } from '../git/repo.js';
import { OffsetMap } from './files.js';
import { serviceCall } from './compat.js';
import { formatOf } from './format.js';
import { assertTsName } from './identifiers.js';
import { syntaxError } from './rename-plan.js';
import { openTsWorkspace, requireScript } from './workspace.js';

export interface TsExtractInput {
  repo: Repo;
  tree: string;
  file: string;
  start: { line: number; col: number };
  end: { line: number; col: number };
  /** constant: a `const` in the innermost scope; function: a function at module scope. */
  kind: 'constant' | 'function';
  newName: string;
}

export async function planTsExtract(input: TsExtractInput): Promise<{ edits: EditRequest[]; action: string }> {
  const { file } = input;
  const ws = await openTsWorkspace(input.repo, input.tree, file);
  const { ts } = ws.compiler;
  const bytes = requireScript(ws, file);
  const starts = lineStarts(bytes);
  const from = offsetOf(bytes, starts, input.start.line, input.start.col);
  const to = offsetOf(bytes, starts, input.end.line, input.end.col);
  const where = `${file}:${input.start.line}:${input.start.col}-${input.end.line}:${input.end.col}`;
  if (from === null || to === null || to <= from) throw new TugError('InvalidPosition', `${where} is not a range of the file`, { details: { location: where }, location: { file, ...input.start } });
  const absolute = ws.fs.absolute(file);
  const text = ws.fs.readFile(absolute)!;
  const map = new OffsetMap(text);
  const range = { pos: map.utf16Of(from), end: map.utf16Of(to) };
  const project = ws.containing(file)[0]!;
  const parseErrors = project.service.getSyntacticDiagnostics(absolute);
  if (parseErrors.length > 0) throw syntaxError(ts, file, bytes, parseErrors[0]!);
  assertTsName(ts, input.newName, 'x');
  const source = project.service.getProgram()!.getSourceFile(absolute)!;
  // A name is taken when the file has an identifier of that name; the same word in a string or a comment ('years' in
  // ms's unit table) binds nothing, nor does a member's name (`Promise.all`, `{ all: 1 }`, a method: neverthrow's
  // `Promise.all(list)` extracted as `all`).
  const named = (node: import('typescript').Node): boolean => (ts.isIdentifier(node) && node.text === input.newName && !isMemberName(ts, node)) || ts.forEachChild(node, named) === true;
  if (named(source)) {
    throw new TugError('NameConflict', `${input.newName} is already used in ${file}; pick a name the file does not use`, { details: { conflicts: [{ file, reason: 'already used' }] } });
  }
  if (input.kind === 'constant') {
    assertNotWritten(ts, source, range, where);
    assertEvaluatedAlways(ts, source, range, where);
  }
  const refactors = serviceCall(ts, where, () => project.service.getApplicableRefactors(absolute, range, {}, undefined, undefined));
  const actions = refactors.filter((r) => r.name === 'Extract Symbol').flatMap((r) => r.actions);
  const usable = actions.filter((a) => a.name.startsWith(`${input.kind}_scope_`) && !a.notApplicableReason);
  // A constant goes to the innermost scope (beside its use); a function to the module, as tug's Python extract does.
  const action = input.kind === 'constant' ? usable[0] : usable.at(-1);
  if (!action) {
    const reason = actions.find((a) => a.name.startsWith(`${input.kind}_scope_`))?.notApplicableReason ?? 'the range is not an expression or whole statements';
    throw new TugError('InvalidSelection', `the language service cannot extract ${where}: ${reason}`, { details: { reason, location: where } });
  }
  const format = formatOf(ts, text);
  const result = serviceCall(ts, where, () => project.service.getEditsForRefactor(absolute, format, range, 'Extract Symbol', action.name, {}));
  const own = (result?.edits ?? []).filter((e) => e.fileName === absolute).flatMap((e) => e.textChanges);
  if (!result || own.length === 0) throw new TugError('UnsupportedByAdapter', `the language service offered no edit for ${where}`, { details: { offered: actions.map((a) => a.name) } });
  if (input.kind === 'constant') assertInScope(ts, project.service.getProgram()!.getTypeChecker(), source, range, own, where);
  // The edits applied front to back (at one position in the order the service listed them), keeping where each landed.
  const order = own.map((c, i) => ({ c, i })).sort((a, b) => a.c.span.start - b.c.span.start || a.i - b.i);
  let after = '';
  let at = 0;
  const written: Array<[number, number]> = [];
  for (const { c } of order) {
    after += text.slice(at, c.span.start);
    written.push([after.length, after.length + c.newText.length]);
    after += c.newText;
    at = c.span.start + c.span.length;
  }
  after += text.slice(at);
  const generated = result.renameLocation === undefined ? null : /^[\p{ID_Start}$_][\p{ID_Continue}$]*/u.exec(after.slice(result.renameLocation))?.[0];
  if (!generated) throw new TugError('InternalError', `the language service's extract at ${where} named nothing`, { details: { location: where } });
  return { edits: rewriteEdits(file, text, renameGenerated(ts, file, after, written, generated, result.renameLocation!, input.newName, where)), action: action.description };
}

/**
 * The service names the new symbol itself (newLocal, newFunction, or after what it holds: `this.args` becomes `args`),
 * unique only in its own scope, so the same word elsewhere in the file (another function's `args`, a comment, the
 * property in `this.args`) is not the new symbol. The new symbol is the name at the service's rename location and the
 * bindings of that name inside the text the service wrote; only those take the caller's name.
 */
function renameGenerated(ts: typeof import('typescript'), file: string, after: string, written: ReadonlyArray<[number, number]>, generated: string, declaredAt: number, newName: string, where: string): string {
  const kind = /\.tsx$/.test(file) ? ts.ScriptKind.TSX : /\.jsx$/.test(file) ? ts.ScriptKind.JSX : /\.[mc]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, after, ts.ScriptTarget.Latest, true, kind);
  const inWritten = (pos: number) => written.some(([start, end]) => start <= pos && pos < end);
  const places: Array<{ start: number; end: number; text: string }> = [];
  // Extracted to a method of the class (`newMethod`, called as `this.newMethod(…)`, where the service's rename location
  // may point): the new symbol is a member, so its declaration and `this.` accesses in the written text are it;
  // otherwise a member name there (`this.args`) is never the new symbol.
  const declared = ts.findAncestor(coveringNode(ts, source, { pos: declaredAt, end: declaredAt }), ts.isIdentifier);
  const method = declared !== undefined && (((ts.isMethodDeclaration(declared.parent) || ts.isPropertyDeclaration(declared.parent)) && declared.parent.name === declared) || (ts.isPropertyAccessExpression(declared.parent) && declared.parent.expression.kind === ts.SyntaxKind.ThisKeyword));
  const visit = (node: import('typescript').Node): void => {
    if (ts.isIdentifier(node) && node.text === generated && (method ? !ts.isPropertyAccessExpression(node.parent) || node.parent.expression.kind === ts.SyntaxKind.ThisKeyword || node.getStart(source) === declaredAt : !isMemberName(ts, node))) {
      const start = node.getStart(source);
      if (start === declaredAt || inWritten(start)) {
        // A shorthand property (`{ args }`) keeps its key.
        places.push({ start, end: node.end, text: ts.isShorthandPropertyAssignment(node.parent) ? `${generated}: ${newName}` : newName });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!places.some((p) => p.start === declaredAt)) throw new TugError('InternalError', `the language service's extract at ${where} declared no ${generated} where it said`, { details: { location: where } });
  let out = after;
  for (const p of places.sort((a, b) => b.start - a.start)) out = out.slice(0, p.start) + p.text + out.slice(p.end);
  return out;
}

/**
 * The service can put the const where a name the expression reads does not exist: for an arrow with an expression body
 * its "enclosing scope" is the module (neverthrow's `(asyncResultList) => …Promise.all(asyncResultList)…` became a
 * module-level `const all = Promise.all(asyncResultList)`). Refused when a declaration the expression reads lies in a
 * function or block the inserted const is outside of.
 */
function assertInScope(ts: typeof import('typescript'), checker: import('typescript').TypeChecker, source: import('typescript').SourceFile, range: { pos: number; end: number }, changes: readonly import('typescript').TextChange[], where: string): void {
  const declaration = changes.find((c) => /\bconst\s+[\p{ID_Start}$_][\p{ID_Continue}$]*\s*(:[^=]*)?=/u.test(c.newText));
  if (!declaration) return;
  const at = declaration.span.start;
  const visit = (node: import('typescript').Node): void => {
    if (node.end <= range.pos || node.pos >= range.end) return;
    if (ts.isIdentifier(node) && node.getStart(source) >= range.pos && node.end <= range.end && !isMemberName(ts, node)) {
      for (const d of checker.getSymbolAtLocation(node)?.declarations ?? []) {
        if (d.getSourceFile() !== source || (d.pos >= range.pos && d.end <= range.end)) continue;
        let scope: import('typescript').Node | undefined = d.parent;
        while (scope && !ts.isFunctionLike(scope) && !ts.isBlock(scope) && !ts.isSourceFile(scope) && !ts.isCatchClause(scope) && !ts.isForStatement(scope) && !ts.isForInStatement(scope) && !ts.isForOfStatement(scope)) scope = scope.parent;
        if (scope && !ts.isSourceFile(scope) && (at < scope.getStart(source) || at > scope.end)) {
          const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
          throw new TugError('UnsafeRefactor', `cannot extract ${where} to a constant: the language service would declare it where ${node.text} (line ${line}) is not in scope`, { details: { reason: 'out of scope', name: node.text, location: where } });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
}

/** A name that is a member's, never a binding in scope: after a dot, a property's or method's key, an import's original name. */
function isMemberName(ts: typeof import('typescript'), node: import('typescript').Identifier): boolean {
  const p = node.parent;
  if (ts.isPropertyAccessExpression(p) || ts.isQualifiedName(p)) return (ts.isPropertyAccessExpression(p) ? p.name : p.right) === node;
  if (ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p) || ts.isPropertySignature(p) || ts.isMethodDeclaration(p) || ts.isMethodSignature(p) || ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p) || ts.isJsxAttribute(p)) return p.name === node;
  return (ts.isBindingElement(p) || ts.isImportSpecifier(p) || ts.isExportSpecifier(p)) && p.propertyName === node;
}

/** The smallest node that holds the whole range, from the token at its start. */
function coveringNode(ts: typeof import('typescript'), source: import('typescript').SourceFile, range: { pos: number; end: number }): import('typescript').Node {
  let node: import('typescript').Node = (ts as unknown as { getTokenAtPosition(f: unknown, p: number): import('typescript').Node }).getTokenAtPosition(source, range.pos);
  while (node.parent && !(node.getStart(source) <= range.pos && node.end >= range.end)) node = node.parent;
  return node;
}

/**
 * An expression the code writes to (`this.args = []`, `n++`, `delete o.k`, `for (x of …)`, a destructuring target) is a
 * place, not a value: held in a const, the write would go to the const (commander's `this.args` became
 * `const args = this.args; args = []`). The service offers it all the same; tug refuses.
 */
function assertNotWritten(ts: typeof import('typescript'), source: import('typescript').SourceFile, range: { pos: number; end: number }, where: string): void {
  const node = coveringNode(ts, source, range);
  if (node.getStart(source) !== range.pos || node.end !== range.end) return;
  const { SyntaxKind: K } = ts;
  let target = node;
  for (;;) {
    const p = target.parent;
    if (!p) return;
    if (ts.isParenthesizedExpression(p) || ts.isArrayLiteralExpression(p) || ts.isSpreadElement(p) || ts.isSpreadAssignment(p) || ts.isShorthandPropertyAssignment(p) || ts.isObjectLiteralExpression(p) || (ts.isPropertyAssignment(p) && p.initializer === target)) {
      target = p;
      continue;
    }
    const destructuring = target !== node && !ts.isParenthesizedExpression(target);
    const written =
      (ts.isBinaryExpression(p) && p.left === target && p.operatorToken.kind >= K.FirstAssignment && p.operatorToken.kind <= K.LastAssignment) ||
      (!destructuring && (ts.isPrefixUnaryExpression(p) || ts.isPostfixUnaryExpression(p)) && (p.operator === K.PlusPlusToken || p.operator === K.MinusMinusToken)) ||
      (!destructuring && ts.isDeleteExpression(p)) ||
      ((ts.isForInStatement(p) || ts.isForOfStatement(p)) && p.initializer === target);
    if (!written) return;
    const at = source.getLineAndCharacterOfPosition(p.getStart(source));
    throw new TugError('InvalidSelection', `the language service cannot extract ${where}: it is written to (line ${at.line + 1}), a place rather than a value`, {
      details: { reason: 'written to', location: where },
    });
  }
}

/**
 * The const lands before the statement that holds the expression; an expression evaluated only on some paths (a branch
 * of an `if`, `?:`, the right of `&&`/`||`/`??`, a loop) would then run every time — what tug's Python extract refuses.
 */
function assertEvaluatedAlways(ts: typeof import('typescript'), source: import('typescript').SourceFile, range: { pos: number; end: number }, where: string): void {
  const node = coveringNode(ts, source, range);
  for (let child = node, parent = node.parent; parent && !ts.isBlock(parent) && !ts.isSourceFile(parent) && !ts.isCaseClause(parent); child = parent, parent = parent.parent) {
    const conditional =
      (ts.isIfStatement(parent) && parent.expression !== child) ||
      (ts.isConditionalExpression(parent) && parent.condition !== child) ||
      (ts.isBinaryExpression(parent) && parent.right === child && [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(parent.operatorToken.kind)) ||
      ts.isIterationStatement(parent, false);
    if (conditional) {
      const at = source.getLineAndCharacterOfPosition(parent.getStart(source));
      throw new TugError('UnsafeRefactor', `extracting ${where} would evaluate it on every path: it runs only on some (${ts.SyntaxKind[parent.kind]} at line ${at.line + 1})`, {
        details: { reason: 'conditionally evaluated', line: at.line + 1, col: at.character + 1 },
      });
    }
  }
}
