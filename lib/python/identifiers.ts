// Python's rules for names: what may be a new name for a symbol, read as Python reads it (NFKC-normalised).
import { TugError } from '../core/errors.js';

/** Hard keywords; soft keywords (match, case, _, type) are valid names. */
const KEYWORDS = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else',
  'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise',
  'return', 'try', 'while', 'with', 'yield',
]);

/** CPython's test after normalisation: XID_Start or `_`, then XID_Continue (PEP 3131). */
const IDENTIFIER = /^[\p{XID_Start}_][\p{XID_Continue}]*$/u;

/**
 * The name as Python reads it: CPython's tokenizer NFKC-normalises every identifier, so `ｂ` is the name `b` and
 * `ｃｌａｓｓ` the keyword `class`. Throws InvalidArgument for what Python would not read as one (non-)keyword name.
 */
export function pythonIdentifier(name: string, argument = 'to'): string {
  const normalized = name.normalize('NFKC');
  // ASCII outside [A-Za-z0-9_] ends a name for the tokenizer, whatever normalisation would make of it.
  const valid = IDENTIFIER.test(normalized) && !/[\0-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]/.test(name);
  if (!valid) {
    throw new TugError('InvalidArgument', `${JSON.stringify(name)} is not a valid Python identifier`, { details: { argument, reason: 'invalid identifier' } });
  }
  if (KEYWORDS.has(normalized)) {
    throw new TugError('InvalidArgument', `${JSON.stringify(name)} is a Python keyword`, { details: { argument, reason: 'keyword' } });
  }
  return normalized;
}

/** Whether the name is valid (see pythonIdentifier); the name to use is pythonIdentifier's answer. */
export function assertPythonIdentifier(name: string, argument = 'to'): void {
  pythonIdentifier(name, argument);
}

/** A hard keyword cannot be a module name either: `from pkg.class import x` does not parse. */
export function isPythonKeyword(name: string): boolean {
  return KEYWORDS.has(name);
}
