// Which files a rename must read before any parsing: those whose bytes mention its names, with their packages.
import type { ModuleMap } from './modules.js';

const isWordByte = (b: number | undefined) => b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || b === 0x5f || (b >= 0x61 && b <= 0x7a));

/**
 * The ASCII identifier at (or just before) a byte offset, as the resolver sees it: a cursor right after a name is on
 * it. Null when there is none or it touches non-ASCII bytes (Python compares those after normalising, a byte scan
 * would not).
 */
export function identifierAt(bytes: Uint8Array, offset: number): string | null {
  let at = isWordByte(bytes[offset]) ? offset : isWordByte(bytes[offset - 1]) ? offset - 1 : -1;
  if (at < 0) return null;
  let start = at;
  while (isWordByte(bytes[start - 1])) start--;
  while (isWordByte(bytes[at + 1])) at++;
  if ((bytes[start - 1] ?? 0) >= 0x80 || (bytes[at + 1] ?? 0) >= 0x80) return null;
  const name = Buffer.from(bytes.subarray(start, at + 1)).toString('latin1');
  return /^[A-Za-z_]/.test(name) ? name : null;
}

/** Files whose bytes contain any of `names` anywhere (a superset of the files that write them as names). */
export function filesMentioning(bytesOf: ReadonlyMap<string, Uint8Array>, names: readonly string[]): Set<string> {
  const needles = names.map((n) => Buffer.from(n, 'utf8'));
  const out = new Set<string>();
  for (const [file, bytes] of bytesOf) {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (needles.some((n) => buffer.includes(n))) out.add(file);
  }
  return out;
}

/** Module name → its files (a module and its stub share a name; both are read or neither, as in a full load). */
export function filesByModule(modules: ModuleMap): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [file, module] of modules.byFile) out.set(module, [...(out.get(module) ?? []), file]);
  return out;
}

/**
 * `files` plus what resolving names in them needs without asking: the other files of their modules and the
 * `__init__` of every enclosing package. Anything further (imported modules, base classes, star-import sources)
 * is added when the project asks for it.
 */
export function withPackages(files: Iterable<string>, modules: ModuleMap, byModule: ReadonlyMap<string, string[]>): Set<string> {
  const out = new Set<string>();
  for (const file of files) {
    out.add(file);
    const module = modules.byFile.get(file);
    if (module === undefined) continue;
    const parts = module.split('.');
    for (let i = parts.length; i > 0; i--) for (const f of byModule.get(parts.slice(0, i).join('.')) ?? []) out.add(f);
  }
  return out;
}
