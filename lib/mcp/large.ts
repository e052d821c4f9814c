// Results that fit in a client's message buffer: long strings (a 20 MB patch, long check output) are cut in the result
// and kept whole in this server's memory, readable in pieces as workspace://cut/{id}?offset=&length=.
import { randomBytes } from 'node:crypto';

/** A string longer than this is cut in a tool result (the issue's ~256 KB). */
export const CUT_OVER = 256 * 1024;
/** What is left of a cut string: its start, where a patch or output begins. */
const KEEP = 16 * 1024;
/** A result still larger than this after the first pass has every string over KEEP cut too. */
const TOTAL_LIMIT = 2 * 1024 * 1024;
/** One read of a cut value returns at most this many characters. */
export const PIECE = 256 * 1024;
/** Cut values kept per server; the oldest go first past this many characters. */
const STORE_LIMIT = 256 * 1024 * 1024;

export interface CutValue {
  /** Where in the result (dotted path). */
  path: string;
  chars: number;
  resource: string;
}

export class CutStore {
  private readonly values = new Map<string, string>();
  private size = 0;

  put(text: string): string {
    const id = randomBytes(8).toString('hex');
    this.values.set(id, text);
    this.size += text.length;
    for (const [old, value] of this.values) {
      if (this.size <= STORE_LIMIT || old === id) break;
      this.values.delete(old);
      this.size -= value.length;
    }
    return id;
  }

  get(id: string): string | undefined {
    return this.values.get(id);
  }
}

/**
 * A copy of `value` where long strings are cut; `cuts` says which and where the whole of each is. Plain JSON data with
 * no string to cut (most results) comes back as it is: its JSON is the copy's, and walking it costs a fraction of
 * copying it (a 501-file rename's result: ~0.3 against 2-6 ms in a warm server, ~11 ms sampled in a server's first calls).
 */
export function cutLarge(value: Record<string, unknown>, store: CutStore): { value: Record<string, unknown>; cuts: CutValue[] } {
  const cuts: CutValue[] = [];
  let out = plainWithin(value, CUT_OVER) ? value : (cutStrings(value, CUT_OVER, store, cuts, '') as Record<string, unknown>);
  if (JSON.stringify(out).length > TOTAL_LIMIT) out = cutStrings(out, KEEP, store, cuts, '') as Record<string, unknown>;
  return { value: out, cuts };
}

/**
 * Whether `value` is JSON data as cutStrings copies it exactly (strings, numbers, booleans, null, undefined, arrays and
 * objects of Object's prototype or none, without toJSON) and holds no string longer than `over`. Anything else (a Date,
 * a class instance, a function) takes the copy, whose JSON may differ from the value's.
 */
function plainWithin(value: unknown, over: number): boolean {
  if (typeof value === 'string') return value.length <= over;
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') return true;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (const item of value) if (!plainWithin(item, over)) return false;
    return true;
  }
  if (typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in value) return false;
  for (const key of Object.keys(value)) if (!plainWithin((value as Record<string, unknown>)[key], over)) return false;
  return true;
}

function cutStrings(value: unknown, over: number, store: CutStore, cuts: CutValue[], at: string): unknown {
  if (typeof value === 'string') {
    if (value.length <= over) return value;
    const resource = `workspace://cut/${store.put(value)}`;
    cuts.push({ path: at, chars: value.length, resource });
    return `${value.slice(0, KEEP)}\n[… ${value.length - KEEP} more characters cut; read ${resource}?offset=${KEEP} for the rest …]`;
  }
  if (Array.isArray(value)) return value.map((item, i) => cutStrings(item, over, store, cuts, `${at}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutStrings(item, over, store, cuts, at ? `${at}.${key}` : key)]));
  }
  return value;
}

/** workspace://cut/{id}?offset=&length=: one piece of a cut value, with where the next one starts (null at the end). */
export function readCut(store: CutStore, parsed: URL): { id: string; total_chars: number; offset: number; next_offset: number | null; text: string } | undefined {
  const id = parsed.host === 'cut' ? parsed.pathname.replace(/^\//, '') : '';
  const text = store.get(id);
  if (text === undefined) return undefined;
  const offset = Math.max(0, Number(parsed.searchParams.get('offset') ?? 0) || 0);
  const length = Math.min(PIECE, Math.max(1, Number(parsed.searchParams.get('length') ?? PIECE) || PIECE));
  const end = Math.min(text.length, offset + length);
  return { id, total_chars: text.length, offset, next_offset: end < text.length ? end : null, text: text.slice(offset, end) };
}
