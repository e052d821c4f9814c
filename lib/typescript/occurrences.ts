// What each place a rename touches is (definition, import, call, attribute, reference), read from the syntax tree, for the report.
import type * as TS from 'typescript';
import type { TypeScriptModule } from './load.js';

export type ReferenceKind = 'definition' | 'call' | 'reference' | 'import' | 'attribute';

type Internal = { getTouchingPropertyName(file: TS.SourceFile, position: number): TS.Node };

/**
 * The token at `position`, as the compiler's getTouchingPropertyName finds it. That walk builds and scans every node's
 * token list on its way down (~10 µs a place, a tenth of a warm 501-file rename's plan); a name starting at `position`
 * is found by descending the syntax tree's own children instead, and is the token that walk returns (no other token
 * can end where a name starts). Anything else (a place inside a name, in JSDoc, a string) asks the compiler.
 */
export function nodeAt(ts: TypeScriptModule, file: TS.SourceFile, position: number): TS.Node {
  return nameStartingAt(ts, file, position) ?? (ts as unknown as Internal).getTouchingPropertyName(file, position);
}

function nameStartingAt(ts: TypeScriptModule, file: TS.SourceFile, position: number): TS.Node | undefined {
  const before = position > 0 ? file.text.charCodeAt(position - 1) : NaN;
  // A token ending right where the name starts would be the compiler's answer: only punctuation or space may precede.
  if (position > 0 && (ts.isIdentifierPart(before, file.languageVersion) || before === 0x22 || before === 0x27 || before === 0x60 || before === 0x23)) return undefined;
  let current: TS.Node = file;
  for (;;) {
    let next: TS.Node | undefined;
    ts.forEachChild(current, (child) => {
      if (child.pos <= position && position < child.end) {
        next = child;
        return true;
      }
      return undefined;
    });
    if (next === undefined) break;
    current = next;
  }
  return (ts.isIdentifier(current) || ts.isPrivateIdentifier(current)) && current.getStart(file) === position ? current : undefined;
}

export function referenceKind(ts: TypeScriptModule, file: TS.SourceFile | undefined, position: number): ReferenceKind {
  if (!file) return 'reference';
  const node = nodeAt(ts, file, position);
  const parent = node.parent;
  if (!parent) return 'reference';
  if (ts.isImportSpecifier(parent) || ts.isImportClause(parent) || ts.isNamespaceImport(parent) || ts.isExportSpecifier(parent) || ts.isImportEqualsDeclaration(parent)) return 'import';
  if ((parent as { name?: TS.Node }).name === node && (ts.isFunctionLike(parent) || ts.isClassLike(parent) || ts.isVariableDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertySignature(parent) || ts.isInterfaceDeclaration(parent) || ts.isTypeAliasDeclaration(parent) || ts.isEnumDeclaration(parent) || ts.isEnumMember(parent) || ts.isParameter(parent) || ts.isModuleDeclaration(parent) || ts.isBindingElement(parent))) return 'definition';
  const callee = (n: TS.Node) => (ts.isCallExpression(n.parent) || ts.isNewExpression(n.parent)) && n.parent.expression === n;
  if (callee(node)) return 'call';
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return callee(parent) ? 'call' : 'attribute';
  return 'reference';
}

/** tug's kind words for the service's ScriptElementKind. */
export function symbolKind(kind: string): string {
  const known: Record<string, string> = {
    'local function': 'function', function: 'function', class: 'class', 'local class': 'class', method: 'method', property: 'property', getter: 'property', setter: 'property',
    const: 'variable', let: 'variable', var: 'variable', 'local var': 'variable', 'using': 'variable', parameter: 'parameter', interface: 'interface', type: 'type_alias',
    enum: 'enum', 'enum member': 'enum_member', module: 'module', alias: 'import', 'type parameter': 'type_parameter', constructor: 'constructor', 'JSX attribute': 'property',
  };
  return known[kind] ?? (kind.replace(/\s+/g, '_') || 'symbol');
}
