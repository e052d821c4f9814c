// change-signature's new parameter list: checked against the old one, each entry resolved to what it keeps or adds.
import { TugError } from '../../core/errors.js';
import { pythonIdentifier } from '../identifiers.js';
import type { NewParamInput } from '../../ops/change-signature/schema.js';

/** Python's markers in `new_params`: `{"name":"/"}`, `{"name":"*"}`; varargs `{"name":"*args"}`, `{"name":"**kwargs"}`. */
export type { NewParamInput };

export interface OldParam {
  name: string;
  kind: 'posonly' | 'normal' | 'vararg' | 'kwonly' | 'kwarg';
  span: [number, number];
  text: string;
  has_default: boolean;
}

export type NewKind = 'posonly' | 'normal' | 'kwonly' | 'vararg' | 'kwarg';

/** A resolved new parameter: its kind in the new list, the old one it is (if any), and what calls that lack it get. */
export interface NewParam {
  name: string;
  kind: NewKind;
  old: OldParam | null;
  hasDefault: boolean;
  value: string | null;
  /** The definition's text for it. */
  text: string;
}

function invalid(message: string, reason: string): TugError {
  return new TugError('InvalidArgument', `new_params: ${message}`, { details: { argument: 'new_params', reason } });
}

/** The name as Python reads it (NFKC: `ｂ` is b), or InvalidArgument for a non-name or a keyword (`class`). */
function parameterName(name: string, written: string): string {
  try {
    return pythonIdentifier(name, 'new_params');
  } catch (error) {
    const keyword = error instanceof TugError && error.details?.['reason'] === 'keyword';
    throw invalid(`"${written}" is ${keyword ? 'a Python keyword' : 'not a parameter name'}`, keyword ? 'keyword' : 'invalid name');
  }
}

/** The texts of `new_params` the worker parses: each type, default and value must be one piece of its kind. */
export function paramTexts(input: readonly NewParamInput[]): { kind: 'type' | 'default' | 'value'; text: string; name: string }[] {
  return input.flatMap((p) => (['type', 'default', 'value'] as const).flatMap((kind) => (p[kind] === undefined ? [] : [{ kind, text: p[kind]!, name: p.name }])));
}

/** The worker's verdicts on paramTexts, as the InvalidArgument of the first text that is not what it claims. */
export function checkParamTexts(texts: ReturnType<typeof paramTexts>, problems: readonly (string | null)[]): void {
  const bad = texts.findIndex((_, i) => problems[i]);
  if (bad >= 0) throw invalid(`the ${texts[bad]!.kind} ${JSON.stringify(texts[bad]!.text)} of ${texts[bad]!.name} ${problems[bad]}`, `invalid ${texts[bad]!.kind}`);
}

/** Checks `new_params` against the old parameters (a method's self/cls left out of both) and resolves every entry. */
export function resolveNewParams(input: readonly NewParamInput[], old: readonly OldParam[]): { params: NewParam[]; removed: OldParam[] } {
  const byName = new Map(old.map((p) => [p.name, p]));
  const slash = input.findIndex((p) => p.name === '/');
  const star = input.findIndex((p) => p.name === '*' || (p.name.startsWith('*') && !p.name.startsWith('**')));
  if (input.filter((p) => p.name === '/').length > 1) throw invalid('"/" appears more than once', 'duplicate marker');
  if (input.filter((p) => p.name.startsWith('*') && !p.name.startsWith('**')).length > 1) throw invalid('only one of "*" and "*args" may appear', 'duplicate marker');
  if (slash >= 0 && star >= 0 && slash > star) throw invalid('"/" must come before "*" or "*args"', 'marker order');
  const kwargsAt = input.findIndex((p) => p.name.startsWith('**'));
  if (kwargsAt >= 0 && kwargsAt !== input.length - 1) throw invalid('"**kwargs" must be last', 'marker order');
  const seen = new Set<string>();
  const used = new Set<string>();
  const params: NewParam[] = [];
  let sawDefault = false;
  input.forEach((entry, index) => {
    if (entry.name === '/' || entry.name === '*') {
      if (entry.from || entry.default !== undefined || entry.value !== undefined || entry.type) throw invalid(`the "${entry.name}" marker takes no other fields`, 'marker fields');
      return;
    }
    const stars = entry.name.startsWith('**') ? 2 : entry.name.startsWith('*') ? 1 : 0;
    const name = parameterName(entry.name.slice(stars), entry.name);
    if (seen.has(name)) throw invalid(`${name} appears more than once`, 'duplicate name');
    seen.add(name);
    const fromName = entry.from !== undefined ? entry.from.normalize('NFKC') : byName.has(name) ? name : undefined;
    const source = fromName === undefined ? null : byName.get(fromName) ?? null;
    if (fromName !== undefined && !source) throw invalid(`from: ${fromName} is not a parameter of the function (it has ${old.map((p) => p.name).join(', ') || 'none'})`, 'unknown from');
    if (source && used.has(source.name)) throw invalid(`${source.name} is used by more than one new parameter`, 'duplicate from');
    if (source) used.add(source.name);
    const kind: NewKind = stars === 2 ? 'kwarg' : stars === 1 ? 'vararg' : slash > index ? 'posonly' : star >= 0 && star < index ? 'kwonly' : 'normal';
    if ((kind === 'vararg' || kind === 'kwarg') && source && source.kind !== kind) throw invalid(`${entry.name} can only come from a ${kind === 'vararg' ? '*args' : '**kwargs'} parameter`, 'star kind');
    if ((kind === 'vararg' || kind === 'kwarg') && (entry.default !== undefined || entry.value !== undefined)) throw invalid(`${entry.name} takes no default or value`, 'star fields');
    if (source && (source.kind === 'vararg' || source.kind === 'kwarg') && kind !== source.kind) throw invalid(`${source.name} is a ${source.kind === 'vararg' ? '*args' : '**kwargs'} parameter; write it as "${source.kind === 'vararg' ? '*' : '**'}${name}"`, 'star kind');
    const hasDefault = entry.default !== undefined || (source?.has_default === true && entry.default === undefined);
    if (kind === 'posonly' || kind === 'normal') {
      if (hasDefault) sawDefault = true;
      else if (sawDefault) throw invalid(`${name} has no default but follows a parameter with one`, 'non-default after default');
    }
    if (!source && kind !== 'vararg' && kind !== 'kwarg' && !hasDefault && entry.value === undefined) {
      throw invalid(`${name} is new and has neither a default nor a value for the call sites`, 'new parameter without default or value');
    }
    params.push({ name, kind, old: source, hasDefault, value: entry.value ?? null, text: paramText(entry, name, stars, source) });
  });
  const removed = old.filter((p) => !used.has(p.name));
  return { params, removed };
}

/** The definition's text: the old parameter's own text (annotation, default, spacing) with the name, type or default changed if asked. */
function paramText(entry: NewParamInput, name: string, stars: number, source: OldParam | null): string {
  const prefix = '*'.repeat(stars);
  if (!source) return `${prefix}${name}${entry.type ? `: ${entry.type}` : ''}${entry.default !== undefined ? (entry.type ? ` = ${entry.default}` : `=${entry.default}`) : ''}`;
  const written = source.text.replace(/^\*{0,2}/, '');
  const match = /^([\p{XID_Start}_][\p{XID_Continue}]*)(\s*:\s*)?/u.exec(written)!;
  let rest = written.slice(match[0].length);
  let annotation = match[2] ? rest : '';
  let defaultPart = '';
  const eq = topLevelEquals(match[2] ? rest : written.slice(match[1]!.length));
  if (match[2]) {
    if (eq >= 0) {
      annotation = rest.slice(0, eq).trimEnd();
      defaultPart = rest.slice(eq);
    }
  } else {
    rest = written.slice(match[1]!.length);
    defaultPart = eq >= 0 ? rest : '';
  }
  const type = entry.type ?? (annotation ? annotation : undefined);
  let text = `${prefix}${name}${type !== undefined ? `${match[2] ?? ': '}${type}` : ''}`;
  if (entry.default !== undefined) text += type !== undefined ? ` = ${entry.default}` : `=${entry.default}`;
  else if (defaultPart) text += type !== undefined && !/^\s/.test(defaultPart) ? ` ${defaultPart.replace(/^=\s*/, '= ')}` : defaultPart;
  return text;
}

/** Index of the `=` that starts a default in `rest` (not inside brackets or strings), or -1. */
function topLevelEquals(rest: string): number {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === '=' && depth === 0) return i;
  }
  return -1;
}
