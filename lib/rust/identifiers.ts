// Rust's rules for a new name, checked before rust-analyzer is asked, so a bad name is a usage error and not a broken crate.
import { TugError } from '../core/errors.js';

/** Strict and reserved keywords (2021 edition); `r#` makes most of them usable. */
const KEYWORDS = new Set([
  'as', 'async', 'await', 'break', 'const', 'continue', 'crate', 'dyn', 'else', 'enum', 'extern', 'false', 'fn', 'for',
  'if', 'impl', 'in', 'let', 'loop', 'match', 'mod', 'move', 'mut', 'pub', 'ref', 'return', 'self', 'Self', 'static',
  'struct', 'super', 'trait', 'true', 'type', 'unsafe', 'use', 'where', 'while',
  'abstract', 'become', 'box', 'do', 'final', 'macro', 'override', 'priv', 'typeof', 'unsized', 'virtual', 'yield', 'try',
]);

/** Keywords that stay keywords even as raw identifiers. */
const NOT_RAW = new Set(['crate', 'self', 'super', 'Self']);

const IDENT = /^[\p{XID_Start}_]\p{XID_Continue}*$/u;

/** Throws InvalidArgument unless `name` can be written where the old identifier was. Lifetimes keep their quote. */
export function assertRustIdentifier(name: string, oldName?: string): void {
  const lifetime = oldName?.startsWith("'") ?? false;
  const bare = lifetime ? (name.startsWith("'") ? name.slice(1) : null) : name;
  const reject = (reason: string) => {
    throw new TugError('InvalidArgument', `${JSON.stringify(name)} is not a valid Rust ${lifetime ? 'lifetime' : 'identifier'}: ${reason}`, {
      details: { argument: 'to', reason },
    });
  };
  if (bare === null) reject('a lifetime is renamed to another lifetime, e.g. \'b');
  const raw = bare!.startsWith('r#');
  const word = raw ? bare!.slice(2) : bare!;
  if (!IDENT.test(word)) reject('use letters, digits and underscores, not starting with a digit');
  if (word === '_') reject('`_` is a pattern, not a name');
  if (raw && NOT_RAW.has(word)) reject(`\`${word}\` cannot be a raw identifier`);
  if (!raw && KEYWORDS.has(word)) reject(`\`${word}\` is a keyword (write r#${word} for a raw identifier)`);
}
