// Module specifiers for a moved symbol, written the way the importing file already wrote the old one: relative with the same extension style (`./a.js`, `./a`, `./a.ts`), or through the same `paths` alias prefix.
import path from 'node:path';
import type * as TS from 'typescript';
import type { TypeScriptModule } from './load.js';
import type { TsWorkspace } from './workspace.js';

const SCRIPT_EXT = /\.(d\.)?[mc]?[jt]sx?$/;

/** The output extension of a script file: what an ESM import under NodeNext writes (`a.ts` is imported as `a.js`). */
function runtimeExtension(file: string): string {
  const ext = path.posix.extname(file);
  return ({ '.ts': '.js', '.tsx': '.js', '.mts': '.mjs', '.cts': '.cjs' } as Record<string, string>)[ext] ?? ext;
}

/** `toFile` as seen from `fromFile`, in the style of `oldSpecifier` (which named `oldFile`); null when no style fits. */
export function specifierLike(oldSpecifier: string, oldFile: string, fromFile: string, toFile: string): string | null {
  const oldExt = SCRIPT_EXT.exec(oldSpecifier)?.[0];
  const withExt = (stem: string) => {
    if (!oldExt) return stem;
    return /\.[mc]?js$|\.jsx$/.test(oldExt) ? stem + runtimeExtension(toFile) : stem + path.posix.extname(toFile);
  };
  const toStem = toFile.replace(SCRIPT_EXT, '');
  if (oldSpecifier.startsWith('.')) {
    let rel = path.posix.relative(path.posix.dirname(fromFile), toStem);
    if (!rel.startsWith('.')) rel = `./${rel}`;
    return withExt(rel);
  }
  // A `paths` alias or a package's self-reference: the specifier ends with the tail of the old file's path; the new
  // file keeps the prefix when it lies under the same directory the prefix stands for.
  const specStem = oldSpecifier.replace(SCRIPT_EXT, '');
  const oldStem = oldFile.replace(SCRIPT_EXT, '').replace(/\/index$/, '');
  for (let cut = oldStem.indexOf('/'); cut >= 0; cut = oldStem.indexOf('/', cut + 1)) {
    const tail = oldStem.slice(cut); // `/shop/pricing`
    if (!specStem.endsWith(tail)) continue;
    const base = oldStem.slice(0, cut);
    if (!toStem.startsWith(`${base}/`)) return null;
    return withExt(specStem.slice(0, specStem.length - tail.length) + toStem.slice(base.length));
  }
  return null;
}

/** The repository path a specifier written in `fromFile` resolves to, under the options of the project holding it. */
export function resolveSpecifier(ws: TsWorkspace, ts: TypeScriptModule, options: TS.CompilerOptions, fromFile: string, specifier: string): string | null {
  const host: TS.ModuleResolutionHost = {
    fileExists: (p) => ws.fs.fileExists(p),
    readFile: (p) => ws.fs.readFile(p),
    directoryExists: (p) => ws.fs.directoryExists(p),
    realpath: (p) => ws.fs.realpath(p),
    getDirectories: (p) => ws.fs.getDirectories(p),
  };
  const resolved = ts.resolveModuleName(specifier, ws.fs.absolute(fromFile), options, host).resolvedModule;
  return resolved ? ws.fs.relative(resolved.resolvedFileName) : null;
}

/** The specifier of every import, export-from, `require('…')` and `import('…')` of a file, with its node. */
export function moduleSpecifiers(ts: TypeScriptModule, source: TS.SourceFile): TS.StringLiteralLike[] {
  const found: TS.StringLiteralLike[] = [];
  const visit = (node: TS.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteralLike(node.moduleSpecifier)) found.push(node.moduleSpecifier);
    else if (ts.isExternalModuleReference(node) && ts.isStringLiteralLike(node.expression)) found.push(node.expression);
    else if (ts.isCallExpression(node) && node.arguments.length >= 1 && ts.isStringLiteralLike(node.arguments[0]!) && isLoader(ts, node)) found.push(node.arguments[0]!);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteralLike(node.argument.literal)) found.push(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `require(…)` and `import(…)` (also `require.resolve(…)`, which names a module the same way). */
export function isLoader(ts: TypeScriptModule, call: TS.CallExpression): boolean {
  const callee = call.expression;
  if (callee.kind === ts.SyntaxKind.ImportKeyword) return true;
  if (ts.isIdentifier(callee)) return callee.text === 'require';
  return ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'require' && callee.name.text === 'resolve';
}
