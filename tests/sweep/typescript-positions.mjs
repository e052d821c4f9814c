// The positions tests/sweep/typescript.mjs samples renames from with --positions N --seed S: every identifier of a
// project's tracked TypeScript/JavaScript files whose symbol the project itself declares (a use or the declaration;
// names from the standard library or from packages are left out, renaming them is refused and says nothing), listed
// with the compiler's own parser and checker, so the sample is drawn from what the language sees, not from tug's view.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { createRequire } from 'node:module';
import { rng } from './rust-inject.mjs';

const require = createRequire(import.meta.url);
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const SKIP = new Set(['undefined', 'arguments', 'this', 'constructor']);

/** The project's tracked source files (relative, posix), declaration files and minified bundles left out. */
export function sourceFiles(dir) {
  return execFileSync('git', ['ls-files'], { cwd: dir, encoding: 'utf8' })
    .split('\n')
    .filter((f) => SOURCE.test(f) && !/\.d\.[mc]?ts$/.test(f) && !/\.min\.js$/.test(f) && !f.split('/').includes('node_modules'));
}

/** Every identifier position of the project's own names: { file, line, col (1-based, UTF-8 bytes as tug counts), name, kind }. */
export function identifierPositions(dir) {
  const ts = require('typescript');
  const files = sourceFiles(dir).map((f) => path.join(dir, f));
  const own = new Set(files);
  const program = ts.createProgram(files, {
    allowJs: true,
    checkJs: false,
    noEmit: true,
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.Preserve,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const declaredHere = (symbol) => {
    if (!symbol) return false;
    let target = symbol;
    if (symbol.flags & ts.SymbolFlags.Alias) {
      try {
        target = checker.getAliasedSymbol(symbol);
      } catch {
        return false;
      }
    }
    const decls = target.declarations ?? [];
    return decls.length > 0 && decls.every((d) => own.has(path.resolve(d.getSourceFile().fileName)));
  };
  const out = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (!source) continue;
    const rel = path.relative(dir, file).split(path.sep).join('/');
    const visit = (node) => {
      if (ts.isIdentifier(node) && !SKIP.has(node.text)) {
        let symbol;
        try {
          symbol = checker.getSymbolAtLocation(node);
        } catch {
          symbol = undefined;
        }
        if (declaredHere(symbol)) {
          const start = node.getStart(source);
          const { line } = source.getLineAndCharacterOfPosition(start);
          const character = Buffer.byteLength(source.text.slice(source.getLineStarts()[line], start)); // tug's columns count UTF-8 bytes
          const isDeclaration = ts.isDeclaration(node.parent) && node.parent.name === node;
          out.push({ file: rel, line: line + 1, col: character + 1, name: node.text, kind: `${isDeclaration ? 'declaration' : 'use'} in ${ts.SyntaxKind[node.parent.kind]}` });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

/** A seeded shuffle of the positions (sorted first, so the order does not depend on the listing's), the first n. */
export function sample(all, seed, n) {
  const key = (p) => `${p.file}\0${String(p.line).padStart(6, '0')}\0${String(p.col).padStart(6, '0')}`;
  const list = [...all].sort((a, b) => (key(a) < key(b) ? -1 : 1));
  const next = rng(seed);
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list.slice(0, n);
}

/** Rename cases for typescript.mjs: n seeded positions, each renamed to its name with `Sw` appended. */
export function renameCases(dir, seed, n) {
  return sample(identifierPositions(dir), seed, n).map((p) => ({ op: 'rename', file: p.file, line: p.line, col: p.col, word: p.name, to: `${p.name}Sw`, kind: p.kind }));
}
