// change-signature for TypeScript/JavaScript, built by tug on the language service's references: every definition (overloads, interface members, implementations, overrides) gets the new parameter list and every call (plain, method, optional, `new`, `super`) its rebuilt arguments; uses tug cannot rewrite are listed as unsure, calls it cannot rewrite safely are refused.
import type * as TS from 'typescript';
import { TugError } from '../core/errors.js';
import type { EditRequest } from '../core/patchset.js';
import type { WarningJSON } from '../core/schemas.js';
import { lineStarts, offsetOf, positionOf } from '../core/text.js';
import type { Repo } from '../git/repo.js';
import { oldParams, resolveParams } from './change-signature-params.js';
import type { NewParamInput } from '../ops/change-signature/schema.js';
import { assertNoLooseComments, FileRewrites, insideEnd, isPlainArgument, layoutList, paramText } from './change-signature-lists.js';
import { findAllReferences, sourceOf, type Ref } from './change-signature-search.js';
import { bodyOf, classifyUse, functionOfName, targetAt, type Target } from './change-signature-target.js';
import { OffsetMap } from './files.js';
import { assertNotHandDeclared } from './hand-declared.js';
import { nodeAt } from './occurrences.js';
import { planTsRename, syntaxError } from './rename-plan.js';
import { packageDeclarationUnsure } from './package-declarations.js';
import { findTsUnsure } from './unsure.js';
import { openTsWorkspace, requireScript, type TsWorkspace } from './workspace.js';

export interface TsSignatureInput {
  repo: Repo;
  tree: string;
  target: { file: string; line: number; col: number };
  params: readonly NewParamInput[];
  force: boolean;
}

export interface TsSignatureUnsure {
  file: string;
  line: number;
  col: number;
  text: string;
  reason: 'value_use' | 'unresolved' | 'string_mention' | 'untyped_receiver' | 'dynamic_getattr' | 'declaration_file';
  renamed: boolean;
}

export interface TsSignaturePlan {
  name: string;
  edits: EditRequest[];
  calls: number;
  unsure: TsSignatureUnsure[];
  warnings: WarningJSON[];
}

type Job = { file: string; size: number; run: () => void };

export async function planTsSignature(input: TsSignatureInput): Promise<TsSignaturePlan> {
  const { file } = input.target;
  const ws = await openTsWorkspace(input.repo, input.tree, file);
  const { ts } = ws.compiler;
  const bytes = requireScript(ws, file);
  const where = `${file}:${input.target.line}:${input.target.col}`;
  const offset = offsetOf(bytes, lineStarts(bytes), input.target.line, input.target.col);
  if (offset === null) throw new TugError('InvalidPosition', `${where} is outside the file`, { details: { location: where }, location: input.target });
  const project = ws.containing(file)[0];
  if (!project) throw new TugError('InternalError', `no TypeScript project holds ${file}`, { details: { path: file } });
  const absolute = ws.fs.absolute(file);
  const parseErrors = project.service.getSyntacticDiagnostics(absolute);
  if (parseErrors.length > 0) throw syntaxError(ts, file, bytes, parseErrors[0]!);
  const program = project.service.getProgram()!;
  const target = targetAt(ts, ws, program.getSourceFile(absolute)!, program.getTypeChecker(), new OffsetMap(ws.fs.readFile(absolute)!).utf16Of(offset), where, input.target);
  assertNotHandDeclared(ws.paths, target.file, target.name, (f) => ws.fs.readFile(ws.fs.absolute(f)) ?? '', 'change-signature', input.target);
  const old = oldParams(ts, target.fn).params;
  const resolved = resolveParams(ts, input.params, old, /\.[cm]?jsx?$/.test(target.file));

  const texts = new Map<string, FileRewrites>();
  const rewritesOf = (f: string) => {
    let r = texts.get(f);
    if (!r) texts.set(f, (r = new FileRewrites(ws.fs.readFile(ws.fs.absolute(f))!)));
    return r;
  };
  const unsure: TsSignatureUnsure[] = [];
  const warnings: WarningJSON[] = [];
  const spot = (f: string, at: number) => {
    const text = rewritesOf(f).text;
    const { line, col } = positionOf(lineStarts(ws.bytes.get(f)!), new OffsetMap(text).byteOf(at));
    return { file: f, line, col };
  };
  const lineText = (f: string, at: number) => {
    const text = rewritesOf(f).text;
    const s = text.lastIndexOf('\n', at - 1) + 1;
    const e = text.indexOf('\n', at);
    const own = text.slice(s, e < 0 ? undefined : e).trim();
    return own.length > 160 ? `${own.slice(0, 157)}...` : own;
  };
  const listUnsure = (f: string, at: number, reason: TsSignatureUnsure['reason']) => unsure.push({ ...spot(f, at), text: lineText(f, at), reason, renamed: false });

  // Where the function is named: its definitions and its uses.
  const defs: Array<{ file: string; fn: TS.SignatureDeclaration }> = [];
  const calls: Array<{ file: string; call: TS.CallExpression | TS.NewExpression }> = [];
  const defAt = (ref: Ref) => {
    const found = sourceOf(ws, ref.file);
    return found ? functionOfName(ts, nodeAt(ts, found.source, ref.start)) : null;
  };
  const seenDefs = new Set<TS.Node>();
  const addDef = (f: string, fn: TS.SignatureDeclaration) => {
    if (!seenDefs.has(fn)) defs.push({ file: f, fn });
    seenDefs.add(fn);
  };
  const seedsOf = (ref: Ref): Ref[] => {
    if (defAt(ref) !== null) return [ref];
    const found = sourceOf(ws, ref.file);
    const at = found ? passedOn(ts, nodeAt(ts, found.source, ref.start)) : null;
    return at === null ? [] : [{ file: ref.file, start: at }];
  };
  const searchFrom = (t: Target) => findAllReferences(ws, t.file, t.searchAt, seedsOf);
  const found = searchFrom(target);
  // A CommonJS export (`module.exports = { f }`) does not lead the service to its importers; a name that resolves to
  // the function through an alias (`const { f } = require(…)`) is searched from too.
  const known = new Set(found.refs.map((r) => `${r.file}\0${r.start}`));
  const declared = new Set(found.refs.filter((r) => r.file === target.file || defAt(r) !== null).map((r) => `${ws.fs.absolute(r.file)}\0${r.start}`));
  for (const seed of aliasSeeds(ts, ws, target.name, declared)) {
    if (known.has(`${seed.file}\0${seed.start}`)) continue;
    for (const ref of findAllReferences(ws, seed.file, seed.start, seedsOf).refs) {
      if (!known.has(`${ref.file}\0${ref.start}`)) found.refs.push(ref);
      known.add(`${ref.file}\0${ref.start}`);
    }
  }
  for (const where of found.outside) warnings.push({ code: 'OutsideWorkspace', message: `${where} uses ${target.name} but is not a file of the workspace (an installed package or a generated file); it was left as it is` });
  if (target.kind === 'constructor') for (const ctor of target.constructors) addDef(target.file, ctor);
  const queue: Ref[] = [...found.refs];
  while (queue.length > 0) {
    const ref = queue.shift()!;
    const src = sourceOf(ws, ref.file);
    if (!src) continue;
    const node = nodeAt(ts, src.source, ref.start);
    if (target.kind === 'function') {
      const fn = functionOfName(ts, node);
      if (fn) {
        addDef(ref.file, fn);
        continue;
      }
    }
    const use = classifyUse(ts, node, target.kind);
    if (use.kind === 'call') calls.push({ file: ref.file, call: use.call });
    else if (use.kind === 'unsure') listUnsure(ref.file, ref.start, 'value_use');
    else if (use.kind === 'subclass') {
      // A subclass with its own constructor calls this one through super(…); without one, its `new` calls are ours.
      const ctor = use.cls.members.find((m): m is TS.ConstructorDeclaration => ts.isConstructorDeclaration(m) && m.body !== undefined);
      if (ctor) for (const call of superCalls(ts, ctor)) calls.push({ file: ref.file, call });
      else if (use.cls.name) queue.push(...findAllReferences(ws, ref.file, use.cls.name.getStart(src.source), seedsOf).refs);
    }
  }
  if (defs.length === 0) throw new TugError('SymbolNotFound', `the language service shows no definition of ${target.name} in the workspace`, { details: { name: target.name, reason: 'no definition' } });

  // Parameters renamed in a body: the rename of each is tug's TypeScript rename, proven complete there.
  for (const def of defs) {
    if (!bodyOf(def.fn)) continue;
    const own = oldParams(ts, def.fn).list;
    if (own.length !== old.length) continue;
    for (const p of resolved) {
      const param = p.index >= 0 ? own[p.index]! : null;
      if (!param || !ts.isIdentifier(param.name) || param.name.text === p.name) continue;
      const src = sourceOf(ws, def.file)!.source;
      const at = positionOf(lineStarts(ws.bytes.get(def.file)!), new OffsetMap(src.text).byteOf(param.name.getStart(src)));
      const renamed = await planTsRename({ repo: input.repo, tree: input.tree, target: { file: def.file, ...at }, newName: p.name, check: true });
      for (const edit of renamed.edits) {
        const r = rewritesOf(edit.file);
        const map = new OffsetMap(r.text);
        r.add({ start: map.utf16Of(edit.span!.start), end: map.utf16Of(edit.span!.end), text: edit.new_text });
      }
    }
  }

  // Innermost lists first, so an outer list takes the inner one's new text.
  const jobs: Job[] = [];
  for (const def of defs) jobs.push({ file: def.file, size: def.fn.parameters.end - def.fn.parameters.pos, run: () => rewriteDefinition(ts, ws, def.file, def.fn, old.length, resolved, rewritesOf(def.file), spot) });
  let rewritten = 0;
  for (const { file: f, call } of calls) {
    const list = call.arguments;
    jobs.push({
      file: f,
      size: list ? list.end - list.pos : 0,
      run: () => {
        const outcome = rewriteCall(ts, f, call, old, resolved, rewritesOf(f), input.force, spot);
        if (outcome === 'rewritten') rewritten++;
        else listUnsure(f, call.getStart(), 'unresolved');
      },
    });
  }
  for (const job of jobs.sort((a, b) => a.size - b.size)) job.run();
  // The function passed or stored as a value (`pass(total)`, `const g = total`) is called through it the old way, which
  // no edit reaches: unless old calls still fit (parameters kept in place, only defaulted ones added after them),
  // refused unless forced, as for Python and Rust; forced, those places are listed in unsure.
  const fits = old.every((_, i) => resolved[i]?.index === i) && resolved.slice(old.length).every((p) => p.index < 0 && p.entry.default !== undefined);
  const passed = unsure.find((u) => u.reason === 'value_use');
  if (passed && !fits && !input.force) {
    throw new TugError('UnsafeRefactor', `${target.name} is passed or stored as a value at ${passed.file}:${passed.line}:${passed.col} (${passed.text}); calls made through that value would keep the old arguments, which the new signature no longer fits; pass force to change it anyway (those places are then listed in unsure)`, {
      details: { reason: 'value use', path: passed.file, line: passed.line, col: passed.col, uses: unsure.filter((u) => u.reason === 'value_use').map(({ file: f, line, col }) => ({ file: f, line, col })) },
      location: { file: passed.file, line: passed.line, col: passed.col },
    });
  }

  const member = target.member;
  const renamedKeys = new Set(found.refs.map((r) => `${r.file}\0${r.start}`));
  const scripts = ws.scripts.flatMap((f) => {
    const src = sourceOf(ws, f);
    return src ? [{ file: f, source: src.source, checker: src.checker, bytes: ws.bytes.get(f)! }] : [];
  });
  const extra = findTsUnsure({ ts, files: scripts, oldName: target.name, newName: target.name, member, renamed: renamedKeys, includeUnsure: false });
  for (const u of extra.unsure) unsure.push({ ...u, renamed: false });

  const edits: EditRequest[] = [];
  for (const [f, r] of [...texts].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const map = new OffsetMap(r.text);
    for (const w of r.list) if (r.text.slice(w.start, w.end) !== w.text) edits.push({ file: f, span: { start: map.byteOf(w.start), end: map.byteOf(w.end) }, old_text: r.text.slice(w.start, w.end), new_text: w.text });
  }
  // The package's own declaration file describes the published signature and is tied to nothing: its mentions are listed.
  const published = packageDeclarationUnsure({
    ts, paths: ws.paths, textOf: (f) => ws.fs.readFile(ws.fs.absolute(f)), file: target.file, source: sourceOf(ws, target.file)?.source, start: target.searchAt,
    oldName: target.name, newName: target.name, member, edited: new Set(edits.map((e) => e.file)), includeUnsure: false,
  });
  unsure.push(...published.unsure);
  const order = (a: TsSignatureUnsure, b: TsSignatureUnsure) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col);
  return { name: target.name, edits, calls: rewritten, unsure: unsure.sort(order), warnings };
}

/** Names in the workspace's scripts that resolve, through aliases, to a declaration in `declared` (absolute file, start). */
function aliasSeeds(ts: typeof TS, ws: TsWorkspace, name: string, declared: ReadonlySet<string>): Ref[] {
  const seeds: Ref[] = [];
  const word = new RegExp(`(?<![\\p{ID_Continue}$#])${name.replace(/\$/g, '\\$')}(?![\\p{ID_Continue}$])`, 'gu');
  for (const file of ws.scripts) {
    const found = sourceOf(ws, file);
    if (!found || !found.source.text.includes(name)) continue;
    for (const match of found.source.text.matchAll(word)) {
      const node = nodeAt(ts, found.source, match.index);
      if (!ts.isIdentifier(node) || node.getStart(found.source) !== match.index) continue;
      const symbol = found.checker.getSymbolAtLocation(node);
      if (!symbol || !(symbol.flags & ts.SymbolFlags.Alias)) continue;
      const target = found.checker.getAliasedSymbol(symbol);
      const hit = (target.declarations ?? []).some((d) => {
        const id = (d as TS.NamedDeclaration).name ?? d;
        return declared.has(`${d.getSourceFile().fileName}\0${id.getStart(d.getSourceFile())}`);
      });
      if (hit) seeds.push({ file, start: match.index });
    }
  }
  return seeds;
}

/** Where a name that hands the function on under a property binds it there: the position to search from again. */
function passedOn(ts: typeof TS, node: TS.Node): number | null {
  const parent = node.parent;
  if (!parent) return null;
  if (ts.isShorthandPropertyAssignment(parent) || ts.isExportSpecifier(parent) || ts.isImportSpecifier(parent)) return node.getStart();
  if (ts.isBindingElement(parent)) return parent.name.getStart();
  if (ts.isPropertyAssignment(parent) && parent.initializer === node) return parent.name.getStart();
  if (ts.isBinaryExpression(parent) && parent.right === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(parent.left)) return parent.left.name.getStart();
  return null;
}

function superCalls(ts: typeof TS, ctor: TS.ConstructorDeclaration): TS.CallExpression[] {
  const out: TS.CallExpression[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword) out.push(node);
    if (!ts.isFunctionLike(node) || ts.isArrowFunction(node)) ts.forEachChild(node, visit);
  };
  ts.forEachChild(ctor.body!, visit);
  return out;
}

type Spot = (file: string, at: number) => { file: string; line: number; col: number };

function rewriteDefinition(ts: typeof TS, ws: TsWorkspace, file: string, fn: TS.SignatureDeclaration, count: number, resolved: ReturnType<typeof resolveParams>, files: FileRewrites, spot: Spot): void {
  const source = fn.getSourceFile();
  const { list } = oldParams(ts, fn);
  if (list.length !== count) {
    const at = spot(file, fn.getStart(source));
    throw new TugError('UnsafeRefactor', `the definition at ${at.file}:${at.line} has ${list.length} parameters where the one asked for has ${count}; change-signature needs every overload, implementation and override to match`, { details: { reason: 'definitions differ', line: at.line, col: at.col }, location: at });
  }
  const params = fn.parameters;
  const open = params.pos;
  const close = source.text[open - 1] === '(' ? insideEnd(source.text, params.end) : params.end;
  assertNoLooseComments(source, params, open, close, () => spot(file, open));
  const hasBody = bodyOf(fn) !== undefined;
  const items = resolved.map((p) => paramText(ts, source, files, p, p.index >= 0 ? list[p.index]! : null, hasBody, !hasBody));
  list.forEach((p, i) => resolved.some((r) => r.index === i) || files.compose(p.getStart(source), p.end));
  const self = params.filter((p) => !list.includes(p)).map((p) => files.compose(p.getStart(source), p.end));
  const all = [...self, ...items];
  if (source.text[open - 1] !== '(') {
    // `x => …`: a list without parentheses gets them.
    files.add({ start: params[0]!.getStart(source), end: close, text: `(${all.join(', ')})` });
    return;
  }
  files.add({ start: open, end: close, text: layoutList(source.text, open, close, all) });
  void ws;
}

function rewriteCall(ts: typeof TS, file: string, call: TS.CallExpression | TS.NewExpression, old: ReturnType<typeof oldParams>['params'], resolved: ReturnType<typeof resolveParams>, files: FileRewrites, force: boolean, spot: Spot): 'rewritten' | 'unsure' {
  const source = call.getSourceFile();
  const args = call.arguments ?? ([] as unknown as TS.NodeArray<TS.Expression>);
  const restAt = old.findIndex((p) => p.rest);
  if (args.some((a) => ts.isSpreadElement(a) && (restAt < 0 || args.indexOf(a) < restAt))) return 'unsure';
  if (restAt < 0 && args.length > old.length) return 'unsure';
  const textOf = (a: TS.Expression) => files.compose(a.getStart(source), a.end);
  const used = resolved.filter((p) => p.index >= 0).map((p) => p.index);
  if (!force) {
    const where = spot(file, call.getStart(source));
    const dropped = args.find((a, i) => !used.includes(restAt >= 0 && i > restAt ? restAt : i) && !isPlainArgument(ts, a));
    const moved = used.filter((i) => i < args.length && (restAt < 0 || i < restAt) && !isPlainArgument(ts, args[i]!));
    if (dropped || moved.some((v, k) => k > 0 && v < moved[k - 1]!)) {
      throw new TugError('UnsafeRefactor', `the call at ${where.file}:${where.line}:${where.col} would ${dropped ? `drop \`${dropped.getText(source)}\`` : 'evaluate its arguments in another order'}, which may have effects`, {
        details: { reason: dropped ? 'argument with effects removed' : 'arguments with effects reordered', line: where.line, col: where.col, suggestion: 'pass force to change it anyway' },
        location: where,
      });
    }
  }
  const items: Array<string | null> = [];
  for (const p of resolved) {
    if (p.index < 0) items.push(p.entry.value?.trim() ?? null);
    else if (p.rest) for (const a of args.slice(p.index)) items.push(textOf(a));
    else if (p.index < args.length) items.push(textOf(args[p.index]!));
    else items.push(p.entry.value?.trim() ?? null);
  }
  args.forEach((a, i) => used.includes(restAt >= 0 && i > restAt ? restAt : i) || textOf(a));
  while (items.length > 0 && items[items.length - 1] === null) items.pop();
  const texts = items.map((i) => i ?? 'undefined');
  if (!call.arguments) {
    if (texts.length > 0) files.add({ start: call.end, end: call.end, text: `(${texts.join(', ')})` });
    return 'rewritten';
  }
  const close = insideEnd(source.text, args.end);
  assertNoLooseComments(source, args, args.pos, close, () => spot(file, args.pos));
  files.add({ start: args.pos, end: close, text: layoutList(source.text, args.pos, close, texts) });
  return 'rewritten';
}
