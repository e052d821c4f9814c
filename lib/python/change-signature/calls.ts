// change-signature at one call site: which old parameter each argument fills, and the argument list the new
// signature needs (positional where it can stay positional, keywords after a gap, values for new parameters).
import type { NewParam, OldParam } from './params.js';

export interface CallArg {
  kind: 'pos' | 'star' | 'kw' | 'dstar';
  name?: string;
  span: [number, number];
  /** The argument's value text (for a keyword: after `name=`). */
  text: string;
  trivial: boolean;
  /** Evaluating it runs nothing (trivial, or a list, tuple, set or dict of trivial parts): free to reorder. */
  inert?: boolean;
}

export type CallOutcome =
  | { kind: 'rewrite'; args: string[] }
  | { kind: 'skip'; reason: 'unpacking' | 'unbindable' }
  | { kind: 'refuse'; param: string; text: string }
  | { kind: 'reorder'; text: string };

/**
 * The new argument texts for a call (`partial`: leading arguments only, nothing inserted for what is missing).
 * `old` and `params` leave out a bound method's self; an unbound call passes it as its first argument (in `lead`).
 */
export function rewriteCall(args: readonly CallArg[], old: readonly OldParam[], params: readonly NewParam[], removed: readonly OldParam[], options: { partial: boolean; force: boolean }): CallOutcome {
  const mappings = args.filter((a) => a.kind === 'dstar');
  if (args.some((a) => a.kind === 'star') || (mappings.length > 0 && options.partial)) return { kind: 'skip', reason: 'unpacking' };
  args = args.filter((a) => a.kind !== 'dstar');
  const given = new Map<string, CallArg>();
  const extraPositional: CallArg[] = [];
  const extraKeywords: CallArg[] = [];
  const positional = old.filter((p) => p.kind === 'posonly' || p.kind === 'normal');
  const varargs = old.find((p) => p.kind === 'vararg');
  const kwargs = old.find((p) => p.kind === 'kwarg');
  let index = 0;
  for (const arg of args) {
    if (arg.kind === 'pos') {
      const param = positional[index++];
      if (param) given.set(param.name, arg);
      else if (varargs) extraPositional.push(arg);
      else return { kind: 'skip', reason: 'unbindable' };
    } else {
      const param = old.find((p) => p.name === arg.name && p.kind !== 'posonly' && p.kind !== 'vararg' && p.kind !== 'kwarg');
      if (param && !given.has(param.name)) given.set(param.name, arg);
      else if (kwargs) extraKeywords.push(arg);
      else return { kind: 'skip', reason: 'unbindable' };
    }
  }
  for (const gone of removed) {
    const arg = given.get(gone.name);
    if (arg && !arg.trivial && !options.force) return { kind: 'refuse', param: gone.name, text: arg.text };
    if (gone.kind === 'vararg' && extraPositional.length > 0 && !options.force && extraPositional.some((a) => !a.trivial)) return { kind: 'refuse', param: gone.name, text: extraPositional.map((a) => a.text).join(', ') };
    if (gone.kind === 'kwarg' && extraKeywords.length > 0 && !options.force && extraKeywords.some((a) => !a.trivial)) return { kind: 'refuse', param: gone.name, text: extraKeywords.map((a) => `${a.name}=${a.text}`).join(', ') };
  }
  if (mappings.length > 0 && !mappingStaysValid(given, old, params, removed)) return { kind: 'skip', reason: 'unpacking' };
  const out: string[] = [];
  /** The written arguments in their new order: evaluation order must not change for those with effects. */
  const moved: CallArg[] = [];
  /** For each entry of out: the written argument it holds (none for a new parameter's value). */
  const source: Array<CallArg | undefined> = [];
  const keyword: boolean[] = [];
  let keywordsOnly = false;
  for (const p of params) {
    if (p.kind === 'vararg') {
      if (p.old && extraPositional.length > 0) {
        if (keywordsOnly) return { kind: 'skip', reason: 'unbindable' };
        out.push(...extraPositional.map((a) => a.text));
        moved.push(...extraPositional);
        source.push(...extraPositional);
        keyword.push(...extraPositional.map(() => false));
      }
      continue;
    }
    if (p.kind === 'kwarg') {
      if (p.old) out.push(...extraKeywords.map((a) => `${a.name}=${a.text}`));
      if (p.old) moved.push(...extraKeywords);
      if (p.old) source.push(...extraKeywords);
      if (p.old) keyword.push(...extraKeywords.map(() => true));
      continue;
    }
    const arg = p.old ? given.get(p.old.name) : undefined;
    const text = arg?.text ?? (options.partial ? null : p.value);
    if (text === null || text === undefined) {
      keywordsOnly = true;
      continue;
    }
    // Stay positional while the arguments so far are, and the argument was written so (or must be).
    if (arg) moved.push(arg);
    const positionalOk = p.kind !== 'kwonly' && !keywordsOnly;
    const wantPositional = p.kind === 'posonly' || (arg ? arg.kind === 'pos' : p.kind !== 'kwonly' && out.length === countPositional(out));
    if (p.kind === 'posonly' && !positionalOk) return { kind: 'skip', reason: 'unbindable' };
    if (positionalOk && wantPositional) out.push(text);
    else {
      keywordsOnly = true;
      out.push(`${p.name}=${text}`);
    }
    source.push(arg);
    keyword.push(keywordsOnly);
  }
  const swap = firstSwap([...moved, ...mappings]);
  if (swap && !options.force) {
    // Keywords bind by name in any order: kept in the order they were written, the effects may not move at all.
    const kept = keepKeywordOrder(out, source, keyword);
    if (kept && !firstSwap([...kept.moved, ...mappings])) return { kind: 'rewrite', args: [...kept.out, ...mappings.map((a) => a.text)] };
    return { kind: 'reorder', text: swap };
  }
  // `**mapping` goes last, where any keyword may follow positional and keyword arguments.
  return { kind: 'rewrite', args: [...out, ...mappings.map((a) => a.text)] };
}

/** The first two arguments with effects that would run in the other order ("a and b"), if any. */
function firstSwap(moved: readonly CallArg[]): string | null {
  const effects = moved.filter((a) => !a.trivial && !a.inert);
  const swapped = effects.findIndex((a, i) => i > 0 && a.span[0] < effects[i - 1]!.span[0]);
  return swapped > 0 ? `${effects[swapped - 1]!.text} and ${effects[swapped]!.text}` : null;
}

/**
 * The entries with the written keyword arguments back in their written order (a new parameter's value keeps its
 * slot); every entry after the first keyword is a keyword, so only names move. Null when there are none to move.
 */
function keepKeywordOrder(out: readonly string[], source: readonly (CallArg | undefined)[], keyword: readonly boolean[]): { out: string[]; moved: CallArg[] } | null {
  const first = keyword.indexOf(true);
  if (first < 0) return null;
  const slots = source.map((a, i) => (i >= first && a ? i : -1)).filter((i) => i >= 0);
  const written = slots.map((i) => ({ text: out[i]!, arg: source[i]! })).sort((a, b) => a.arg.span[0] - b.arg.span[0]);
  const next = [...out];
  const args = [...source];
  slots.forEach((slot, j) => {
    next[slot] = written[j]!.text;
    args[slot] = written[j]!.arg;
  });
  return { out: next, moved: args.filter((a): a is CallArg => a !== undefined) };
}

/**
 * Whether a call's `**mapping` binds the same parameters after the change: every parameter the call does not write
 * may come from the mapping's keys, so each must keep its name and still take a keyword; and no key the old `**kwargs`
 * took may land in a new parameter or vanish with a removed `**kwargs`.
 */
function mappingStaysValid(given: ReadonlyMap<string, CallArg>, old: readonly OldParam[], params: readonly NewParam[], removed: readonly OldParam[]): boolean {
  for (const p of old) {
    if ((p.kind !== 'normal' && p.kind !== 'kwonly') || given.has(p.name)) continue;
    const now = params.find((n) => n.old?.name === p.name);
    if (!now || now.name !== p.name || (now.kind !== 'normal' && now.kind !== 'kwonly')) return false;
  }
  if (removed.some((p) => p.kind === 'kwarg')) return false;
  return !(old.some((p) => p.kind === 'kwarg') && params.some((n) => !n.old && n.kind !== 'vararg' && n.kind !== 'kwarg'));
}

function countPositional(out: readonly string[]): number {
  return out.filter((t) => !/^[\p{XID_Start}_][\p{XID_Continue}]*=(?!=)/u.test(t)).length;
}
