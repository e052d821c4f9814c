// Whether a TypeScript/JavaScript variable's value means and does the same at each use: the language service's "Inline variable" copies the value without asking, so tug refuses what its Python inline refuses (a value that calls, builds or reads state where that would differ, a name that means something else at a use).
import type * as TS from 'typescript';
import { TugError } from '../core/errors.js';
import { isStaticBlock } from './compat.js';

export function refuseInline(ts: typeof TS, source: TS.SourceFile, node: TS.Node, message: string, reason: string): never {
  const at = source.getLineAndCharacterOfPosition(node.getStart(source));
  throw new TugError('UnsafeRefactor', `cannot inline this variable: ${message}`, { details: { reason, line: at.line + 1, col: at.character + 1 } });
}

export interface InlineValueInput {
  ts: typeof TS;
  source: TS.SourceFile;
  checker: TS.TypeChecker;
  service: TS.LanguageService;
  absolute: string;
  declaration: TS.VariableDeclaration;
  uses: readonly TS.Identifier[];
}

interface ValueFacts {
  /** Calls, `new`, await/yield, assignments, `++`, delete, tagged templates, JSX: running it twice or later differs. */
  effects: TS.Node | null;
  /** Object, array, function, class or regex literals: each evaluation is a new object. */
  builds: TS.Node | null;
  /** Member reads (`a.b`, `a[i]`): their value depends on when they run. */
  reads: TS.Node | null;
  /** `this`, `arguments`, `super`, `new.target`: they mean something else inside another function. */
  contextual: TS.Node | null;
  /** Names the value reads (not member names). */
  names: TS.Identifier[];
}

function factsOf(ts: typeof TS, value: TS.Expression): ValueFacts {
  const facts: ValueFacts = { effects: null, builds: null, reads: null, contextual: null, names: [] };
  const assignment = (k: TS.SyntaxKind) => k >= ts.SyntaxKind.FirstAssignment && k <= ts.SyntaxKind.LastAssignment;
  const visit = (node: TS.Node, nested: boolean): void => {
    if (!nested) {
      if (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isTaggedTemplateExpression(node) || ts.isAwaitExpression(node) || ts.isYieldExpression(node) || ts.isDeleteExpression(node) || ts.isJsxElement(node) || ts.isJsxSelfClosingElement(node) || ts.isJsxFragment(node)) facts.effects ??= node;
      if ((ts.isBinaryExpression(node) && assignment(node.operatorToken.kind)) || ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken))) facts.effects ??= node;
      if (ts.isObjectLiteralExpression(node) || ts.isArrayLiteralExpression(node) || ts.isClassExpression(node) || node.kind === ts.SyntaxKind.RegularExpressionLiteral) facts.builds ??= node;
      if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) facts.reads ??= node;
      if (node.kind === ts.SyntaxKind.ThisKeyword || node.kind === ts.SyntaxKind.SuperKeyword || ts.isMetaProperty(node) || (ts.isIdentifier(node) && node.text === 'arguments')) facts.contextual ??= node;
    }
    if (ts.isFunctionExpression(node) || ts.isArrowFunction(node)) {
      facts.builds ??= node;
      // A closure's body runs later; `this` in an arrow is still the surrounding one.
      if (ts.isArrowFunction(node)) ts.forEachChild(node, (child) => visitArrow(child));
      else ts.forEachChild(node, (child) => visit(child, true));
      return;
    }
    if (ts.isIdentifier(node) && isReadName(ts, node)) facts.names.push(node);
    ts.forEachChild(node, (child) => visit(child, nested));
  };
  const visitArrow = (node: TS.Node): void => {
    if (node.kind === ts.SyntaxKind.ThisKeyword || node.kind === ts.SyntaxKind.SuperKeyword || (ts.isIdentifier(node) && node.text === 'arguments')) facts.contextual ??= node;
    visit(node, true);
  };
  visit(value, false);
  return facts;
}

/** An identifier that names a binding (not a member name, a property key or a label). */
function isReadName(ts: typeof TS, node: TS.Identifier): boolean {
  const parent = node.parent;
  if ((ts.isPropertyAccessExpression(parent) && parent.name === node) || (ts.isQualifiedName(parent) && parent.right === node)) return false;
  if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isGetAccessor(parent) || ts.isSetAccessor(parent)) && parent.name === node) return false;
  if (ts.isJsxAttribute(parent) || ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent)) return false;
  if ((ts.isParameter(parent) || ts.isBindingElement(parent) || ts.isVariableDeclaration(parent) || ts.isFunctionLike(parent)) && (parent as { name?: TS.Node }).name === node) return false;
  return !ts.isTypeNode(parent) || ts.isTypeQueryNode(parent);
}

/** The function (or the file) whose run evaluates `node`. */
function runner(ts: typeof TS, node: TS.Node): TS.Node {
  let at = node.parent;
  while (at && !ts.isFunctionLike(at) && !ts.isSourceFile(at) && !isStaticBlock(ts, at) && !ts.isPropertyDeclaration(at)) at = at.parent;
  return at ?? node.getSourceFile();
}

export function checkInlineValue(input: InlineValueInput): void {
  const { ts, source, checker, declaration, uses } = input;
  const value = declaration.initializer!;
  const name = (declaration.name as TS.Identifier).text;
  const facts = factsOf(ts, value);
  const statement = declaration.parent.parent as TS.VariableStatement;
  const home = runner(ts, declaration);
  const refuse = (node: TS.Node, message: string, reason: string) => refuseInline(ts, source, node, message, reason);
  const lineOf = (node: TS.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const constant = !facts.effects && !facts.builds && !facts.reads && !facts.contextual;

  for (const use of uses) {
    const nested = runner(ts, use) !== home;
    if (!nested && use.getStart(source) < declaration.end) refuse(use, `${name} is used at line ${lineOf(use)} before its declaration runs`, 'used before its declaration');
    if (nested && !constant) refuse(use, `${name} is used inside a function at line ${lineOf(use)}, which runs at another time; the value ${facts.effects ? 'calls something' : facts.contextual ? `reads ${facts.contextual.getText(source)}` : facts.builds ? 'builds a new object' : 'reads a member'}`, 'used inside a nested function');
  }
  // Each name the value reads must mean the same binding at every use, and not be written between.
  for (const id of facts.names) {
    const symbol = checker.getSymbolAtLocation(id);
    // A name the value binds itself (an arrow's parameter) goes along with it.
    if (!symbol || symbol.declarations?.every((d) => d.getSourceFile() === source && d.pos >= value.pos && d.end <= value.end)) continue;
    for (const use of uses) {
      const there = resolve(ts, checker, id.text, use);
      if (there !== symbol) refuse(use, `${id.text}, which the value reads, means something else at line ${lineOf(use)}`, 'name means something else at a use');
    }
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const decl = target.valueDeclaration;
    const constBinding = decl && ts.isVariableDeclaration(decl) && (ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const) !== 0;
    if (constBinding || !decl || ts.isFunctionDeclaration(decl) || ts.isClassDeclaration(decl) || ts.isEnumDeclaration(decl) || ts.isModuleDeclaration(decl)) continue;
    // An import's own declaration (`import * as m`, `import { x }`) is where the name is bound, not a write: commander's
    // tests, `new commander.Command()` through `import * as commander`, were refused as "assigned at line 1".
    const declared = new Set([...(target.declarations ?? []), ...(symbol.declarations ?? [])].map((d) => `${d.getSourceFile().fileName}\0${((d as TS.NamedDeclaration).name ?? d).getStart(d.getSourceFile())}`));
    for (const ref of input.service.getReferencesAtPosition(input.absolute, id.getStart(source)) ?? []) {
      if (!ref.isWriteAccess || declared.has(`${ref.fileName}\0${ref.textSpan.start}`)) continue;
      const before = ref.fileName === input.absolute && ref.textSpan.start < declaration.getStart(source);
      const writer = ref.fileName === input.absolute ? ts.findAncestor(nodeOfSpan(ts, source, ref.textSpan.start), (n) => n === home || ts.isFunctionLike(n)) : undefined;
      if (before && writer === home) continue;
      refuse(id, `${id.text}, which the value reads, is assigned ${ref.fileName === input.absolute ? `at line ${source.getLineAndCharacterOfPosition(ref.textSpan.start).line + 1}` : 'in another file'}, so a use may see another value`, 'value reads a variable that is assigned again');
    }
  }
  if (facts.effects) checkEvaluation(ts, source, statement, declaration, uses, refuse, name);
  if (facts.builds && uses.length > 1) refuse(uses[1]!, `the value builds a new object and ${name} is used ${uses.length} times (each use would get its own)`, 'value builds an object and is used more than once');
  if (facts.builds && !facts.effects) {
    for (const use of uses) if (inLoopBetween(ts, use, statement)) refuse(use, `the value builds a new object and ${name} is used in a loop at line ${lineOf(use)}`, 'value builds an object and is used in a loop');
  }
  if (!facts.effects && facts.reads) checkState(ts, source, declaration, uses, refuse);
}

function resolve(ts: typeof TS, checker: TS.TypeChecker, name: string, at: TS.Node): TS.Symbol | undefined {
  const withResolve = checker as TS.TypeChecker & { resolveName?: (n: string, l: TS.Node, m: TS.SymbolFlags, e: boolean) => TS.Symbol | undefined };
  if (typeof withResolve.resolveName === 'function') return withResolve.resolveName(name, at, ts.SymbolFlags.Value | ts.SymbolFlags.Alias, false);
  return checker.getSymbolsInScope(at, ts.SymbolFlags.Value | ts.SymbolFlags.Alias).find((s) => s.name === name);
}

function nodeOfSpan(ts: typeof TS, source: TS.SourceFile, start: number): TS.Node {
  const find = (node: TS.Node): TS.Node => ts.forEachChild(node, (child) => (child.getStart(source) <= start && start < child.end ? find(child) : undefined)) ?? node;
  return find(source);
}

function inLoopBetween(ts: typeof TS, use: TS.Node, statement: TS.Node): boolean {
  for (let at = use.parent; at && at !== statement.parent; at = at.parent) if (ts.isIterationStatement(at, false)) return true;
  return false;
}

/** A value with effects moves only to a single use in the next statement, evaluated exactly once and first. */
function checkEvaluation(ts: typeof TS, source: TS.SourceFile, statement: TS.VariableStatement, declaration: TS.VariableDeclaration, uses: readonly TS.Identifier[], refuse: (n: TS.Node, m: string, r: string) => never, name: string): void {
  const use = uses[0]!;
  if (uses.length > 1) refuse(uses[1]!, `the value calls something and ${name} is used ${uses.length} times`, 'value with effects used more than once');
  const list = (declaration.parent as TS.VariableDeclarationList).declarations;
  if (list.indexOf(declaration) !== list.length - 1) refuse(declaration, `the value calls something and the declarations after it in the same statement would then run first`, 'value with effects moves past other code');
  const block = statement.parent as TS.Block | TS.SourceFile;
  const next = block.statements[block.statements.indexOf(statement) + 1];
  if (!next || !(next.getStart(source) <= use.getStart(source) && use.end <= next.end)) refuse(use, `the value calls something and ${name} is not used in the next statement`, 'value with effects used later');
  const within = (node: TS.Node | undefined) => node !== undefined && node.pos <= use.pos && use.end <= node.end;
  for (let at: TS.Node = use.parent; at !== next.parent; at = at.parent) {
    // A statement's first part runs once, first: an if's or switch's test, a for-of's iterable, a for's initializer, a try block.
    const head = (ts.isIfStatement(at) || ts.isSwitchStatement(at) || ts.isForOfStatement(at) || ts.isForInStatement(at)) ? within(at.expression) : ts.isForStatement(at) ? within(at.initializer) : ts.isTryStatement(at) ? within(at.tryBlock) : false;
    if (head) continue;
    const branch =
      (ts.isConditionalExpression(at) && at.condition.end <= use.getStart(source)) ||
      (ts.isBinaryExpression(at) && at.right.getStart(source) <= use.getStart(source) && [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(at.operatorToken.kind)) ||
      ts.isFunctionLike(at) || ts.isIterationStatement(at, false) || ts.isIfStatement(at) || ts.isSwitchStatement(at) || ts.isTryStatement(at) || ts.isCaseClause(at) ||
      ((ts.isPropertyAccessExpression(at) || ts.isElementAccessExpression(at) || ts.isCallExpression(at)) && at.questionDotToken !== undefined && at.expression.end <= use.getStart(source));
    if (branch) refuse(use, `the value calls something and its use may run another number of times (${ts.SyntaxKind[at.kind]} at line ${source.getLineAndCharacterOfPosition(at.getStart(source)).line + 1})`, 'value with effects used conditionally');
  }
  let earlier: TS.Node | null = null;
  const visit = (node: TS.Node): void => {
    if (earlier || node.getStart(source) >= use.getStart(source)) return;
    if (node.end <= use.getStart(source) && (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isAwaitExpression(node) || ts.isYieldExpression(node) || ts.isTaggedTemplateExpression(node) || ts.isDeleteExpression(node) || (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment))) earlier = node;
    ts.forEachChild(node, visit);
  };
  visit(next);
  if (earlier) refuse(earlier, `the value calls something and the next statement does something before ${name} is read`, 'value with effects moves past other code');
}

/** A value that reads members reads them at the use: nothing between the declaration and the last use may change them. */
function checkState(ts: typeof TS, source: TS.SourceFile, declaration: TS.VariableDeclaration, uses: readonly TS.Identifier[], refuse: (n: TS.Node, m: string, r: string) => never): void {
  const from = declaration.end;
  const to = Math.max(...uses.map((u) => u.getStart(source)));
  const visit = (node: TS.Node): void => {
    if (node.end <= from || node.getStart(source) >= to) return;
    if (node.getStart(source) >= from) {
      const writes = ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment && (ts.isPropertyAccessExpression(node.left) || ts.isElementAccessExpression(node.left) || ts.isObjectLiteralExpression(node.left) || ts.isArrayLiteralExpression(node.left));
      if (writes) refuse(node, 'the value reads a member, and an assignment before a use may change it', 'value reads state that may change');
      const runs = (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isAwaitExpression(node) || ts.isYieldExpression(node) || ts.isTaggedTemplateExpression(node) || ts.isDeleteExpression(node)) && node.end <= to;
      if (runs) refuse(node, 'the value reads a member, and a call before a use may change it', 'value reads state that may change');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
