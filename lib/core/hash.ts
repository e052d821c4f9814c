// Content hashes that match git's object ids, so tug can compare files with snapshot blobs without spawning git.
import { createHash } from 'node:crypto';

/** The git blob OID of some bytes: sha1("blob <len>\0" + bytes). */
export function blobOid(bytes: Uint8Array): string {
  const hash = createHash('sha1');
  hash.update(`blob ${bytes.length}\0`);
  hash.update(bytes);
  return hash.digest('hex');
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
