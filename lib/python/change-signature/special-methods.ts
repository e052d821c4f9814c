// change-signature of a special method other than `__init__` (`__eq__`, `__getitem__`, `__repr__`, `__call__`, …):
// Python calls it itself, from operators and protocols, at places no edit can reach. The change is allowed when
// those calls still fit it; the calls tug can see (`self.__eq__(x)`, `super().__repr__()`) are rewritten as usual.
import { TugError } from '../../core/errors.js';
import type { NewParamInput } from '../../ops/change-signature/schema.js';
import type { NewParam, OldParam } from './params.js';

/**
 * Special methods whose implicit callers may pass keywords or any number of arguments (`obj(…)`, a class call, class
 * keywords): a renamed parameter could be named there. Every other special method gets its arguments by position.
 */
const ANY_ARGUMENTS = new Set(['__call__', '__new__', '__init_subclass__', '__prepare__']);

/** Who calls it, for the message (the common ones; others are "an operator or a protocol"). */
const CALLERS: Record<string, string> = {
  __call__: 'every call of an instance, obj(…)',
  __new__: 'every call of the class',
  __init_subclass__: 'every class statement that subclasses it',
  __eq__: 'the == operator',
  __ne__: 'the != operator',
  __lt__: 'the < operator and sorting',
  __le__: 'the <= operator',
  __gt__: 'the > operator',
  __ge__: 'the >= operator',
  __hash__: 'hash() and every dict or set',
  __getitem__: 'subscripts, obj[key]',
  __setitem__: 'item assignments, obj[key] = value',
  __delitem__: 'del obj[key]',
  __missing__: "dict's obj[key] for a missing key",
  __contains__: 'the in operator',
  __len__: 'len() and truth tests',
  __iter__: 'for loops and iter()',
  __next__: 'for loops and next()',
  __enter__: 'with statements',
  __exit__: 'with statements',
  __repr__: 'repr(), %r and !r',
  __str__: 'str(), print() and formatting',
  __format__: 'format() and f-strings',
  __bool__: 'truth tests',
  __getattr__: 'attribute lookups that fail',
  __getattribute__: 'every attribute lookup',
  __setattr__: 'every attribute assignment',
  __delattr__: 'del obj.attr',
  __get__: 'attribute lookups through the descriptor',
  __set__: 'attribute assignments through the descriptor',
  __getstate__: 'pickle and copy',
  __setstate__: 'pickle and copy',
  __reduce__: 'pickle and copy',
  __reduce_ex__: 'pickle and copy',
  __copy__: 'copy.copy',
  __deepcopy__: 'copy.deepcopy',
};

/**
 * Refuses a change the implicit calls would no longer fit. They pass the old parameters by position (or, for the
 * ANY_ARGUMENTS ones, as a caller chooses), so each old parameter must stay in its place with its kind and its
 * default, renamed only where no implicit call can name it, and a new one may only follow them with a default.
 */
export function checkImplicitCalls(name: string, old: readonly OldParam[], params: readonly NewParam[], removed: readonly OldParam[], given: readonly NewParamInput[], at: { file: string; line: number; col: number }): void {
  const problem = implicitProblem(name, old, params, removed, given);
  if (!problem) return;
  const callers = CALLERS[name] ?? 'an operator or a protocol';
  const keeps = ANY_ARGUMENTS.has(name) ? 'only new parameters with a default after the old ones' : 'only renamed parameters and new ones with a default after the old ones';
  throw new TugError('UnsupportedOperation', `${name} is called by Python itself (${callers}), with the old arguments, where tug cannot edit the calls: ${problem}; ${keeps} keep those calls right`, {
    details: { operation: 'change-signature', reason: 'special method' },
    location: at,
  });
}

function implicitProblem(name: string, old: readonly OldParam[], params: readonly NewParam[], removed: readonly OldParam[], given: readonly NewParamInput[]): string | null {
  if (removed.length > 0) return `it removes ${removed.map((p) => p.name).join(', ')}`;
  // The entries that are parameters, in the order resolveNewParams made `params` from them.
  const entries = given.filter((e) => e.name !== '/' && e.name !== '*');
  for (let i = 0; i < params.length; i++) {
    const p = params[i]!;
    const before = old[i];
    if (!before) {
      if (!p.hasDefault && p.kind !== 'vararg' && p.kind !== 'kwarg') return `the new parameter ${p.name} has no default`;
      if (p.old) return `it moves ${p.old.name}`;
      continue;
    }
    if (p.old !== before) return p.old ? `it moves ${p.old.name}` : `it puts the new parameter ${p.name} where ${before.name} was`;
    const positional = (k: string) => k === 'normal' || k === 'posonly';
    if (p.kind !== before.kind && !(positional(before.kind) && positional(p.kind) && !ANY_ARGUMENTS.has(name))) return `it makes ${before.name} ${p.kind === 'kwonly' ? 'keyword-only' : p.kind}`;
    if (p.name !== before.name && ANY_ARGUMENTS.has(name) && p.kind !== 'vararg' && p.kind !== 'kwarg') return `it renames ${before.name}, which those calls may pass by name`;
    if (before.has_default && (!p.hasDefault || entries[i]?.default !== undefined)) return `it changes the default of ${before.name}`;
  }
  return null;
}

/** Hooks by which pickle and copy rebuild an instance: they hand the class its constructor's arguments themselves. */
export const PICKLE_HOOKS = ['__reduce__', '__reduce_ex__', '__getnewargs__', '__getnewargs_ex__'] as const;

/**
 * Refuses a change of `__init__`/`__new__` that the class's pickle hook would no longer fit. `__reduce__` returns
 * `(self.__class__, (self.msg, self.doc, …))`: a call of the class by position that no edit can reach (simplejson's
 * JSONDecodeError, the sweep), so only the changes that keep positional calls right pass, as for a special method.
 */
export function checkPickledConstructor(hook: { name: string; owner: string }, old: readonly OldParam[], params: readonly NewParam[], removed: readonly OldParam[], given: readonly NewParamInput[], at: { file: string; line: number; col: number }): void {
  // __getnewargs_ex__ also passes keywords, as the class's callers may: like __new__, renames are not safe there.
  const problem = implicitProblem(hook.name === '__getnewargs_ex__' ? '__new__' : hook.name, old, params, removed, given);
  if (!problem) return;
  throw new TugError('UnsupportedOperation', `${hook.owner}.${hook.name} rebuilds instances for pickle and copy by calling the class with the old arguments, where tug cannot edit the call: ${problem}; only renamed parameters and new ones with a default after the old ones keep that call right`, {
    details: { operation: 'change-signature', reason: 'pickled constructor' },
    location: at,
  });
}
