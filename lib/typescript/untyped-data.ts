// A member whose values come from data the program does not type (`JSON.parse(…)` annotated or cast as the type): the
// rename changes every access, type-correctly, while the data keeps its old key, so the result reads `undefined` at
// run time (rehype-cli's `/** @type {Pack} */ const rehypePackage = JSON.parse(…)`, `Pack.name` renamed). Refused.
import type * as TS from 'typescript';
import { TugError } from '../core/errors.js';
import type { TypeScriptModule } from './load.js';
import { nodeAt } from './occurrences.js';

/**
 * Refuses the rename of the property at `position` when, in one of `files` or a workspace file naming the type that
 * declares it, a value of type `any` becomes a value of a type that has this very property: a declaration with a type
 * and an untyped initializer, an `as`/`<T>` cast or a JSDoc cast of an untyped expression.
 */
export function assertNoUntypedData(ts: TypeScriptModule, program: TS.Program, file: string, position: number, oldName: string, files: readonly string[], relative: (absolute: string) => string, inWorkspace: (absolute: string) => boolean): void {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) return;
  const property = checker.getSymbolAtLocation(nodeAt(ts, source, position));
  if (!property || !(property.flags & ts.SymbolFlags.Property)) return;
  const untyped = (node: TS.Node) => (checker.getTypeAtLocation(node).flags & ts.TypeFlags.Any) !== 0;
  const holds = (node: TS.Node) => {
    const type = checker.getTypeAtLocation(node);
    if (type.flags & ts.TypeFlags.Any) return false;
    const own = checker.getPropertyOfType(checker.getNonNullableType(type), oldName);
    return own === property || (own !== undefined && (own.declarations ?? []).some((d) => (property.declarations ?? []).includes(d)));
  };
  // Where such a value can be made: the files the rename edits, and the workspace's files that name the declaring type.
  const owner = (property as TS.Symbol & { parent?: TS.Symbol }).parent;
  const declared = property.declarations?.[0];
  const alias = declared && ts.findAncestor(declared, (n) => ts.isTypeAliasDeclaration(n) || ts.isJSDocTypedefTag(n));
  const typeName = owner && !owner.name.startsWith('__') ? owner.name : alias && (ts.isTypeAliasDeclaration(alias) || ts.isJSDocTypedefTag(alias)) ? alias.name?.getText() : undefined;
  const candidates = new Set(files);
  if (typeName) for (const f of program.getSourceFiles()) if (!f.isDeclarationFile && inWorkspace(f.fileName) && f.text.includes(typeName)) candidates.add(f.fileName);
  for (const name of [...candidates].sort()) {
    const f = program.getSourceFile(name);
    if (!f) continue;
    const visit = (node: TS.Node): void => {
      let into: TS.Node | undefined;
      let from: TS.Node | undefined;
      if (ts.isVariableDeclaration(node) && node.initializer && (node.type || ts.getJSDocType(node))) [into, from] = [node.name, node.initializer];
      else if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) [into, from] = [node, node.expression];
      else if (ts.isParenthesizedExpression(node) && ts.getJSDocTypeTag(node)) [into, from] = [node, node.expression];
      if (into && from && untyped(from) && holds(into)) {
        const at = f.getLineAndCharacterOfPosition(from.getStart(f));
        const where = `${relative(f.fileName)}:${at.line + 1}:${at.character + 1}`;
        throw new TugError('UnsafeRefactor', `${oldName} is a key of data the program does not type: at ${where} an untyped value (${from.getText(f).replace(/\s+/g, ' ').slice(0, 60)}) becomes a value with this property, and its key would keep the old name; rename the data's key and the code by hand`, {
          details: { reason: 'untyped data', path: relative(f.fileName), line: at.line + 1, col: at.character + 1 },
          location: { file: relative(f.fileName), line: at.line + 1, col: at.character + 1 },
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(f);
  }
}
