// Places the language service's rename leaves alone that may still name the symbol: the name in a string, a member on a receiver typed `any`, a computed `obj[key]` on a type that has the member. Listed as unsure, renamed only on request.
import type * as TS from 'typescript';
import type { EditRequest } from '../core/patchset.js';
import { lineStarts, positionOf } from '../core/text.js';
import { OffsetMap } from './files.js';
import type { TypeScriptModule } from './load.js';
import { nodeAt } from './occurrences.js';

export type TsUnsureReason = 'string_mention' | 'untyped_receiver' | 'dynamic_getattr' | 'declaration_file';

export interface TsUnsure {
  file: string;
  line: number;
  col: number;
  text: string;
  reason: TsUnsureReason;
  renamed: boolean;
}

export interface UnsureInput {
  ts: TypeScriptModule;
  /** Script files to look in, with the program that holds each. */
  files: ReadonlyArray<{ file: string; source: TS.SourceFile; checker: TS.TypeChecker; bytes: Uint8Array }>;
  oldName: string;
  newName: string;
  /** The symbol is a class or object member, so receivers matter. */
  member: boolean;
  /** `file\0utf16Start` of every place the rename covers. */
  renamed: ReadonlySet<string>;
  includeUnsure: boolean;
}

const escape = (s: string) => s.replace(/[$.*+?^()|[\]{}\\]/g, '\\$&');

export function findTsUnsure(input: UnsureInput): { unsure: TsUnsure[]; edits: EditRequest[] } {
  const { ts, oldName } = input;
  const unsure: TsUnsure[] = [];
  const edits: EditRequest[] = [];
  const word = new RegExp(`(?<![\\p{ID_Continue}$#])${escape(oldName)}(?![\\p{ID_Continue}$])`, 'gu');
  for (const { file, source, checker, bytes } of input.files) {
    const text = source.text;
    if (!text.includes(oldName)) continue;
    const map = new OffsetMap(text);
    const starts = lineStarts(bytes);
    const report = (at: number, end: number, reason: TsUnsureReason, renamable: boolean) => {
      const byte = map.byteOf(at);
      const { line, col } = positionOf(starts, byte);
      const lineText = text.slice(text.lastIndexOf('\n', at - 1) + 1, text.indexOf('\n', at) === -1 ? undefined : text.indexOf('\n', at)).trim();
      const renamed = renamable && input.includeUnsure;
      unsure.push({ file, line, col, text: lineText.length > 160 ? `${lineText.slice(0, 157)}...` : lineText, reason, renamed });
      if (renamed) edits.push({ file, span: { start: byte, end: map.byteOf(end) }, old_text: oldName, new_text: input.newName });
    };
    for (const match of text.matchAll(word)) {
      const at = match.index;
      if (input.renamed.has(`${file}\0${at}`)) continue;
      const node = nodeAt(ts, source, at);
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && node.text === oldName && node.getStart(source) + 1 === at) {
        if (isModuleName(ts, node)) continue;
        const computed = ts.isElementAccessExpression(node.parent) && node.parent.argumentExpression === node;
        report(at, at + oldName.length, computed ? 'dynamic_getattr' : 'string_mention', true);
      } else if (input.member && ts.isIdentifier(node) && node.getStart(source) === at && ts.isPropertyAccessExpression(node.parent) && node.parent.name === node) {
        const type = checker.getTypeAtLocation(node.parent.expression);
        if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) report(at, at + oldName.length, 'untyped_receiver', true);
      }
    }
    if (input.member) {
      // `obj[key]` with a computed key on a type that has the member: the key may be the old name at run time.
      const visit = (node: TS.Node): void => {
        if (ts.isElementAccessExpression(node) && !ts.isStringLiteralLike(node.argumentExpression) && !ts.isNumericLiteral(node.argumentExpression)) {
          const type = checker.getTypeAtLocation(node.expression);
          if (!(type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) && checker.getPropertyOfType(checker.getApparentType(type), oldName)) {
            report(node.argumentExpression.getStart(source), node.argumentExpression.end, 'dynamic_getattr', false);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return { unsure, edits };
}

/** `import … from 'x'`, `export … from 'x'`, `require('x')`, `import('x')`: a module's name, not a symbol's. */
function isModuleName(ts: TypeScriptModule, node: TS.Node): boolean {
  const parent = node.parent;
  if ((ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) && parent.moduleSpecifier === node) return true;
  if (ts.isExternalModuleReference(parent)) return true;
  return ts.isCallExpression(parent) && parent.arguments[0] === node && (parent.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(parent.expression) && parent.expression.text === 'require'));
}
