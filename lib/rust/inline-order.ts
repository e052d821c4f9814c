// rust-analyzer's inline_local_variable moves the initializer to the use without asking whether something evaluated in
// between could see the difference: on shlex, `let res = shl.by_ref().collect();` went past `if shl.had_error`, which
// the call sets. A value with possible effects is inlined only into a single use that nothing is evaluated before.
import { TugError } from '../core/errors.js';
import type { ResolvedEdit } from '../core/patchset.js';
import { isPlainArgument } from './arg-lists.js';

const LET = /^\s*let\s+(?:mut\s+)?([\p{XID_Start}_][\p{XID_Continue}]*)\s*(?::[^=]*)?=\s*([\s\S]*?);[ \t]*\r?\n?[ \t]*$/u;
/** What may stand between the `let` and the use without evaluating anything: paths, `(`, `&`, `let x =`, `return`. */
const NOTHING_EVALUATED = /^(\s|[\p{XID_Continue}]|::|\(|&|=(?!=)|<|>|\.)*$/u;
const EVALUATING_WORDS = /\b(if|else|match|while|for|loop|unsafe|async|await)\b/u;

/** Throws UnsafeRefactor when the inline in `edits` (one file's, rust-analyzer's) could reorder an effect. */
export function checkInlineOrder(original: string, edits: readonly ResolvedEdit[]): void {
  const binding = edits.map((e) => ({ e, m: LET.exec(e.oldText) })).find((x) => x.m && x.e.newText.trim() === '');
  if (!binding) return;
  const [, name, init] = binding.m!;
  if (isPlainArgument(init!)) return;
  const uses = edits.filter((e) => e !== binding.e && e.oldText === name).sort((a, b) => a.start - b.start);
  const refuse = (why: string, reason: string, at: ResolvedEdit) => {
    throw new TugError('UnsafeRefactor', `inlining ${name} would ${why}`, { details: { reason, line: at.line, col: at.col }, location: { file: at.file, line: at.line, col: at.col } });
  };
  if (uses.length > 1) refuse(`evaluate \`${init!.trim()}\` ${uses.length} times`, 'value with effects used more than once', uses[1]!);
  const use = uses[0];
  if (!use || use.start < binding.e.end) return;
  const between = Buffer.from(original).subarray(binding.e.end, use.start).toString('utf8');
  if (!NOTHING_EVALUATED.test(between) || EVALUATING_WORDS.test(between)) {
    refuse(`move \`${init!.trim()}\` past code that runs before the use (\`${between.trim().slice(0, 60)}\`)`, 'value with effects moved past other code', use);
  }
}
