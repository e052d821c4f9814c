// Reads a git index file itself: the root tree its cache-tree extension records (what `git write-tree` would answer for
// an index whose cache tree is valid throughout) and its entries (what `ls-tree` of that tree would list): one git
// process less each.
const SIGNATURE = 'DIRC';

/**
 * The root tree id of `index`'s cache-tree (TREE) extension when it is there and valid: git invalidates a path's
 * every ancestor up to the root when an entry under it changes, so a valid root means a valid tree throughout.
 * Undefined for anything else: no extension, an invalid root, a split index (its entries live in another file), a
 * version or layout this reader does not know. The hash length (SHA-1 or SHA-256) is the one the file's layout fits.
 */
export function cachedRootTree(index: Uint8Array): string | undefined {
  const known = layout(index, false);
  return known && rootFromExtensions(known.bytes, known.extensions, known.hashLength);
}

/**
 * The file's bytes, the hash length its layout fits (SHA-1 or SHA-256), where its extensions start and, when asked
 * for, its entries; undefined for a file this reader does not know.
 */
function layout(index: Uint8Array, withEntries: boolean): { bytes: Buffer; hashLength: number; extensions: number; entries: IndexEntry[] } | undefined {
  const bytes = Buffer.from(index.buffer, index.byteOffset, index.byteLength);
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== SIGNATURE) return undefined;
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  for (const hashLength of [20, 32]) {
    const entries: IndexEntry[] = [];
    const extensions = extensionsStart(bytes, version, bytes.readUInt32BE(8), hashLength, withEntries ? entries : undefined);
    if (extensions !== undefined) return { bytes, hashLength, extensions, entries };
  }
  return undefined;
}

/**
 * The entries of the tree `index` writes, as `git ls-tree -r` lists them (the index's order is the tree's), or undefined
 * when the index holds what a tree cannot (a conflict, an intent-to-add entry, a sparse directory, a split index) or a
 * layout this reader does not know.
 */
export function indexTreeEntries(index: Uint8Array): Array<{ mode: string; type: string; oid: string; path: string }> | undefined {
  const entries = indexEntries(index);
  if (!entries || entries.some((e) => e.stage !== 0 || e.intentToAdd || !TREE_MODES.has(e.mode))) return undefined;
  return entries.map((e) => ({ mode: e.mode, type: e.mode === '160000' ? 'commit' : 'blob', oid: e.oid, path: e.path }));
}

/** The modes git gives files, symlinks and submodules in an index and a tree. */
const TREE_MODES = new Set(['100644', '100755', '120000', '160000']);

function hasExtension(bytes: Buffer, offset: number, hashLength: number, wanted: string): boolean {
  for (let at = offset; at < bytes.length - hashLength; at += 8 + bytes.readUInt32BE(at + 4)) {
    if (bytes.toString('latin1', at, at + 4) === wanted) return true;
  }
  return false;
}

/** An index entry as `git ls-tree` shows a tree's: mode in octal, object id, path. */
export interface IndexEntry {
  mode: string;
  oid: string;
  path: string;
  /** Stage (0 merged, 1–3 a conflict's sides) and the flags an entry can carry that a tree cannot. */
  stage: number;
  intentToAdd: boolean;
  /** assume-unchanged or skip-worktree: git does not look at the file, so its stat data says nothing. */
  unwatched: boolean;
  /** The file's modification time as git recorded it, in seconds, and its size (truncated to 32 bits). */
  mtime: number;
  size: number;
}

/** The last index parsed and its entries: the snapshot's own index is asked for several times in a row. */
let parsed: { index: Uint8Array; entries: IndexEntry[] | undefined } | undefined;

/** Every entry of `index`, or undefined for a layout this reader does not know or a split index. */
export function indexEntries(index: Uint8Array): IndexEntry[] | undefined {
  if (parsed?.index !== index) parsed = { index, entries: parseEntries(index) };
  return parsed.entries;
}

function parseEntries(index: Uint8Array): IndexEntry[] | undefined {
  const known = layout(index, true);
  return known && !hasExtension(known.bytes, known.extensions, known.hashLength, 'link') ? known.entries : undefined;
}

/** Where the entries end, or undefined when they do not fit in the file with this hash length. */
function extensionsStart(bytes: Buffer, version: number, count: number, hashLength: number, entries?: IndexEntry[]): number | undefined {
  const end = bytes.length - hashLength;
  let offset = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const flagsAt = offset + 40 + hashLength;
    if (flagsAt + 2 > end) return undefined;
    const flags = bytes.readUInt16BE(flagsAt);
    let name = flagsAt + 2;
    const extended = flags & 0x4000 ? bytes.readUInt16BE(name) : 0;
    if (flags & 0x4000) {
      if (version < 3) return undefined;
      name += 2;
    }
    let path: Buffer;
    if (version === 4) {
      // A prefix-compressed name: a varint of bytes to drop from the previous name, then the rest up to a NUL.
      let drop = bytes[name]! & 0x7f;
      while (name < end && bytes[name]! & 0x80) drop = ((drop + 1) << 7) | (bytes[++name]! & 0x7f);
      const nul = bytes.indexOf(0, name + 1);
      if (nul < 0 || nul >= end || (entries && drop > previous.length)) return undefined;
      path = entries ? Buffer.concat([previous.subarray(0, previous.length - drop), bytes.subarray(name + 1, nul)]) : previous;
      offset = nul + 1;
    } else {
      const length = flags & 0xfff;
      const nul = length < 0xfff ? name + length : bytes.indexOf(0, name);
      if (nul < 0 || nul >= end || bytes[nul] !== 0) return undefined;
      path = bytes.subarray(name, nul);
      // Entries are NUL-padded to a multiple of eight bytes.
      offset += (nul - offset + 8) & ~7;
    }
    if (offset > end) return undefined;
    if (entries) {
      entries.push({
        mode: bytes.readUInt32BE(flagsAt - hashLength - 16).toString(8),
        oid: bytes.toString('hex', flagsAt - hashLength, flagsAt),
        path: path.toString('utf8'),
        stage: (flags >> 12) & 3,
        intentToAdd: (extended & 0x2000) !== 0,
        unwatched: (flags & 0x8000) !== 0 || (extended & 0x4000) !== 0,
        mtime: bytes.readUInt32BE(flagsAt - hashLength - 32),
        size: bytes.readUInt32BE(flagsAt - hashLength - 4),
      });
      previous = path;
    }
  }
  // The extensions (a 4-byte signature and a 4-byte size each) must end exactly where the checksum starts.
  for (let at = offset; at !== end; ) {
    if (at + 8 > end) return undefined;
    at += 8 + bytes.readUInt32BE(at + 4);
    if (at > end) return undefined;
  }
  return offset;
}

function rootFromExtensions(bytes: Buffer, offset: number, hashLength: number): string | undefined {
  const end = bytes.length - hashLength;
  let root: string | undefined;
  for (let at = offset; at < end; ) {
    const signature = bytes.toString('latin1', at, at + 4);
    const data = at + 8;
    at = data + bytes.readUInt32BE(at + 4);
    if (signature === 'link') return undefined;
    if (signature !== 'TREE' || bytes[data] !== 0) continue;
    // The root's record: an empty path, then "ENTRY_COUNT SUBTREES\n", then its id unless ENTRY_COUNT is -1.
    const newline = bytes.indexOf(0x0a, data + 1);
    if (newline < 0 || newline + 1 + hashLength > at) continue;
    const match = /^(-?\d+) \d+$/.exec(bytes.toString('latin1', data + 1, newline));
    if (match && Number(match[1]) >= 0) root = bytes.toString('hex', newline + 1, newline + 1 + hashLength);
  }
  return root;
}

