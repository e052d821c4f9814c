// change-signature's new parameter list for TypeScript/JavaScript: each entry of new_params checked against the function's parameters and resolved to the one it keeps (by from, else by name) or the one it adds.
import type * as TS from 'typescript';
import { TugError } from '../core/errors.js';
import { assertTsName } from './identifiers.js';
import type { NewParamInput } from '../ops/change-signature/schema.js';

/** A parameter of the function as written, `this` left out. */
export interface OldParam {
  /** The name, or a destructuring pattern's text without spaces. */
  key: string;
  rest: boolean;
  optional: boolean;
  property: boolean;
}

export interface ResolvedParam {
  entry: NewParamInput;
  name: string;
  /** Index into the old parameters, or -1 for a new one. */
  index: number;
  rest: boolean;
  /** Callers may leave it out: a default, `?`, or an old optional parameter kept as it was. */
  optional: boolean;
}

function invalid(message: string, reason: string): TugError {
  return new TugError('InvalidArgument', `new_params: ${message}`, { details: { argument: 'new_params', reason } });
}

export function oldParams(ts: typeof TS, fn: TS.SignatureDeclaration): { params: OldParam[]; list: TS.ParameterDeclaration[] } {
  const list = fn.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this'));
  const params = list.map((p) => ({
    key: ts.isIdentifier(p.name) ? p.name.text : p.name.getText().replace(/\s+/g, ''),
    rest: p.dotDotDotToken !== undefined,
    optional: p.questionToken !== undefined || p.initializer !== undefined,
    property: ts.isParameterPropertyDeclaration(p, p.parent),
  }));
  return { params, list };
}

export function resolveParams(ts: typeof TS, input: readonly NewParamInput[], old: readonly OldParam[], javascript: boolean): ResolvedParam[] {
  const seen = new Set<string>();
  const used = new Set<number>();
  const resolved = input.map((entry, position) => {
    if (entry.name === '/' || entry.name === '*' || entry.name.startsWith('**') || (entry.name.startsWith('*') && !entry.name.startsWith('...'))) {
      throw invalid(`"${entry.name}" is a Python marker; TypeScript/JavaScript parameters are positional (a rest parameter is "...name")`, 'python marker');
    }
    const rest = entry.name.startsWith('...');
    const written = rest ? entry.name.slice(3) : entry.name;
    const fromKey = (entry.from ?? written).replace(/\s+/g, '');
    const index = old.findIndex((p) => p.key === fromKey);
    if (!/^[[{]/.test(written)) {
      try {
        assertTsName(ts, written, 'x');
      } catch (error) {
        throw invalid(`"${entry.name}" is not a parameter name${error instanceof TugError ? ` (${String(error.details?.['reason'] ?? '')})` : ''}`, 'invalid name');
      }
    } else if (index < 0 || written.replace(/\s+/g, '') !== old[index]!.key) {
      throw invalid(`the destructuring pattern ${written} is not a parameter of the function`, 'unknown from');
    }
    if (seen.has(written)) throw invalid(`${written} appears more than once`, 'duplicate name');
    seen.add(written);
    if (entry.from !== undefined && index < 0) throw invalid(`from: ${entry.from} is not a parameter of the function (it has ${old.map((p) => p.key).join(', ') || 'none'})`, 'unknown from');
    if (index >= 0 && used.has(index)) throw invalid(`${old[index]!.key} is used by more than one new parameter`, 'duplicate from');
    if (index >= 0) used.add(index);
    const source = index >= 0 ? old[index]! : null;
    if (source && source.rest !== rest) throw invalid(source.rest ? `${source.key} is a rest parameter; write it as "...${written}"` : `only a rest parameter takes "...": ${source.key} is not one`, 'rest kind');
    if (!source && rest) throw invalid(`a new rest parameter ${entry.name} cannot be filled at the calls; add it with a name and a value instead`, 'new rest parameter');
    if (rest && position !== input.length - 1) throw invalid(`the rest parameter ${entry.name} must be last`, 'rest not last');
    if (rest && (entry.default !== undefined || entry.value !== undefined)) throw invalid(`the rest parameter ${entry.name} takes no default or value`, 'rest fields');
    if (source?.property && (written !== source.key || entry.type !== undefined || entry.default !== undefined)) {
      throw invalid(`${source.key} is a constructor parameter property (it declares a member); rename it with rename-symbol, and change its type or default by hand`, 'parameter property');
    }
    if (javascript && entry.type !== undefined) throw invalid(`${written}: types apply to TypeScript files; the function is in a JavaScript file`, 'type in JavaScript');
    if (!source && entry.default === undefined && entry.value === undefined) throw invalid(`${written} is new and has neither a default nor a value for the call sites`, 'new parameter without default or value');
    const optional = !rest && (entry.default !== undefined || (source?.optional === true));
    return { entry, name: written, index, rest, optional };
  });
  const removed = old.filter((p, i) => !used.has(i) && p.property);
  if (removed.length > 0) throw invalid(`${removed[0]!.key} is a constructor parameter property (it declares a member); it cannot be removed here`, 'parameter property');
  return resolved;
}
