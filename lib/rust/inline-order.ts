// rust-analyzer's inline_local_variable moves the initializer to the use without asking whether something evaluated in
// between could see the difference: on shlex, `let res = shl.by_ref().collect();` went past `if shl.had_error`, which
// the call sets; on strsim, `let transposition_cost = … (j - db - 1)` went past `db = j;` and the sum overflowed. A
// value is inlined only where every variable it reads holds the same value at each use, and a value with possible
// effects only into a single use that nothing is evaluated before.
import { TugError } from '../core/errors.js';
import type { ResolvedEdit } from '../core/patchset.js';
import { isPlainArgument } from './arg-lists.js';
import { codeOnly } from './inline-call.js';

// The `let` statement rust-analyzer removed, with whatever blank lines it took along.
const LET = /^\s*let\s+(?:mut\s+)?([\p{XID_Start}_][\p{XID_Continue}]*)\s*(?::[^=]*)?=\s*([\s\S]*?);\s*$/u;
/** What may stand between the `let` and the use without evaluating anything: paths, `(`, `&`, `let x =`, `return`. */
const NOTHING_EVALUATED = /^(\s|[\p{XID_Continue}]|::|\(|&|=(?!=)|<|>|\.)*$/u;
const EVALUATING_WORDS = /\b(if|else|match|while|for|loop|unsafe|async|await)\b/u;
const KEYWORDS = new Set(['as', 'true', 'false', 'self', 'Self', 'crate', 'super', 'mut', 'ref', 'move', 'if', 'else', 'match', 'unsafe', 'return']);

/** Throws UnsafeRefactor when the inline in `edits` (one file's, rust-analyzer's) could change a value or an effect. */
export function checkInlineOrder(original: string, edits: readonly ResolvedEdit[]): void {
  const binding = edits.map((e) => ({ e, m: LET.exec(e.oldText) })).find((x) => x.m && x.e.newText.trim() === '');
  if (!binding) return;
  const [, name, init] = binding.m!;
  const uses = edits.filter((e) => e !== binding.e && e.oldText === name).sort((a, b) => a.start - b.start);
  const refuse = (why: string, reason: string, at: ResolvedEdit) => {
    throw new TugError('UnsafeRefactor', `inlining ${name} would ${why}`, { details: { reason, line: at.line, col: at.col }, location: { file: at.file, line: at.line, col: at.col } });
  };
  const last = uses[uses.length - 1];
  if (last && last.start >= binding.e.end) {
    const changed = changedBetween(init!, reach(Buffer.from(original), binding.e.end, last.start));
    if (changed) refuse(`read \`${changed}\` after \`${changed}\` may have changed (${name}'s value reads it)`, 'value reads a variable changed before a use', last);
  }
  // Without calls, macros, blocks or closures, evaluating the value again or later only reads the variables checked
  // above (`jaro_distance + 0.1 * prefix_length as f64` in strsim).
  if (isPlainArgument(init!) || withoutEffects(init!)) return;
  if (uses.length > 1) refuse(`evaluate \`${init!.trim()}\` ${uses.length} times`, 'value with effects used more than once', uses[1]!);
  const use = uses[0];
  if (!use || use.start < binding.e.end) return;
  const between = Buffer.from(original).subarray(binding.e.end, use.start).toString('utf8');
  if (!NOTHING_EVALUATED.test(between) || EVALUATING_WORDS.test(between)) {
    refuse(`move \`${init!.trim()}\` past code that runs before the use (\`${between.trim().slice(0, 60)}\`)`, 'value with effects moved past other code', use);
  }
}

/** Whether evaluating the value can only read: no call, macro, `?`, `.await`, block, closure or `&mut` in it. */
function withoutEffects(init: string): boolean {
  const code = codeOnly(init);
  return !/[\p{XID_Continue}>)\]]\s*(?:::\s*<[^>]*>\s*)?\(|[\p{XID_Continue}]!\s*[([{]|\?|\.\s*await\b|[{}|]|&\s*mut\b/u.test(code);
}

/**
 * The code from the `let` to the last use, blanked of strings and comments; when the use sits in a block opened after
 * the `let` and a loop is among them, also the rest of that block: a later pass of the loop runs it before the use.
 */
function reach(original: Buffer, from: number, to: number): string {
  const between = codeOnly(original.subarray(from, to).toString('utf8'));
  let depth = 0;
  for (const c of between) depth += c === '{' ? 1 : c === '}' ? -1 : 0;
  if (depth <= 0 || !/\b(?:loop|while|for)\b/u.test(between)) return between;
  const rest = codeOnly(original.subarray(to).toString('utf8'));
  let end = 0;
  while (end < rest.length && depth > 0) {
    depth += rest[end] === '{' ? 1 : rest[end] === '}' ? -1 : 0;
    end++;
  }
  return between + rest.slice(0, end);
}

/**
 * The first variable the value reads that the code between may change: assigned (`x =`, `x += …`, `x.f = …`,
 * `x[i] = …`, `*x = …`), borrowed mutably (`&mut x`), or given a method call (which may take `&mut self`). Read from
 * the text, so a mention in a string or a shadowing `let` counts too: that refuses more, never less.
 */
function changedBetween(init: string, between: string): string | null {
  const roots = new Set<string>();
  for (const m of init.matchAll(/(?<![\p{XID_Continue}.:'"])[\p{XID_Start}_][\p{XID_Continue}]*/gu)) {
    if (KEYWORDS.has(m[0]) || /^\s*(?:\(|::|!)/u.test(init.slice(m.index! + m[0].length))) continue;
    roots.add(m[0]);
  }
  for (const root of [...roots].sort()) {
    const word = `(?<![\\p{XID_Continue}.])${root}(?![\\p{XID_Continue}])`;
    const place = `${word}(?:\\s*(?:\\.\\s*[\\p{XID_Continue}]+|\\[[^\\]]*\\]))*`;
    const assigned = new RegExp(`${place}\\s*(?:[-+*/%^&|]|<<|>>)?=(?![=>])`, 'u');
    const borrowed = new RegExp(`&\\s*mut\\s+${place}`, 'u');
    const called = new RegExp(`${place}\\s*\\.\\s*[\\p{XID_Start}_][\\p{XID_Continue}]*\\s*(?:::\\s*<[^>]*>\\s*)?\\(`, 'u');
    if (assigned.test(between) || borrowed.test(between) || called.test(between)) return root;
  }
  return null;
}
