// move-symbol's analysis: which module the destination names, which files can mention the symbol, and the worker's
// answer (byte-span edits, files to create, unsure places) or its refusal as the TugError it names.
import path from 'node:path';
import { TugError } from '../../core/errors.js';
import type { EditRequest } from '../../core/patchset.js';
import type { WarningJSON } from '../../core/schemas.js';
import { decodeText, lineStarts, offsetOf } from '../../core/text.js';
import { identifierAt } from '../candidates.js';
import { isPythonKeyword } from '../identifiers.js';
import { workerRefusal, type Refusal } from '../local-refactor.js';
import { buildModuleMap, sourceRoots, type ModuleMap } from '../modules.js';
import { hookContext } from './class-hooks.js';

/** The longest file name common file systems (ext4, APFS, NTFS) accept, in bytes. */
const MAX_FILE_NAME_BYTES = 255;

/** Reasons the worker gives for a place it could not prove; each is one of the Unsure schema's reasons. */
export type MoveUnsureReason = 'dynamic_getattr' | 'module_dict' | 'string_mention' | 'unresolved';

export interface MoveUnsure {
  file: string;
  line: number;
  col: number;
  text: string;
  reason: MoveUnsureReason;
  renamed: false;
}

export interface MoveRequest {
  /** The repository's Python files (.py and .pyi) by path. */
  files: ReadonlyMap<string, Uint8Array>;
  /** Every path of the snapshot (a new destination must not land on one). */
  allPaths: ReadonlySet<string>;
  file: string;
  line: number;
  column: number;
  /** A dotted module (`pkg.sub.mod`) or a workspace path ending in .py (already resolved against the prefix). */
  destination: string;
  keepReexport: boolean;
}

export interface MovePlan {
  /** The moved name and the module it leaves. */
  name: string;
  oldModule: string;
  edits: EditRequest[];
  creates: { path: string; content: string }[];
  warnings: WarningJSON[];
  unsure: MoveUnsure[];
  subject: string;
  slug: string;
}

export type AskWorker = (op: string, params: Record<string, unknown>) => Promise<unknown>;

interface Answer {
  edits: { path: string; span: [number, number]; old_text: string; new_text: string }[];
  creates: { path: string; content: string }[];
  unsure: (Omit<MoveUnsure, 'renamed'> & { message: string })[];
  warnings: { code: string; message: string }[];
  name: string;
  old_module: string;
}
type Reply = Answer | { refused: Refusal };

/** The destination as a module name and a file: an existing module, or a new file in an existing package directory. */
export function resolveDestination(destination: string, modules: ModuleMap, roots: readonly string[], allPaths: ReadonlySet<string>): { module: string; path: string } {
  const bad = (reason: string): never => {
    throw new TugError('InvalidArgument', `destination ${JSON.stringify(destination)}: ${reason}`, { details: { argument: 'destination', reason } });
  };
  if (destination.endsWith('.py')) {
    assertFileNames(destination, bad);
    const name = buildModuleMap([destination], roots).byFile.get(destination);
    if (name === undefined) bad('the path is not a module under a source root (the workspace or src/)');
    if (path.posix.basename(destination) === '__init__.py') bad('move into a package module, not its __init__.py');
    assertModuleWords(name!, bad);
    return { module: name!, path: destination };
  }
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(destination)) bad('give a dotted module name (pkg.sub.mod) or a path ending in .py');
  assertModuleWords(destination, bad);
  assertFileNames(destination.split('.').map((part) => `${part}.py`).join('/'), bad);
  const known = modules.byName.get(destination);
  if (known !== undefined) {
    if (!known.endsWith('.py') || path.posix.basename(known) === '__init__.py') bad(`${known} is not a plain module file`);
    return { module: destination, path: known };
  }
  const parts = destination.split('.');
  const parent = parts.slice(0, -1).join('.');
  const parentFile = parent ? modules.byName.get(parent) : undefined;
  let dir: string | undefined;
  if (parentFile !== undefined && path.posix.basename(parentFile).startsWith('__init__.')) dir = path.posix.dirname(parentFile);
  else if (!parent) dir = roots[roots.length - 1];
  if (dir === undefined) bad(`package ${parent} is not in the workspace; pass the new file's path instead`);
  const file = [dir, `${parts[parts.length - 1]}.py`].filter(Boolean).join('/');
  if (allPaths.has(file)) bad(`${file} exists but is not a Python module tug can read`);
  return { module: destination, path: file };
}

/** Whether the repository already holds the destination's top-level package or module (a namespace one included). */
function topInRepo(module: string, modules: ModuleMap): boolean {
  const top = module.split('.')[0]!;
  return [...modules.byName.keys()].some((name) => name === top || name.startsWith(`${top}.`));
}

/** The two modules must be text tug can edit: the worker reads neither a binary, UTF-16 nor non-UTF-8 file. */
function assertReadable(file: string, bytes: Uint8Array | undefined): void {
  if (bytes === undefined) return;
  const text = decodeText(bytes);
  if (!text.ok) throw new TugError('UnsupportedFile', `${file} cannot be edited as text (${text.reason})`, { details: { path: file, reason: text.reason } });
}

/** A keyword cannot be imported (`from pkg.None import x` does not parse), so no module may be named one. */
function assertModuleWords(module: string, bad: (reason: string) => never): void {
  const keyword = module.split('.').find(isPythonKeyword);
  if (keyword !== undefined) bad(`${keyword} is a Python keyword: no import statement can name the module`);
}

/** File systems refuse a name over 255 bytes (ENAMETOOLONG); say so before any file is read or written. */
function assertFileNames(file: string, bad: (reason: string) => never): void {
  const long = file.split('/').find((part) => Buffer.byteLength(part) > MAX_FILE_NAME_BYTES);
  if (long !== undefined) bad(`a file or directory name would be ${Buffer.byteLength(long)} bytes long; file systems allow ${MAX_FILE_NAME_BYTES}`);
}

export async function planMoveSymbol(request: MoveRequest, ask: AskWorker): Promise<MovePlan> {
  const paths = [...request.files.keys()].sort();
  const roots = sourceRoots(paths);
  const modules = buildModuleMap(paths, roots);
  const source = request.files.get(request.file);
  if (!source || !request.file.endsWith('.py')) {
    throw new TugError('UnsupportedFile', `${request.file} is not a Python module (.py) in the snapshot`, { details: { path: request.file, reason: 'move-symbol moves from a .py file' } });
  }
  // Line 1's columns start after a byte order mark, as Python counts them (and the local refactors do).
  const starts = lineStarts(source);
  if (source[0] === 0xef && source[1] === 0xbb && source[2] === 0xbf) starts[0] = 3;
  const offset = offsetOf(source, starts, request.line, request.column);
  if (offset === null) {
    throw new TugError('InvalidPosition', `${request.file}:${request.line}:${request.column} is not inside the file`, { details: { path: request.file, line: request.line, col: request.column } });
  }
  const dest = resolveDestination(request.destination, modules, roots, request.allPaths);
  for (const file of [request.file, dest.path]) assertReadable(file, request.files.get(file));
  const name = identifierAt(source, offset);
  // Only files whose bytes name the symbol can import or use it; the two modules (and their stubs) always go. Files
  // naming the old module's dotted path go too: a string there may patch a global the moved code reads. So do star
  // imports, which may re-export the symbol without naming it (a package's `from ._impl import *`).
  const always = new Set([request.file, `${request.file}i`, dest.path, `${dest.path}i`]);
  const oldModule = modules.byFile.get(request.file);
  const needles = [name, oldModule ? `${oldModule}.` : null, 'import *'].flatMap((text) => (text ? [new TextEncoder().encode(text)] : []));
  // A file tug cannot read as text (Latin-1, UTF-16) that names the symbol is left as it is, and listed: it may
  // import the name from the old module.
  const unreadable: MoveUnsure[] = [];
  // A class also needs the modules its bases may come from, to see whether one registers its subclasses.
  const lineStart = starts[request.line - 1] ?? 0;
  const isClass = /^\s*class\s+$/.test(new TextDecoder().decode(source.subarray(lineStart, offset)));
  for (const file of isClass ? hookContext(request.file, request.files, modules) : []) always.add(file);
  const files = paths
    .filter((p) => always.has(p) || needles.some((needle) => contains(request.files.get(p)!, needle)))
    .flatMap((p) => {
      const bytes = request.files.get(p)!;
      const text = decodeText(bytes);
      if (!text.ok) unreadable.push(mentionIn(p, bytes, needles));
      return text.ok ? [{ path: p, module: modules.byFile.get(p) ?? null, content: text.text }] : [];
    });
  const reply = (await ask('move_symbol', { files, source: request.file, offset, dest_module: dest.module, dest_path: dest.path, dest_top_in_repo: topInRepo(dest.module, modules), keep_reexport: request.keepReexport })) as Reply;
  if ('refused' in reply) throw workerRefusal(reply.refused, request.file);
  for (const created of reply.creates) {
    if (request.allPaths.has(created.path)) {
      throw new TugError('FileExists', `${created.path} already exists but is not a Python file tug read`, { details: { path: created.path } });
    }
  }
  const edits = reply.edits.map((e): EditRequest => ({ file: e.path, span: { start: e.span[0], end: e.span[1] }, old_text: e.old_text, new_text: e.new_text }));
  const unsure = [...unreadable, ...reply.unsure.map(({ message: _message, ...u }): MoveUnsure => ({ ...u, renamed: false }))];
  const warnings: WarningJSON[] = reply.warnings.map((w) => ({ code: w.code, message: w.message }));
  if (unsure.length > 0) {
    warnings.push({ code: 'UnsureReferences', message: `${unsure.length} place(s) may still name ${reply.old_module}.${reply.name}; tug left them as they are (see unsure)` });
  }
  return {
    name: reply.name,
    oldModule: reply.old_module,
    edits,
    creates: reply.creates,
    warnings,
    unsure,
    subject: `move ${reply.name} from ${reply.old_module} to ${dest.module}`,
    slug: `${reply.name}-to-${dest.module.split('.').pop()!}`,
  };
}

/**
 * Docs (.md, .rst, .txt) that import the name from the old module or name it by its dotted path, in an example or in
 * prose: the move leaves them as they are, so they are listed (a doc's `>>> from old import name` would fail).
 */
export function docsMentions(docs: ReadonlyMap<string, Uint8Array>, oldModule: string, name: string): MoveUnsure[] {
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`from\\s+${escaped(oldModule)}\\s+import\\s[^\\n]*\\b${escaped(name)}\\b|(?<![\\w.])${escaped(oldModule)}\\.${escaped(name)}\\b`, 'g');
  const out: MoveUnsure[] = [];
  for (const [file, bytes] of [...docs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const text = Buffer.from(bytes).toString('utf8');
    const starts = lineStarts(bytes);
    for (const match of text.matchAll(pattern)) {
      const offset = Buffer.byteLength(text.slice(0, match.index));
      const line = starts.findLastIndex((s) => s <= offset);
      out.push({ file, line: line + 1, col: offset - starts[line]! + 1, text: match[0].trim(), reason: 'string_mention', renamed: false });
    }
  }
  return out;
}

/** The first place in an unreadable file where one of the needles occurs, as an unsure place. */
function mentionIn(file: string, bytes: Uint8Array, needles: readonly Uint8Array[]): MoveUnsure {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found = needles.map((needle) => ({ needle, at: buffer.indexOf(Buffer.from(needle)) })).filter((f) => f.at >= 0);
  const first = found.sort((a, b) => a.at - b.at)[0];
  const at = first?.at ?? 0;
  const starts = lineStarts(bytes);
  const line = starts.findLastIndex((s) => s <= at);
  return { file, line: line + 1, col: at - starts[line]! + 1, text: first ? new TextDecoder().decode(first.needle) : '', reason: 'unresolved', renamed: false };
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength).includes(Buffer.from(needle));
}
