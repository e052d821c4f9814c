// rust-analyzer's extract_variable puts `let name = expr;` before the statement that holds the expression (a match arm
// or closure body without braces it wraps in a block first), whatever the expression's place in that statement. Where
// that place is evaluated again on every iteration (a `while` condition) or only on some paths (an `else if`
// condition, the right of `&&`/`||`), evaluating it once up front changes what the code does: the sweep's shlex `while let Some(ch2) = self.next_char()`
// read one char and looped on it (the crate's test failed). As for Python, such places are refused.
import { TugError } from '../core/errors.js';
import { codeOnly } from './inline-call.js';

/** Why the expression at string index `from` of `text` may not move before its statement, or null. */
export function conditionalPlace(text: string, from: number): string | null {
  // The statement's text before the expression: from the last `;`, `{` or `}` met at block level (not inside brackets).
  const code = codeOnly(text.slice(0, from));
  const stack: Array<{ c: string; start: number }> = [];
  let start = 0;
  const atBlock = () => stack.length === 0 || stack.at(-1)!.c === '{';
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (c === '{') {
      stack.push({ c, start });
      start = i + 1;
    } else if (c === '(' || c === '[') stack.push({ c, start });
    else if (c === ')' || c === ']') stack.pop();
    else if (c === '}') {
      const open = stack.pop();
      start = atBlock() ? i + 1 : (open?.start ?? 0);
    } else if ((c === ';' && atBlock()) || (c === '=' && code[i + 1] === '>')) start = i + (c === ';' ? 1 : 2);
  }
  const prefix = code.slice(start);
  if (/\bwhile\b/u.test(prefix)) return 'a while condition, evaluated again on every iteration';
  if (/\belse\b/u.test(prefix)) return 'an else-if condition, evaluated only when the branches before it are not taken';
  // Operators at a bracket level still open at the expression: it is their operand.
  const open: Array<{ ops: string[] }> = [{ ops: [] }];
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix[i]!;
    if ('([{'.includes(c)) open.push({ ops: [] });
    else if (')]}'.includes(c)) open.length > 1 && open.pop();
    else if ((c === '&' && prefix[i + 1] === '&') || (c === '|' && prefix[i + 1] === '|')) {
      // `&&x` after an operator or an opening is a double reference, not a logical and.
      const before = prefix.slice(0, i).trimEnd();
      if (!(c === '&' && (before === '' || /[=(,[{!&|+\-*/<>:]$/u.test(before)))) open.at(-1)!.ops.push(c + c);
      i++;
    }
  }
  const ops = open.flatMap((o) => o.ops);
  if (ops.includes('&&') || ops.includes('||')) return 'the right of && or ||, which may not evaluate it';
  return null;
}

/** Throws UnsafeRefactor when the expression at `from` is in such a place. */
export function refuseConditionalExtract(text: string, from: number, file: string, line: number, col: number): void {
  const why = conditionalPlace(text, from);
  if (!why) return;
  throw new TugError('UnsafeRefactor', `the expression is in ${why}; bound to a variable before its statement it would be evaluated once, up front`, {
    details: { operation: 'extract-variable', offered: ['extract_variable'], reason: 'evaluated conditionally or repeatedly' },
    location: { file, line, col },
  });
}
