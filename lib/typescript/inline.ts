// inline for TypeScript/JavaScript: the variable at a position is checked by tug (one plain declaration, never written again, used in this file only, a value that means and does the same at every use), then the language service's "Inline variable" refactor writes the edit.
import type * as TS from 'typescript';
import { TugError } from '../core/errors.js';
import type { EditRequest } from '../core/patchset.js';
import { lineStarts, offsetOf } from '../core/text.js';
import { rewriteEdits } from '../core/text-edits.js';
import type { Repo } from '../git/repo.js';
import { OffsetMap } from './files.js';
import { checkInlineValue, refuseInline } from './inline-safety.js';
import { serviceCall } from './compat.js';
import { nodeAt } from './occurrences.js';
import { syntaxError } from './rename-plan.js';
import { openTsWorkspace, requireScript } from './workspace.js';

export interface TsInlineInput {
  repo: Repo;
  tree: string;
  file: string;
  line: number;
  col: number;
}

export interface TsInlinePlan {
  edits: EditRequest[];
  name: string;
  uses: number;
}

const REFACTOR = 'Inline variable';

export async function planTsInline(input: TsInlineInput): Promise<TsInlinePlan> {
  const { file } = input;
  const ws = await openTsWorkspace(input.repo, input.tree, file);
  const { ts } = ws.compiler;
  const bytes = requireScript(ws, file);
  const where = `${file}:${input.line}:${input.col}`;
  const location = { file, line: input.line, col: input.col };
  const offset = offsetOf(bytes, lineStarts(bytes), input.line, input.col);
  if (offset === null) throw new TugError('InvalidPosition', `${where} is outside the file`, { details: { location: where }, location });
  const absolute = ws.fs.absolute(file);
  const text = ws.fs.readFile(absolute)!;
  const position = new OffsetMap(text).utf16Of(offset);
  const project = ws.containing(file)[0];
  if (!project) throw new TugError('InternalError', `no TypeScript project holds ${file}`, { details: { path: file } });
  const parseErrors = project.service.getSyntacticDiagnostics(absolute);
  if (parseErrors.length > 0) throw syntaxError(ts, file, bytes, parseErrors[0]!);
  const program = project.service.getProgram()!;
  const source = program.getSourceFile(absolute)!;
  const checker = program.getTypeChecker();
  const declaration = variableAt(ts, source, checker, position, where, location);
  const name = (declaration.name as TS.Identifier).text;
  const at = declaration.name.getStart(source);

  // Every reference the service knows, in any file: what the refactor (which looks in this file only) must cover.
  const references = project.service.getReferencesAtPosition(absolute, at) ?? [];
  const uses: TS.Identifier[] = [];
  for (const ref of references) {
    if (ref.fileName === absolute && ref.textSpan.start === at) continue;
    if (ref.fileName !== absolute) refuseInline(ts, source, declaration.name, `${name} is also used in ${ws.fs.relative(ref.fileName) ?? ref.fileName} (a global of a script file)`, 'used in other files');
    const node = nodeAt(ts, source, ref.textSpan.start);
    if (!ts.isIdentifier(node)) refuseInline(ts, source, node, `${name} is named at line ${line(source, node)} in a way the inline cannot replace`, 'unsupported reference');
    if (ref.isWriteAccess && !ts.isShorthandPropertyAssignment(node.parent)) refuseInline(ts, source, node, `${name} is assigned again at line ${line(source, node)}; only a variable written once can be inlined`, 'reassigned');
    if (ts.isExportSpecifier(node.parent) || ts.isExportAssignment(node.parent)) refuseInline(ts, source, node, `${name} is exported at line ${line(source, node)}; other modules may import it`, 'exported');
    if (ts.isTypeQueryNode(node.parent)) refuseInline(ts, source, node, `${name} is used in a type (typeof ${name}) at line ${line(source, node)}`, 'used in a type');
    uses.push(node);
  }
  if (uses.length === 0) refuseInline(ts, source, declaration.name, `${name} is never used; there is nothing to inline`, 'never used');
  checkInlineValue({ ts, source, checker, service: project.service, absolute, declaration, uses });

  const refactors = serviceCall(ts, where, () => project.service.getApplicableRefactors(absolute, at, { provideRefactorNotApplicableReason: true }, 'invoked', undefined));
  const offered = refactors.find((r) => r.name === REFACTOR)?.actions.find((a) => a.name === REFACTOR);
  if (!offered) {
    throw new TugError('UnsupportedByAdapter', `the TypeScript ${ts.version} that analyses ${file} offers no "${REFACTOR}" refactor for ${name} (TypeScript 5.4 and later have it)`, {
      details: { operation: 'inline', language: 'typescript', reason: 'not offered by the language service', typescript: ts.version, offered: refactors.map((r) => r.name) },
      location,
    });
  }
  if (offered.notApplicableReason) refuseInline(ts, source, declaration.name, `the language service cannot inline ${name}: ${offered.notApplicableReason}`, offered.notApplicableReason);
  const format = ts.getDefaultFormatCodeSettings(text.includes('\r\n') ? '\r\n' : '\n');
  const result = serviceCall(ts, where, () => project.service.getEditsForRefactor(absolute, format, at, REFACTOR, REFACTOR, {}));
  const changes = result?.edits ?? [];
  const own = changes.filter((e) => e.fileName === absolute).flatMap((e) => e.textChanges);
  // A replacement of every use and the declaration's removal, in this file only: anything else would be a partial
  // inline. The removal may be more than one deletion (`, len = mix.length` out of a list is the comma and the item).
  const covers = (c: TS.TextChange, use: TS.Identifier) => c.span.start <= use.getStart(source) && use.end <= c.span.start + c.span.length;
  const replaced = uses.filter((u) => own.some((c) => covers(c, u))).length;
  const statement = declaration.parent.parent;
  const lineEnd = text.indexOf('\n', statement.end);
  const removal = (c: TS.TextChange) => c.newText === '' && c.span.start >= statement.pos && c.span.start + c.span.length <= (lineEnd === -1 ? text.length : lineEnd + 1);
  const stray = own.find((c) => !uses.some((u) => covers(c, u)) && !removal(c));
  if (changes.some((e) => e.fileName !== absolute) || replaced !== uses.length || stray) {
    const what = stray ? `also changes line ${source.getLineAndCharacterOfPosition(stray.span.start).line + 1}, which is neither a use nor the declaration` : `covers ${replaced} of its ${uses.length} use(s)`;
    throw new TugError('UnsafeRefactor', `the language service's inline of ${name} ${what}; tug does not write a partial inline`, {
      details: { reason: 'partial edit', uses: uses.length, replaced },
      location,
    });
  }
  let after = text;
  for (const c of [...own].sort((a, b) => b.span.start - a.span.start)) after = after.slice(0, c.span.start) + c.newText + after.slice(c.span.start + c.span.length);
  const reparsed = ts.createSourceFile(absolute, after, ts.ScriptTarget.Latest, false, (source as TS.SourceFile & { scriptKind: TS.ScriptKind }).scriptKind);
  const broken = (reparsed as unknown as { parseDiagnostics: TS.Diagnostic[] }).parseDiagnostics;
  if (broken.length > 0) throw new TugError('UnsafeRefactor', `inlining ${name} would leave ${file} unparsable: ${ts.flattenDiagnosticMessageText(broken[0]!.messageText, '\n')}`, { details: { reason: 'result does not parse' }, location });
  return { edits: rewriteEdits(file, text, after), name, uses: uses.length };
}

function line(source: TS.SourceFile, node: TS.Node): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}

/** The variable declaration the position names (on its declaration or a use), or the precise reason there is none. */
function variableAt(ts: typeof TS, source: TS.SourceFile, checker: TS.TypeChecker, position: number, where: string, location: { file: string; line: number; col: number }): TS.VariableDeclaration {
  const token = nodeAt(ts, source, position);
  if (!ts.isIdentifier(token) || !(token.getStart(source) <= position && position <= token.end)) {
    throw new TugError('SymbolNotFound', `there is no variable name at ${where}`, { details: { location: where, reason: 'put the position on the variable\'s declaration or a use' }, location });
  }
  const symbol = ts.isShorthandPropertyAssignment(token.parent) ? checker.getShorthandAssignmentValueSymbol(token.parent) : checker.getSymbolAtLocation(token);
  const declarations = symbol?.declarations ?? [];
  if (!symbol || declarations.length === 0) throw new TugError('SymbolNotFound', `${token.text} at ${where} resolves to nothing in the workspace`, { details: { location: where, reason: 'unresolved' }, location });
  const unsupported = (what: string, reason: string): never => {
    throw new TugError('UnsupportedByAdapter', `${token.text} is ${what}; TypeScript/JavaScript inline takes a variable declared once with a value (const x = …)`, {
      details: { operation: 'inline', language: 'typescript', reason },
      location,
    });
  };
  const declaration = declarations[0]!;
  if (declarations.length > 1) refuseInline(ts, source, token, `${token.text} has ${declarations.length} declarations`, 'multiple declarations');
  if (declaration.getSourceFile() !== source) unsupported(`declared in ${declaration.getSourceFile().fileName === source.fileName ? 'this file' : 'another file'} (an import)`, 'not a variable of this file');
  if (ts.isImportSpecifier(declaration) || ts.isImportClause(declaration) || ts.isNamespaceImport(declaration) || ts.isImportEqualsDeclaration(declaration)) unsupported('an import', 'import');
  if (ts.isFunctionLike(declaration) || ts.isClassLike(declaration)) unsupported('a function or class, which the language service does not inline', 'not a variable');
  if (ts.isParameter(declaration)) unsupported('a parameter', 'parameter');
  if (ts.isBindingElement(declaration)) unsupported('bound by destructuring', 'destructuring');
  if (!ts.isVariableDeclaration(declaration)) unsupported(`a ${ts.SyntaxKind[declaration.kind]}`, 'not a variable');
  const variable = declaration as TS.VariableDeclaration;
  if (!ts.isIdentifier(variable.name)) unsupported('bound by destructuring', 'destructuring');
  if (!ts.isVariableStatement(variable.parent.parent)) unsupported('a loop or catch variable', 'not a plain declaration');
  const flags = variable.parent.flags;
  if ((flags & ts.NodeFlags.Using) !== 0) unsupported('a `using` declaration, disposed at the end of its block', 'using');
  const statement = variable.parent.parent as TS.VariableStatement;
  if (!variable.initializer) refuseInline(ts, source, variable.name, `${token.text} is declared without a value`, 'no initializer');
  if (statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) refuseInline(ts, source, variable.name, `${token.text} is exported; other modules may import it`, 'exported');
  if (statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)) refuseInline(ts, source, variable.name, `${token.text} is an ambient declaration`, 'ambient');
  return variable;
}
