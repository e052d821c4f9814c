// What each place a rename touches is (definition, import, call, attribute, reference), read from the syntax tree, for the report.
import type * as TS from 'typescript';
import type { TypeScriptModule } from './load.js';

export type ReferenceKind = 'definition' | 'call' | 'reference' | 'import' | 'attribute';

type Internal = { getTouchingPropertyName(file: TS.SourceFile, position: number): TS.Node };

export function nodeAt(ts: TypeScriptModule, file: TS.SourceFile, position: number): TS.Node {
  return (ts as unknown as Internal).getTouchingPropertyName(file, position);
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
