// The positions tests/sweep/typescript.mjs samples renames from with --positions N --seed S: every identifier of a
// project's tracked TypeScript/JavaScript files whose symbol the project itself declares (a use or the declaration;
// names from the standard library or from packages are left out, renaming them is refused and says nothing), listed
// with the compiler's own parser and checker, so the sample is drawn from what the language sees, not from tug's view.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
export function sample(all, seed, n, key = (p) => `${p.file}\0${String(p.line).padStart(6, '0')}\0${String(p.col).padStart(6, '0')}`) {
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

/** The operations `--ops` can name besides rename, each with the positions it is tried at. */
export const TS_OPS = ['rename', 'move-symbol', 'inline', 'extract-variable', 'extract-function', 'change-signature', 'organize-imports'];

/** 1-based line and column (UTF-8 bytes, as tug counts) of an offset of a parsed file. */
function where(source, offset) {
  const { line } = source.getLineAndCharacterOfPosition(offset);
  return { line: line + 1, col: Buffer.byteLength(source.text.slice(source.getLineStarts()[line], offset)) + 1 };
}

/**
 * Every position where each refactor other than rename could apply, read with the compiler's parser: top-level
 * functions, classes and single-name variables (move-symbol), variables with an initializer (inline), expressions
 * inside functions (extract-variable), runs of 1–3 statements of a function's body (extract-function), functions and
 * methods with a plain parameter list (change-signature: the first two swapped, one added with a default, an unused
 * last one removed) and files with imports (organize-imports). The sample is drawn from the language's view, not tug's.
 */
export function operationPositions(dir) {
  const ts = require('typescript');
  const out = [];
  for (const rel of sourceFiles(dir)) {
    const text = readFileSync(path.join(dir, rel), 'utf8');
    const kind = /\.[mc]?tsx?$/.test(rel) ? (rel.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS) : rel.endsWith('x') ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
    const source = ts.createSourceFile(rel, text, ts.ScriptTarget.ESNext, true, kind);
    if (source.parseDiagnostics?.length) continue;
    const at = (node) => ({ file: rel, ...where(source, node.getStart(source)) });
    const span = (first, last) => {
      const start = where(source, first.getStart(source));
      const end = where(source, last.getEnd());
      return { file: rel, range: `${start.line}:${start.col}-${end.line}:${end.col}`, text: text.slice(first.getStart(source), last.getEnd()) };
    };
    const destination = `${path.posix.dirname(rel) === '.' ? '' : `${path.posix.dirname(rel)}/`}sw_moved${path.posix.extname(rel)}`;
    if (source.statements.some((s) => ts.isImportDeclaration(s))) out.push({ op: 'organize-imports', file: rel });
    for (const s of source.statements) {
      if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && s.name) out.push({ op: 'move-symbol', ...at(s.name), word: s.name.text, destination });
      if (ts.isVariableStatement(s) && s.declarationList.declarations.length === 1 && ts.isIdentifier(s.declarationList.declarations[0].name)) {
        const name = s.declarationList.declarations[0].name;
        out.push({ op: 'move-symbol', ...at(name), word: name.text, destination });
      }
    }
    const signature = (fn, name) => {
      const params = fn.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this'));
      if (!params.length || !params.every((p) => ts.isIdentifier(p.name))) return;
      const entries = params.map((p) => ({ name: `${p.dotDotDotToken ? '...' : ''}${p.name.text}` }));
      const rest = params.at(-1).dotDotDotToken ? 1 : 0;
      const plain = params.slice(0, params.length - rest);
      const loose = (p) => Boolean(p.initializer || p.questionToken);
      const base = { ...at(name), word: name.text };
      if (plain.length >= 2 && loose(plain[0]) === loose(plain[1])) out.push({ op: 'change-signature', kind: 'swap', ...base, params: [entries[1], entries[0], ...entries.slice(2)] });
      if (!rest) out.push({ op: 'change-signature', kind: 'add', ...base, params: [...entries, { name: 'swExtra', default: '0' }] });
      const last = plain.at(-1);
      if (!rest && last && fn.body) {
        let used = false;
        const look = (n) => {
          if (ts.isIdentifier(n) && n.text === last.name.text) used = true;
          else ts.forEachChild(n, look);
        };
        look(fn.body);
        if (!used) out.push({ op: 'change-signature', kind: 'remove', ...base, params: entries.slice(0, -1) });
      }
    };
    const visit = (node, inFunction) => {
      const isFunction = ts.isFunctionLike(node) && node.body;
      if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name && ts.isIdentifier(node.name)) signature(node, node.name);
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        out.push({ op: 'inline', ...at(node.name), word: node.name.text });
        if (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer)) signature(node.initializer, node.name);
      }
      if (inFunction && ts.isExpression(node) && !ts.isIdentifier(node) && !ts.isLiteralExpression(node) && node.kind !== ts.SyntaxKind.ThisKeyword &&
          (ts.isBinaryExpression(node) ? node.operatorToken.kind < ts.SyntaxKind.FirstAssignment || node.operatorToken.kind > ts.SyntaxKind.LastAssignment : true) &&
          !(ts.isCallExpression(node.parent) && node.parent.expression === node) && !ts.isParenthesizedExpression(node.parent)) {
        out.push({ op: 'extract-variable', ...span(node, node), name: 'swValue' });
      }
      if (ts.isBlock(node) && ts.isFunctionLike(node.parent)) {
        const body = node.statements;
        for (let i = 0; i < body.length; i++)
          for (let k = 1; k <= 3 && i + k <= body.length; k++) out.push({ op: 'extract-function', ...span(body[i], body[i + k - 1]), name: 'swHelper' });
      }
      ts.forEachChild(node, (child) => visit(child, inFunction || Boolean(isFunction)));
    };
    visit(source, false);
  }
  return out;
}

/** Cases for typescript.mjs: n seeded positions of each operation of `ops` (renames as renameCases makes them). */
export function operationCases(dir, seed, n, ops) {
  const all = operationPositions(dir);
  return ops.flatMap((op) => {
    if (op === 'rename') return renameCases(dir, seed, n);
    const key = (p) => `${p.file}\0${String(p.line ?? 0).padStart(6, '0')}\0${String(p.col ?? 0).padStart(6, '0')}\0${p.range ?? ''}\0${p.kind ?? ''}`;
    const unique = new Map(all.filter((p) => p.op === op).map((p) => [key(p), p])); // nested nodes can share a span
    return sample([...unique.values()], seed, n, key);
  });
}
