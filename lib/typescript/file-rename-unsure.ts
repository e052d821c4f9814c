// Places a module rename cannot rewrite, listed in `unsure` and left as they are: modules loaded by a computed name (`require(expr)`, `import(expr)`), strings that are a moved file's relative path (`jest.mock('./old')`), and package.json fields naming it (`main`, `exports`, `bin`).
import path from 'node:path';
import type * as TS from 'typescript';
import type { z } from 'zod';
import type { FileMove } from '../core/patchset.js';
import type { Unsure } from '../core/schemas.js';
import { lineStarts, positionOf } from '../core/text.js';
import { inNodeModules, OffsetMap } from './files.js';
import type { TypeScriptModule } from './load.js';
import { isLoader, moduleSpecifiers, resolveSpecifier } from './move-specifiers.js';
import type { TsWorkspace } from './workspace.js';

export type UnsureEntry = z.infer<typeof Unsure>;

const stem = (file: string) => file.replace(/\.(d\.)?[mc]?[jt]sx?$/, '');

export function fileRenameUnsure(ws: TsWorkspace, ts: TypeScriptModule, moves: readonly FileMove[]): UnsureEntry[] {
  const moved = new Set(moves.map((m) => m.from));
  const unsure: UnsureEntry[] = [];
  const report = (file: string, text: string, at: number, reason: UnsureEntry['reason']) => {
    const lineEnd = text.indexOf('\n', at);
    const line = text.slice(text.lastIndexOf('\n', at - 1) + 1, lineEnd === -1 ? undefined : lineEnd).trim();
    unsure.push({ file, ...positionOf(lineStarts(ws.bytes.get(file)!), new OffsetMap(text).byteOf(at)), text: line.length > 160 ? `${line.slice(0, 157)}...` : line, reason, renamed: false });
  };
  for (const file of ws.scripts) {
    const text = ws.fs.readFile(ws.fs.absolute(file))!;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const specifiers = new Set<TS.Node>(moduleSpecifiers(ts, source));
    const options = ws.containing(file)[0]?.options ?? {};
    const visit = (node: TS.Node): void => {
      if (ts.isCallExpression(node) && isLoader(ts, node) && node.arguments.length > 0 && !ts.isStringLiteralLike(node.arguments[0]!)) report(file, text, node.getStart(source), 'dynamic_module');
      else if (ts.isStringLiteralLike(node) && !specifiers.has(node) && node.text.startsWith('.') && node.text.length < 300) {
        const resolved = resolveSpecifier(ws, ts, options, file, node.text);
        const plain = path.posix.normalize(path.posix.join(path.posix.dirname(file), node.text));
        if ((resolved !== null && moved.has(resolved)) || [...moved].some((m) => m === plain || stem(m) === plain)) report(file, text, node.getStart(source), 'string_mention');
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  // A package's entry points name files by path: `"main": "src/cart.js"`.
  for (const manifest of [...ws.bytes.keys()].filter((p) => path.posix.basename(p) === 'package.json' && !inNodeModules(p)).sort()) {
    const text = ws.fs.readFile(ws.fs.absolute(manifest))!;
    const dir = path.posix.dirname(manifest);
    for (const match of text.matchAll(/"((?:\.\/)?[^"\s]+\.[mc]?[jt]sx?)"/g)) {
      const named = path.posix.normalize(path.posix.join(dir, match[1]!));
      if (moved.has(named) || [...moved].some((m) => stem(m) === stem(named))) report(manifest, text, match.index + 1, 'string_mention');
    }
  }
  return unsure.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col));
}
