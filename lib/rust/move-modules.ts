// The module tree of one Cargo package as the Rust move needs it: which module a file is, whether its path is public,
// where a new module's file goes (`foo.rs` or `foo/mod.rs`, as the package already does it) and the `mod` line that
// declares it. Only files reached by `mod name;` from the crate root count; `#[path]` modules are refused.
import path from 'node:path';
import { TugError } from '../core/errors.js';
import { depths, importPoint, maskRust } from './move-text.js';

export interface CratePackage {
  /** Repo-relative package directory ('' at the repository root). */
  dir: string;
  /** The crate's name in paths (`-` written `_`). */
  name: string;
  /** The crate root file: src/lib.rs (or [lib] path) when there is one, else src/main.rs. */
  root: string;
  lib: boolean;
  /** False when Cargo.toml says `publish = false`: then no public API outside the workspace can break. */
  published: boolean;
}

export interface ModuleDecl {
  file: string;
  vis: string;
  start: number;
  end: number;
}

export interface RustModule {
  /** Path from the crate root, e.g. ['geometry', 'shapes']; [] is the root. */
  segs: string[];
  file: string;
  /** The `mod` declarations from the root down to this module. */
  decls: ModuleDecl[];
}

const join = (...parts: string[]) => path.posix.join(...parts.filter((p) => p !== ''));

/** The package owning `file`, from its Cargo.toml (text given). */
export function packageOf(dir: string, manifest: string, exists: (file: string) => boolean): CratePackage {
  const section = (name: string) => new RegExp(`^\\[${name}\\]([\\s\\S]*?)(?=^\\[|(?![\\s\\S]))`, 'm').exec(manifest)?.[1] ?? '';
  const pkg = section('package');
  const lib = section('lib');
  const name = (/^\s*name\s*=\s*"([^"]+)"/m.exec(lib)?.[1] ?? /^\s*name\s*=\s*"([^"]+)"/m.exec(pkg)?.[1] ?? path.posix.basename(dir)).replace(/-/g, '_');
  const libPath = /^\s*path\s*=\s*"([^"]+)"/m.exec(lib)?.[1];
  const libRoot = join(dir, libPath ?? 'src/lib.rs');
  const published = !/^\s*publish\s*=\s*false/m.test(pkg);
  if (exists(libRoot)) return { dir, name, root: libRoot, lib: true, published };
  return { dir, name, root: join(dir, 'src/main.rs'), lib: false, published };
}

/** Where the children of the module in `file` live. */
export function childDir(file: string, isRoot: boolean): string {
  const base = path.posix.basename(file);
  const dir = path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file);
  return isRoot || base === 'mod.rs' ? dir : join(dir, base.slice(0, -3));
}

/** `mod name;` at the top of a module file, with its visibility; null when there is none. */
export function declIn(file: string, text: string, name: string): ModuleDecl | null {
  const masked = maskRust(text);
  const depth = depths(masked);
  const re = new RegExp(`(?<![\\p{XID_Continue}])(?:(pub(?:\\s*\\([^)]*\\))?)\\s+)?mod\\s+(?:r#)?${name}\\s*;`, 'gu');
  for (const m of masked.matchAll(re)) {
    if (depth[m.index] !== 0) continue;
    const attrs = masked.slice(Math.max(0, m.index - 200), m.index);
    if (/#\[\s*path\s*=[^\]]*\]\s*$/.test(attrs)) {
      throw new TugError('UnsupportedOperation', `the module ${name} in ${file} is declared with #[path]; tug moves only between modules in their usual files`, { details: { operation: 'move-symbol', reason: 'path attribute' } });
    }
    return { file, vis: m[1] ?? '', start: m.index, end: m.index + m[0].length };
  }
  return null;
}

/** The module a file is, walking the `mod` declarations from the root; null when the crate never declares it. */
export function moduleOfFile(pkg: CratePackage, file: string, textOf: (file: string) => string | undefined): RustModule | null {
  if (file === pkg.root) return { segs: [], file, decls: [] };
  const rootDir = childDir(pkg.root, true);
  if (!file.startsWith(`${rootDir}/`)) return null;
  const rel = file.slice(rootDir.length + 1).replace(/\.rs$/, '').split('/');
  if (rel[rel.length - 1] === 'mod') rel.pop();
  const found = walk(pkg, rel, textOf);
  return found?.file === file ? found : null;
}

/** The module at `segs`, if the crate declares it and its file exists. */
export function walk(pkg: CratePackage, segs: string[], textOf: (file: string) => string | undefined): RustModule | null {
  let current: RustModule = { segs: [], file: pkg.root, decls: [] };
  for (const seg of segs) {
    const text = textOf(current.file);
    if (text === undefined) return null;
    const decl = declIn(current.file, text, seg);
    if (!decl) return null;
    const dir = childDir(current.file, current.segs.length === 0);
    const file = [join(dir, `${seg}.rs`), join(dir, seg, 'mod.rs')].find((f) => textOf(f) !== undefined);
    if (!file) return null;
    current = { segs: [...current.segs, seg], file, decls: [...current.decls, decl] };
  }
  return current;
}

/** Whether items of `module` marked `pub` are reachable from outside the crate. */
export function isPublicModule(pkg: CratePackage, module: RustModule): boolean {
  return pkg.lib && module.decls.every((d) => d.vis === 'pub');
}

/** `a::b` written after `crate::` (empty for the root). */
export const modulePath = (segs: readonly string[]) => segs.join('::');

export interface Destination {
  module: RustModule;
  /** Set when the module is new: its file, and the `mod` line added to its parent. */
  create?: { file: string; parent: string; declAt: number; declText: string };
}

/**
 * The destination module: `crate::a::b`, `a::b` or a file path ending in .rs. A missing module is created in its
 * parent's folder (as `x.rs`, or `x/mod.rs` when the path says so or the folder's modules all use that layout);
 * its parent must exist.
 */
export function resolveDestination(pkg: CratePackage, destination: string, textOf: (file: string) => string | undefined, files: readonly string[], publicMod: boolean): Destination {
  const rootDir = childDir(pkg.root, true);
  let segs: string[];
  let wanted: string | null = null;
  if (destination.endsWith('.rs')) {
    wanted = destination;
    if (destination === pkg.root) segs = [];
    else if (!destination.startsWith(`${rootDir}/`)) {
      throw new TugError('InvalidArgument', `${destination} is not in the crate of ${pkg.root}; move-symbol moves within one crate`, { details: { argument: 'destination', reason: 'other crate' } });
    } else {
      segs = destination.slice(rootDir.length + 1).replace(/\.rs$/, '').split('/');
      if (segs[segs.length - 1] === 'mod') segs.pop();
    }
  } else {
    segs = destination.replace(/^crate::/, '').split('::').filter((s) => s !== '');
    if (destination === 'crate') segs = [];
  }
  if (!segs.every((s) => /^[\p{XID_Start}_][\p{XID_Continue}]*$/u.test(s))) {
    throw new TugError('InvalidArgument', `${destination} is not a module path (crate::a::b) or a .rs file`, { details: { argument: 'destination', reason: 'not a module' } });
  }
  const found = walk(pkg, segs, textOf);
  if (found) {
    if (wanted !== null && found.file !== wanted) throw new TugError('InvalidArgument', `${destination} is not where the module ${modulePath(segs)} lives (${found.file})`, { details: { argument: 'destination', reason: 'layout' } });
    return { module: found };
  }
  const parent = walk(pkg, segs.slice(0, -1), textOf);
  const name = segs[segs.length - 1]!;
  if (!parent) {
    throw new TugError('InvalidArgument', `the parent module of ${modulePath(segs)} does not exist; create it first (tug creates one level)`, { details: { argument: 'destination', reason: 'missing parent module' } });
  }
  const dir = childDir(parent.file, parent.segs.length === 0);
  const flat = join(dir, `${name}.rs`);
  const nested = join(dir, name, 'mod.rs');
  if (textOf(flat) !== undefined || textOf(nested) !== undefined) {
    throw new TugError('InvalidArgument', `${textOf(flat) !== undefined ? flat : nested} exists but ${parent.file} does not declare \`mod ${name};\``, { details: { argument: 'destination', reason: 'undeclared module file' } });
  }
  const dirOf = (f: string) => (path.posix.dirname(f) === '.' ? '' : path.posix.dirname(f));
  const nestedKids = files.filter((f) => path.posix.basename(f) === 'mod.rs' && dirOf(dirOf(f)) === dir);
  const flatKids = files.filter((f) => f.endsWith('.rs') && dirOf(f) === dir && f !== parent.file && !['lib.rs', 'main.rs', 'mod.rs'].includes(path.posix.basename(f)));
  const nestedStyle = nestedKids.length > 0 && flatKids.length === 0;
  const file = wanted ?? (nestedStyle ? nested : flat);
  if (file !== flat && file !== nested) throw new TugError('InvalidArgument', `a new module ${name} of ${parent.file} goes in ${flat} or ${nested}, not ${file}`, { details: { argument: 'destination', reason: 'layout' } });
  const parentText = textOf(parent.file)!;
  const decl = `${publicMod ? 'pub ' : ''}mod ${name};\n`;
  return { module: { segs, file, decls: [...parent.decls, { file: parent.file, vis: publicMod ? 'pub' : '', start: -1, end: -1 }] }, create: { file, parent: parent.file, ...declPoint(parentText, decl) } };
}

/** After the parent's last top-level `mod x;`, else after its imports (with a blank line), else after its head. */
function declPoint(text: string, decl: string): { declAt: number; declText: string } {
  const masked = maskRust(text);
  const depth = depths(masked);
  let last = -1;
  for (const m of masked.matchAll(/(?<![\p{XID_Continue}])(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+[\p{XID_Continue}]+\s*;/gu)) {
    if (depth[m.index] === 0) last = m.index + m[0].length;
  }
  if (last >= 0) {
    const nl = text.indexOf('\n', last);
    return nl < 0 ? { declAt: text.length, declText: `\n${decl}` } : { declAt: nl + 1, declText: decl };
  }
  const point = importPoint(text, masked);
  const sep = point.at > 0 && text[point.at - 1] !== '\n' ? '\n' : '';
  return { declAt: point.at, declText: point.at === 0 ? `${decl}\n` : `${sep}\n${decl}` };
}
