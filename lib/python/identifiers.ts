// Python's rules for names: what may be a new name for a symbol.
import { TugError } from '../core/errors.js';

/** Hard keywords; soft keywords (match, case, _, type) are valid names. */
const KEYWORDS = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else',
  'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise',
  'return', 'try', 'while', 'with', 'yield',
]);

export function assertPythonIdentifier(name: string, argument = 'to'): void {
  const valid = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u.test(name) && name.normalize('NFKC') === name;
  if (!valid) {
    throw new TugError('InvalidArgument', `${JSON.stringify(name)} is not a valid Python identifier`, { details: { argument, reason: 'invalid identifier' } });
  }
  if (KEYWORDS.has(name)) {
    throw new TugError('InvalidArgument', `${JSON.stringify(name)} is a Python keyword`, { details: { argument, reason: 'keyword' } });
  }
}
