// Native code that looks a Python name up by its module and name: an extension module (its C, C++ or Cython source, or
// the compiled `.so`/`.pyd` checked in) importing `simplejson.raw_json` and reading `RawJSON` from it. No edit of tug's
// reaches there, so a move or rename of that name would break the extension at import time (simplejson in the sweep).
import { TugError } from '../core/errors.js';
import { readBlobs } from '../git/objects.js';
import type { Repo } from '../git/repo.js';
import { listTreePaths } from '../git/snapshot.js';

/** Sources of extension modules, and extension modules themselves (`_speedups.cpython-311-x86_64-linux-gnu.so`). */
const NATIVE = /\.(c|h|cc|cpp|cxx|hh|hpp|pyx|pxd|pxi|so|pyd)$/;

/** Whether `bytes` hold `text` with no identifier character (or dot, for a module) right before or after it. */
function holdsToken(bytes: Uint8Array, text: string, dotted: boolean): boolean {
  const needle = Buffer.from(text, 'utf8');
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const part = (byte: number | undefined) => byte !== undefined && (/[A-Za-z0-9_]/.test(String.fromCharCode(byte)) || (dotted && byte === 0x2e));
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    if (!part(haystack[at - 1]) && !part(haystack[at + needle.length])) return true;
  }
  return false;
}

/** The snapshot's native files that name both the module `module` (dotted, whole) and `name`, sorted. */
export async function nativeMentions(repo: Repo, entries: ReadonlyArray<{ path: string; oid: string; type: string; mode: string }>, module: string, name: string): Promise<string[]> {
  const native = entries.filter((e) => e.type === 'blob' && e.mode !== '120000' && NATIVE.test(e.path));
  if (native.length === 0) return [];
  const blobs = await readBlobs(repo, native.map((e) => e.oid));
  return native
    .filter((e) => {
      const bytes = blobs.get(e.oid);
      return bytes !== undefined && holdsToken(bytes, module, true) && holdsToken(bytes, name, false);
    })
    .map((e) => e.path)
    .sort();
}

/** As nativeMentions, for a caller that knows the tree's paths: the tree is listed only when a native file is among them. */
export async function nativeMentionsInTree(repo: Repo, tree: string, paths: Iterable<string>, module: string, name: string): Promise<string[]> {
  for (const p of paths) if (NATIVE.test(p)) return nativeMentions(repo, await listTreePaths(repo, tree), module, name);
  return [];
}

/**
 * Refuses to move `name` out of `module` (or rename it) while native code names the pair, unless the old module keeps
 * the name (`keep`: the flag that does so for this operation, named in the message).
 */
export function refuseNamedByNativeCode(files: readonly string[], module: string, name: string, what: string, keep: { flag: string; cli: string }): void {
  if (files.length === 0) return;
  throw new TugError('UnsafeRefactor', `${files.join(', ')} name${files.length === 1 ? 's' : ''} ${module} and ${name}: native code that imports the module and reads ${name} from it, which tug cannot edit, would break after ${what}; set ${keep.flag} (CLI ${keep.cli}) to keep ${module}.${name} as an alias`, {
    details: { reason: 'named by native code', files, module, name },
  });
}
