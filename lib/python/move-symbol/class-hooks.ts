// A class statement runs its bases' `__init_subclass__` and its metaclass, and a plugin registry uses them to add
// every subclass to a table when the module is imported. move-symbol's worker refuses to move such a class to a module
// nothing imports, and to see the hook it needs the modules the bases come from, which do not name the moved class.
import { decodeText } from '../../core/text.js';
import { packageOf, type ModuleMap } from '../modules.js';

const HOOK_WORDS = ['__init_subclass__', 'metaclass'];
const FROM_IMPORT = /^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\(?([\w \t,]*)/gm;
const PLAIN_IMPORT = /^[ \t]*import[ \t]+([\w. \t,]+)/gm;

/**
 * The files the source module imports, directly or through them, when the project defines any subclass hook at
 * all (most projects do not, and then nothing more is sent). Sorted; the source itself is not listed.
 */
export function hookContext(source: string, files: ReadonlyMap<string, Uint8Array>, modules: ModuleMap): string[] {
  const texts = new Map<string, string>();
  const text = (p: string): string => {
    if (!texts.has(p)) {
      const decoded = decodeText(files.get(p)!);
      texts.set(p, decoded.ok ? decoded.text : '');
    }
    return texts.get(p)!;
  };
  const hooked = [...files].some(([p, bytes]) => p.endsWith('.py') && HOOK_WORDS.some((word) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(word)));
  if (!hooked) return [];
  const seen = new Set([source]);
  const queue = [source];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const module = modules.byFile.get(file);
    if (module === undefined) continue;
    for (const name of importedModules(text(file), packageOf(file, module))) {
      const found = modules.byName.get(name);
      if (found !== undefined && found.endsWith('.py') && !seen.has(found)) {
        seen.add(found);
        queue.push(found);
      }
    }
  }
  seen.delete(source);
  return [...seen].sort();
}

/** Module names an import line may load: `from m import a` may name the module m.a as well as a name in m. */
function importedModules(text: string, pkg: string): string[] {
  const names: string[] = [];
  const parts = pkg ? pkg.split('.') : [];
  for (const [, dots = '', module = '', imported = ''] of text.matchAll(FROM_IMPORT)) {
    const base = dots.length === 0 ? module : [...parts.slice(0, parts.length - (dots.length - 1)), module].filter(Boolean).join('.');
    if (!base) continue;
    names.push(base);
    for (const part of imported.split(',')) {
      const first = part.trim().split(/\s+/)[0];
      if (first) names.push(`${base}.${first}`);
    }
  }
  for (const [, list = ''] of text.matchAll(PLAIN_IMPORT)) {
    for (const part of list.split(',')) {
      const dotted = part.trim().split(/\s+/)[0];
      if (dotted) names.push(dotted);
    }
  }
  return names;
}
