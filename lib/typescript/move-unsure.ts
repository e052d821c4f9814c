// Places a TypeScript/JavaScript move cannot follow, listed in `unsure` and left as they are: modules loaded by a computed name (`require(expr)`, `import(expr)`), the old module loaded at run time or re-exported as a namespace where the name is read through it, and strings naming the old module's path (a test's `jest.mock('./old')`).
import type * as TS from 'typescript';
import type { z } from 'zod';
import type { Unsure } from '../core/schemas.js';
import { lineStarts, positionOf } from '../core/text.js';
import { OffsetMap } from './files.js';
import type { TypeScriptModule } from './load.js';
import { isLoader, resolveSpecifier } from './move-specifiers.js';
import type { TsWorkspace } from './workspace.js';

type UnsureJSON = z.infer<typeof Unsure>;

const escape = (s: string) => s.replace(/[$.*+?^()|[\]{}\\]/g, '\\$&');

export function moveUnsure(ws: TsWorkspace, ts: TypeScriptModule, after: ReadonlyMap<string, string>, oldFile: string, name: string): UnsureJSON[] {
  const unsure: UnsureJSON[] = [];
  const word = new RegExp(`(?<![\\p{ID_Continue}$])${escape(name)}(?![\\p{ID_Continue}$])`, 'u');
  for (const file of ws.scripts) {
    const text = ws.fs.readFile(ws.fs.absolute(file));
    if (text === undefined || !(/\b(require|import)\b/.test(text) || text.includes(name))) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const map = new OffsetMap(text);
    const starts = lineStarts(ws.bytes.get(file)!);
    const mentions = word.test(text);
    const options = ws.containing(file)[0]?.options ?? {};
    const isOld = (spec: string) => resolveSpecifier(ws, ts, options, file, spec) === oldFile;
    const report = (node: TS.Node, reason: UnsureJSON['reason']) => {
      const at = node.getStart(source);
      const lineEnd = text.indexOf('\n', at);
      const line = text.slice(text.lastIndexOf('\n', at - 1) + 1, lineEnd === -1 ? undefined : lineEnd).trim();
      unsure.push({ file, ...positionOf(starts, map.byteOf(at)), text: line.length > 160 ? `${line.slice(0, 157)}...` : line, reason, renamed: false });
    };
    const visit = (node: TS.Node): void => {
      if (ts.isCallExpression(node) && isLoader(ts, node) && node.arguments.length > 0) {
        const arg = node.arguments[0]!;
        if (!ts.isStringLiteralLike(arg)) report(node, 'dynamic_module');
        // A module object loaded at run time: `(await import('./old')).name` and `require('./old').name` are not followed.
        else if (mentions && file !== oldFile && isOld(arg.text) && !rewritten(after, file, node, source)) report(node, 'unresolved');
      } else if (ts.isExportDeclaration(node) && node.exportClause && ts.isNamespaceExport(node.exportClause) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && isOld(node.moduleSpecifier.text)) {
        report(node, 'unresolved'); // `export * as ns from './old'`: ns.name no longer exists
      } else if (mentions && ts.isStringLiteralLike(node) && node.text.startsWith('.') && file !== oldFile && !isSpecifier(ts, node) && isOld(node.text)) {
        report(node, 'string_mention'); // `jest.mock('./old')`, `vi.mock('./old.js')`: it mocks the module the name has left
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return unsure.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col));
}

/** The call is still in the moved text of its file (the service did not rewrite it). */
function rewritten(after: ReadonlyMap<string, string>, file: string, node: TS.Node, source: TS.SourceFile): boolean {
  const next = after.get(file);
  return next !== undefined && !next.includes(node.getText(source));
}

function isSpecifier(ts: TypeScriptModule, node: TS.Node): boolean {
  const parent = node.parent;
  if ((ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) && parent.moduleSpecifier === node) return true;
  if (ts.isExternalModuleReference(parent) || ts.isLiteralTypeNode(parent)) return true;
  return ts.isCallExpression(parent) && isLoader(ts, parent);
}
