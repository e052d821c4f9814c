// move-symbol for Rust: one top-level item (and the impl blocks of the same file that belong to it) goes to another
// module of its crate. rust-analyzer finds the item, every place that names it and what the moved code names; tug
// rewrites the paths (lib/rust/move-refs.ts), brings the imports along (lib/rust/move-deps.ts), decides visibility
// here, and writes the files (lib/rust/move-assemble.ts). What it cannot prove is refused with a reason or listed.
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import type { Location as LspLocation } from 'vscode-languageserver-protocol';
import { TugError } from '../core/errors.js';
import type { EditRequest } from '../core/patchset.js';
import type { WarningJSON } from '../core/schemas.js';
import { lineStarts, offsetOf } from '../core/text.js';
import { readBlobs } from '../git/objects.js';
import type { Repo } from '../git/repo.js';
import { listTreePaths } from '../git/snapshot.js';
import { requireRustAnalyzer } from './discovery.js';
import type { RustAnalyzer } from './lsp-client.js';
import { assembleMove } from './move-assemble.js';
import { decideVisibility } from './move-visibility.js';
import { indexOfPosition, isCfgGated, implSelfType, itemAt, stringLineStarts, topItems, type DocSymbol } from './move-items.js';
import { moduleOfFile, packageOf, resolveDestination, modulePath, isPublicModule } from './move-modules.js';
import { rewriteReferences } from './move-refs.js';
import { tupleFieldsUsedOutside } from './move-tuple-fields.js';
import { maskRust } from './move-text.js';
import { cargoRootOf, workspaceRoot } from './rename-plan.js';
import { withRustAnalyzer } from './servers.js';
import { findUnsure, type RustUnsure } from './unsure.js';

export interface RustMoveInput {
  repo: Repo;
  session: { dir: string; paths: { workers: string } };
  tree: string;
  commit: string;
  target: { file: string; line: number; col: number };
  destination: string;
  keepReexport: boolean;
  rustAnalyzer?: string | undefined;
}

export interface RustMovePlan {
  name: string;
  oldPath: string;
  newPath: string;
  edits: EditRequest[];
  creates: Array<{ path: string; content: string }>;
  unsure: RustUnsure[];
  warnings: WarningJSON[];
}

const decoder = new TextDecoder();

export async function planRustMove(input: RustMoveInput): Promise<RustMovePlan> {
  const { repo, target } = input;
  const entries = await listTreePaths(input.repo, input.tree);
  const pkgDir = cargoRootOf(entries, target.file);
  const wsRoot = await workspaceRoot(repo, entries, pkgDir);
  const inWs = (f: string) => wsRoot === '' || f.startsWith(`${wsRoot}/`);
  const rustEntries = entries.filter((e) => e.type === 'blob' && e.path.endsWith('.rs') && inWs(e.path) && !/(^|\/)target\//.test(e.path.slice(wsRoot.length)));
  const manifests = entries.filter((e) => e.type === 'blob' && inWs(e.path) && (e.path === 'Cargo.toml' || e.path.endsWith('/Cargo.toml')));
  const blobs = await readBlobs(repo, [...rustEntries, ...manifests].map((e) => e.oid));
  const bytesOf = new Map(rustEntries.map((e) => [e.path, blobs.get(e.oid)!]));
  const texts = new Map(rustEntries.map((e) => [e.path, decoder.decode(blobs.get(e.oid))]));
  const textOf = (f: string) => texts.get(f);
  const source = target.file;
  const srcBytes = bytesOf.get(source);
  if (!srcBytes) throw new TugError('FileNotFound', `${source} is not a Rust file of the workspace`, { details: { path: source } });
  const manifest = manifests.find((m) => m.path === (pkgDir === '' ? 'Cargo.toml' : `${pkgDir}/Cargo.toml`))!;
  const pkg = packageOf(pkgDir, decoder.decode(blobs.get(manifest.oid)), (f) => texts.has(f));
  const src = moduleOfFile(pkg, source, textOf);
  if (!src) throw new TugError('UnsupportedOperation', `${source} is not a module of the crate ${pkg.name} (no \`mod\` declaration reaches it from ${pkg.root})`, { details: { operation: 'move-symbol', reason: 'not in the module tree' } });
  // Integration tests, examples, benches and src/bin are crates of their own: only files the root's `mod` lines reach count.
  const inCrate = new Map<string, boolean>();
  const sameCrate = (f: string) => inCrate.get(f) ?? (inCrate.set(f, cargoRootOf(entries, f) === pkgDir && moduleOfFile(pkg, f, textOf) !== null), inCrate.get(f)!);
  const where = `${source}:${target.line}:${target.col}`;
  const byteAt = offsetOf(srcBytes, lineStarts(srcBytes), target.line, target.col);
  if (byteAt === null) throw new TugError('InvalidPosition', `${where} is outside the file`, { details: { location: where }, location: target });
  const srcText = texts.get(source)!;
  const atIndex = decoder.decode(srcBytes.subarray(0, byteAt)).length;
  const analyzer = await requireRustAnalyzer(input.rustAnalyzer);

  return withRustAnalyzer({ repo, session: input.session, commit: input.commit, cargoRoot: wsRoot, binary: analyzer.path }, async (server, root) => {
    const treeRoot = wsRoot === '' ? root : root.slice(0, -wsRoot.length - 1);
    const uriOf = (file: string) => pathToFileURL(path.join(treeRoot, file)).href;
    const fileOf = (uri: string): string | null => {
      const rel = path.relative(treeRoot, fileURLToPath(uri));
      return rel.startsWith('..') || path.isAbsolute(rel) ? null : rel.split(path.sep).join('/');
    };
    const starts = new Map<string, number[]>();
    const startsOf = (f: string) => starts.get(f) ?? (starts.set(f, stringLineStarts(texts.get(f)!)), starts.get(f)!);
    const positionAt = (f: string, at: number) => {
      const s = startsOf(f);
      let line = 0;
      while (line + 1 < s.length && s[line + 1]! <= at) line++;
      return { line, character: at - s[line]! };
    };
    const locate = (loc: LspLocation) => {
      const f = fileOf(loc.uri);
      return f === null || !texts.has(f) ? null : { file: f, at: indexOfPosition(startsOf(f), texts.get(f)!, loc.range.start), range: loc.range };
    };
    const definition = async (f: string, at: number) => {
      const defs = await ask<LspLocation[] | LspLocation | null>(server, 'textDocument/definition', { textDocument: { uri: uriOf(f) }, position: positionAt(f, at) });
      const first = Array.isArray(defs) ? defs[0] : defs;
      return first ? locate(first) : null;
    };
    const moduleAt = async (f: string, at: number) => {
      if (texts.get(f)!.startsWith('crate', at) && sameCrate(f)) return pkg.root;
      const def = await definition(f, at);
      return def && def.range.start.line === 0 && def.range.start.character === 0 ? def.file : null;
    };
    const symbolsOf = async (f: string) => (await ask<DocSymbol[]>(server, 'textDocument/documentSymbol', { textDocument: { uri: uriOf(f) } })) ?? [];

    const masked = maskRust(srcText);
    const items = topItems(await symbolsOf(source), srcText, masked);
    const item = itemAt(items, atIndex, where);
    const impls = items.filter((i) => /^(?:unsafe\s+)?impl\b/.test(i.header.keyword) && implSelfType(masked, i) === item.name);
    const gated = [item, ...impls].find((i) => isCfgGated(i.header));
    if (gated) {
      throw new TugError('UnsafeRefactor', `${gated === item ? item.name : `an impl of ${item.name}`} is switched by #[cfg(…)]: rust-analyzer sees one configuration only, so uses in the others could not be fixed`, {
        details: { reason: 'cfg-gated item', ...positionAt(source, gated.start) },
      });
    }
    const moved = [item, ...impls].sort((a, b) => a.start - b.start);
    const dest = resolveDestination(pkg, input.destination, textOf, [...texts.keys()], item.header.vis === 'pub' && isPublicModule(pkg, src) && !pkg.published);
    if (dest.module.file === source) throw new TugError('InvalidArgument', `${item.name} is already in ${modulePath(dest.module.segs) || 'the crate root'}`, { details: { argument: 'destination', reason: 'same module' } });
    const refs = ((await ask<LspLocation[]>(server, 'textDocument/references', { textDocument: { uri: uriOf(source) }, position: positionAt(source, item.nameAt), context: { includeDeclaration: false } })) ?? [])
      .map(locate)
      .filter((r): r is NonNullable<typeof r> => r !== null && !(r.file === source && r.at === item.nameAt))
      .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.at - b.at));
    const insideMoved = (f: string, at: number) => f === source && moved.some((m) => m.start <= at && at < m.end);
    const destModuleSegs = dest.module.segs;
    const outcome = await rewriteReferences(
      { textOf: (f) => texts.get(f)!, moduleAt, source, crateRoot: pkg.root, destFile: dest.module.file, destSegs: destModuleSegs, sameCrate },
      refs,
      item.header.vis === 'pub' && isPublicModule(pkg, dest.module),
    );
    const visibility = decideVisibility({ pkg, src, dest: dest.module, item, keepReexport: input.keepReexport, refs, outcome, insideMoved, moduleOf: (f) => (sameCrate(f) ? moduleOfFile(pkg, f, textOf) : null), positionAt });
    // A member named in a macro call rust-analyzer does not expand has no reference: `.name`/`::name` written outside counts too.
    const written = (name: string) =>
      [...texts].some(([f, t]) => t.includes(name) && sameCrate(f) && [...maskRust(t).matchAll(new RegExp(`(?:\\.|::)\\s*${name}(?![\\p{XID_Continue}])`, 'gu'))].some((m) => !insideMoved(f, m.index)));
    const members = await privateMembersUsedOutside(server, moved, source, srcText, masked, async (at, name) =>
      written(name) ||
      ((await ask<LspLocation[]>(server, 'textDocument/references', { textDocument: { uri: uriOf(source) }, position: positionAt(source, at), context: { includeDeclaration: false } })) ?? [])
        .map(locate)
        .some((r) => r !== null && !insideMoved(r.file, r.at)),
    );
    members.push(...tupleFieldsUsedOutside(item, masked, refs, source, insideMoved));
    const destItems = dest.create ? [] : topItems(await symbolsOf(dest.module.file), texts.get(dest.module.file)!, maskRust(texts.get(dest.module.file)!));
    const assembled = await assembleMove({
      texts, source, srcText, masked, items, moved, item, src: src.segs, dest, destItems, outcome, visibility, members, keepReexport: input.keepReexport,
      definitionAt: (at) => definition(source, at),
      rustfmtRoot: treeRoot,
    });
    const renamed = new Set([...refs, { file: source, at: item.nameAt }].map((r) => `${r.file}\0${Buffer.byteLength(texts.get(r.file)!.slice(0, r.at))}`));
    const check = await findUnsure({ server, bytesOf, uriOf, oldName: item.name, newName: item.name, renamed, includeUnsure: false });
    const unreadable: RustUnsure[] = outcome.unreadable.map((r) => ({ file: r.file, line: positionAt(r.file, r.at).line + 1, col: positionAt(r.file, r.at).character + 1, text: lineOf(texts.get(r.file)!, r.at), reason: 'unresolved', renamed: false }));
    const unsure = [...check.unsure, ...unreadable];
    if (!input.keepReexport) refuseMacroBodyUses(item.name, unsure);
    const oldPath = `${pkg.name}::${modulePath([...src.segs, item.name])}`;
    const newPath = `${pkg.name}::${modulePath([...destModuleSegs, item.name])}`;
    const warnings: WarningJSON[] = [...visibility.warnings, ...assembled.warnings];
    if (unsure.length > 0) warnings.push({ code: 'UnsureReferences', message: `${unsure.length} place(s) may still name ${item.name} where rust-analyzer could not see (macro bodies, doc tests, cfg'd-out code); tug left them as they are (see unsure)` });
    return { name: item.name, oldPath, newPath, edits: assembled.edits, creates: assembled.creates, unsure, warnings };
  });
}

/** Private fields of a moved struct and private items of its inherent impls that code staying behind uses. */
async function privateMembersUsedOutside(
  _server: RustAnalyzer,
  moved: ReturnType<typeof topItems>,
  _source: string,
  text: string,
  masked: string,
  usedOutside: (at: number, name: string) => Promise<boolean>,
): Promise<Array<{ at: number; name: string }>> {
  const found: Array<{ at: number; name: string }> = [];
  for (const owner of moved) {
    const inherent = /^(?:unsafe\s+)?impl\b/.test(owner.header.keyword) && !/\bfor\b/.test(masked.slice(owner.start, masked.indexOf('{', owner.start)).replace(/<[^<>]*>/g, ''));
    if (!inherent && !/^(?:struct|union)\b/.test(owner.header.keyword)) continue;
    for (const member of topItems(owner.symbol.children ?? [], text, masked)) {
      if (member.header.vis !== '' || member.start < owner.start) continue;
      if (await usedOutside(member.nameAt, member.name)) found.push({ at: member.header.visStart, name: member.name });
    }
  }
  return found;
}

function lineOf(text: string, at: number): string {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const end = text.indexOf('\n', at);
  return text.slice(start, end < 0 ? text.length : end).trim().slice(0, 160);
}

async function ask<T>(server: RustAnalyzer, method: string, params: unknown): Promise<T | null> {
  try {
    return await server.request<T>(method, params);
  } catch (error) {
    if (error instanceof TugError) throw error;
    return null;
  }
}

/**
 * A name in a macro_rules! body means whatever it resolves to where the macro is called, and tug cannot rewrite it:
 * moved without the old path kept, every call of the macro breaks (itoa's `DEC_DIGITS_LUT` in `impl_Integer!`, seen
 * only by verification in the sweep). Refused up front; keep_reexport keeps the old path for those bodies.
 */
function refuseMacroBodyUses(name: string, unsure: readonly RustUnsure[]): void {
  const inMacros = unsure.filter((u) => u.reason === 'macro_definition');
  if (inMacros.length === 0) return;
  const first = inMacros[0]!;
  const where = `${first.file}:${first.line}:${first.col}`;
  throw new TugError('UnsafeRefactor', `${name} is named at ${where} inside the body of macro_rules! ${first.macro ?? ''}! (\`${first.text.trim()}\`), which tug cannot rewrite: every call of the macro would still name the old path`, {
    details: { reason: 'named in a macro body', line: first.line, col: first.col, places: inMacros.map((u) => `${u.file}:${u.line}:${u.col}`), suggestion: 'pass keep_reexport to keep the old path working there' },
    location: { file: first.file, line: first.line, col: first.col },
  });
}
