// Python change-signature on a loaded project: the function under the cursor (with its overrides and bases), every
// resolved call of it, and byte-span edits for the definitions and the argument lists.
import { TugError } from '../../core/errors.js';
import type { EditRequest } from '../../core/patchset.js';
import type { WarningJSON } from '../../core/schemas.js';
import { lineStarts, offsetOf, positionOf } from '../../core/text.js';
import type { LoadedProject, PythonSession } from '../load-project.js';
import { askPython } from '../load-project.js';
import type { Entity } from '../project.js';
import { nameOf } from '../references.js';
import { findUnsure, unsureJSON, type UnsureJSON } from '../unsure.js';
import { unparsableError } from '../parse-errors.js';
import { workerRefusal, type Refusal } from '../local-refactor.js';
import { classReferences, constructorCalls, instanceClassCalls, unsureCall } from './constructors.js';
import { callCompatible, commentWarning, layout, rewriteSites, type DefSite, type Site, type SignatureChange, type SiteText } from './call-sites.js';
import { checkImplicitCalls, checkPickledConstructor, PICKLE_HOOKS } from './special-methods.js';
import { refusePatchedFunction } from './patched.js';
import { refuseLibraryMethod } from './library-method.js';
import { checkParamTexts, paramTexts, resolveNewParams, type NewParam, type NewParamInput, type OldParam } from './params.js';

/** Decorators that keep the function's own signature for its callers. */
const KEEPS_SIGNATURE = new Set(['staticmethod', 'classmethod', 'abstractmethod', 'abc.abstractmethod', 'override', 'typing.override', 'typing_extensions.override', 'functools.cache', 'functools.lru_cache', 'cache', 'lru_cache', 'functools.wraps']);

/** The plan on the code; examples.ts adds the docs' examples and says how many places are unsure. */
export interface SignaturePlan {
  edits: EditRequest[];
  warnings: WarningJSON[];
  unsure: UnsureJSON[];
  name: string;
  calls: number;
  /** The function, and its new signature: what the examples' calls are rewritten with. */
  entity: Entity;
  change: SignatureChange;
}

export async function planSignatureOn(
  loaded: LoadedProject,
  ask: { session: PythonSession; python: string | undefined; target?: string | undefined },
  at: { file: string; line: number; col: number },
  newParams: readonly NewParamInput[],
  force: boolean,
): Promise<SignaturePlan> {
  const { project, resolver, bytesOf } = loaded;
  const texts = paramTexts(newParams);
  if (texts.length > 0) checkParamTexts(texts, (await askPython<{ problems: (string | null)[] }>(ask.session, ask.python, 'signature_texts', { texts })).problems);
  const where = `${at.file}:${at.line}:${at.col}`;
  const bytes = bytesOf.get(at.file);
  if (!bytes) throw new TugError('FileNotFound', `${at.file} is not a Python file in the workspace`, { details: { path: at.file } });
  const broken = loaded.unparsable.get(at.file);
  if (broken) throw unparsableError([broken], `${at.file} does not parse`);
  const offset = offsetOf(bytes, lineStarts(bytes), at.line, at.col);
  if (offset === null) throw new TugError('InvalidPosition', `${where} is outside the file`, { details: { location: where }, location: at });
  const info = project.files.get(at.file);
  const entity = info ? resolver.entityAt(info, offset) : null;
  const notFunction = () => new TugError('SymbolNotFound', `${where} is not on a function or method (its definition or a reference to it)`, { details: { location: where, reason: 'not a function' }, location: at });
  if (!entity || (entity.kind !== 'module-attr' && entity.kind !== 'class-member' && entity.kind !== 'local')) throw notFunction();
  const name = nameOf(entity);
  const constructor = name === '__init__' && entity.kind === 'class-member';
  // Other special methods are also called by Python itself: checked once the new list is known (special-methods.ts).
  const special = /^__\w+__$/.test(name) && !constructor;
  const occurrences = resolver.occurrences(entity);
  // `__init__` runs for each call of its classes: those calls are rewritten too (class names used otherwise are not).
  const classCalls = new Set<string>();
  for (const o of constructor ? constructorCalls(resolver, entity) : []) {
    classCalls.add(`${o.file}:${o.span[0]}`);
    occurrences.push(o);
  }
  const instanceCalls = constructor ? instanceClassCalls(resolver, entity) : [];
  for (const o of instanceCalls) occurrences.push(o);
  // A class passed to a call (`assert_raises(E, Cls, "x")`) is called there: a value use, like a function's.
  const classRefs = new Map<string, string>();
  for (const o of constructor ? classReferences(resolver, entity) : []) {
    classRefs.set(`${o.file}:${o.span[0]}`, new TextDecoder().decode(bytesOf.get(o.file)!.subarray(o.span[0], o.span[1])));
    occurrences.push(o);
  }
  const byFile = new Map<string, number[]>();
  for (const o of occurrences) if (!byFile.get(o.file)?.includes(o.span[0])) byFile.set(o.file, [...(byFile.get(o.file) ?? []), o.span[0]]);
  // Asked all at once: the worker answers in order, and no request waits for the one before it to come back.
  const files = [...byFile].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const answers = await Promise.all(
    files.map(([file, offsets]) => askPython<{ sites: Site[] }>(ask.session, ask.python, 'signature_sites', { content: new TextDecoder().decode(bytesOf.get(file)!), offsets })),
  );
  const keep = (file: string, s: Site) => (s.kind !== 'other' || !classCalls.has(`${file}:${s.offset}`)) && (!classRefs.has(`${file}:${s.offset}`) || s.kind === 'partial' || (s.kind === 'other' && s.passed === true));
  const sites = new Map<string, Site[]>(files.map(([file], i) => [file, answers[i]!.sites.filter((s) => keep(file, s))]));
  const defs = [...sites].flatMap(([file, list]) => list.filter((s): s is DefSite => s.kind === 'def').map((s) => ({ file, site: s })));
  if (defs.length === 0) throw notFunction();
  const kindAt = new Map(occurrences.map((o) => [`${o.file}:${o.span[0]}`, o.kind]));
  // `f = other.f` or `f = lambda …` beside the def (`try: … except ImportError: def f`): that value keeps its signature.
  for (const [file, list] of sites) {
    const other = list.find((site) => site.kind === 'other' && kindAt.get(`${file}:${site.offset}`) === 'definition');
    if (other) {
      const { line, col } = positionOf(lineStarts(bytesOf.get(file)!), other.offset);
      throw new TugError('UnsafeRefactor', `${name} is also bound at ${file}:${line}:${col} to something other than a def, whose signature tug cannot change`, {
        details: { reason: 'other binding', line, col, path: file },
        location: { file, line, col },
      });
    }
  }
  const method = entity.kind === 'class-member';
  const own = (d: DefSite) => (method && !d.decorators.includes('staticmethod') ? d.params.slice(1) : d.params);
  const main = defs.find((d) => d.file === at.file && d.site.line === at.line) ?? defs[0]!;
  const old = own(main.site);
  const shape = (ps: OldParam[]) => ps.map((p) => `${p.kind}:${p.name}`).join(',');
  for (const d of defs) {
    if (shape(own(d.site)) !== shape(old)) {
      throw new TugError('UnsafeRefactor', `${name} is defined with different parameters at ${d.file}:${d.site.line} (${own(d.site).map((p) => p.name).join(', ')}) than at ${main.file}:${main.site.line} (${old.map((p) => p.name).join(', ')}); change them to agree first`, {
        details: { reason: 'overrides differ', line: d.site.line, col: d.site.col },
        location: { file: d.file, line: d.site.line, col: d.site.col },
      });
    }
  }
  const warnings: WarningJSON[] = [];
  // A method's receiver is kept first and left out of the list; written there anyway, as in the def, it means itself.
  const receiver = own(main.site) === main.site.params ? undefined : main.site.params[0]!.name;
  const first = newParams[0];
  const given = receiver !== undefined && first && first.name === receiver && Object.entries(first).every(([key, value]) => key === 'name' || value === undefined) ? newParams.slice(1) : newParams;
  const { params, removed } = resolveNewParams(given, old);
  // A decorator may call the function its own way. When every old call still binds as before (only parameters with a
  // default added after the others), whatever the decorator passes still fits: a warning, not a refusal.
  const compatible = callCompatible({ name, old, params, removed, force, selfByHand: false });
  for (const d of defs) {
    const replacing = d.site.decorators.filter((x) => !KEEPS_SIGNATURE.has(x));
    if (replacing.length === 0) continue;
    const message = `${name} at ${d.file}:${d.site.line} is decorated with ${replacing.map((x) => `@${x}`).join(', ')}, which may give its callers another signature`;
    if (!force && !compatible) throw new TugError('UnsafeRefactor', `${message}; pass force to change it anyway`, { details: { reason: 'decorated', decorators: replacing, line: d.site.line, col: d.site.col }, location: { file: d.file, line: d.site.line, col: d.site.col } });
    warnings.push({ code: 'DecoratedSignature', message: compatible ? `${message}; every call made the old way still fits (only parameters with a default were added), unless the decorator counts the parameters` : message, location: { file: d.file, line: d.site.line, col: d.site.col } });
  }
  if (special) checkImplicitCalls(name, old, params, removed, given, at);
  if (constructor) {
    const hook = pickleHook(resolver, entity);
    if (hook) checkPickledConstructor(hook, old, params, removed, given, at);
  }
  const edits: EditRequest[] = [];
  const text = (file: string, span: [number, number]) => new TextDecoder().decode(bytesOf.get(file)!.subarray(span[0], span[1]));
  for (const d of defs) {
    const self = own(d.site) === d.site.params ? [] : [d.site.params[0]!.text];
    const inner = text(d.file, d.site.inner);
    const list = [...self, ...definitionList(params)];
    const trailing = trailingComments(loaded, d.file, d.site);
    const notes = [...(self.length > 0 ? [trailing.get(d.site.params[0]!.name)] : []), ...definitionList(params, trailing)];
    const replacement = layout(inner, list, notes.map((n) => (typeof n === 'string' && n.startsWith('#') ? n : undefined)));
    if (replacement !== inner) {
      edits.push({ file: d.file, span: { start: d.site.inner[0], end: d.site.inner[1] }, old_text: inner, new_text: replacement });
      if (inner.includes('#')) commentWarning(project.files.get(d.file), d.site.inner, replacement, { file: d.file, line: d.site.line, col: d.site.col }, warnings);
    }
    edits.push(...bodyEdits(loaded, d.file, d.site, params, removed, warnings));
  }
  let calls = 0;
  const change: SignatureChange = { name, old, params, removed, force, selfByHand: method && own(main.site) !== main.site.params && !main.site.decorators.includes('classmethod') };
  const valueUses: UnsureJSON[] = [];
  for (const [file, list] of sites) {
    const bytes = bytesOf.get(file)!;
    const source: SiteText = {
      info: project.files.get(file),
      resolver,
      bytes,
      kindAt: (offset) => kindAt.get(`${file}:${offset}`),
      place: (offset) => ({ file, ...positionOf(lineStarts(bytes), offset) }),
      edit: (span, replacement) => ({ file, span: { start: span[0], end: span[1] }, old_text: text(file, span), new_text: replacement }),
    };
    const done = rewriteSites(source, list, change);
    edits.push(...done.edits);
    warnings.push(...done.warnings);
    valueUses.push(...done.unsure);
    calls += done.calls;
  }
  // A value of the function (`assert_raises(E, f, a, b)`, `{"k": mod.f}`) is called somewhere the old way, and no
  // edit can reach that call: with a change old calls no longer fit, the result would be wrong there, so say so first.
  for (const u of valueUses) {
    const offset = offsetOf(bytesOf.get(u.file)!, lineStarts(bytesOf.get(u.file)!), u.line, u.col);
    const cls = classRefs.get(`${u.file}:${offset}`);
    if (cls) u.text = cls;
  }
  const passed = valueUses.find((u) => u.reason === 'value_use');
  if (passed && !force) {
    const { file, line, col } = passed;
    throw new TugError('UnsafeRefactor', `${name} is passed or stored as a value at ${file}:${line}:${col} (${passed.text}); calls made through that value would keep the old arguments, which the new signature no longer fits; pass force to change it anyway (those places are then listed in unsure)`, {
      details: { reason: 'value use', path: file, line, col },
      location: { file, line, col },
    });
  }
  refusePatchedFunction(loaded, entity, change);
  await refuseLibraryMethod(loaded, ask, entity, change, at);
  await fitFStrings(loaded, ask, edits);
  // In no order: every result orders its unsure places (lib/ops/change/unsure.ts).
  const unsure = [...unsureJSON(findUnsure(resolver, entity, name, occurrences), bytesOf, false), ...valueUses];
  for (const o of instanceCalls) {
    const site = sites.get(o.file)?.find((x) => x.offset === o.span[0]);
    if (site?.kind !== 'call' && !callCompatible(change)) unsure.push(unsureCall(o.file, bytesOf.get(o.file)!, o.span[0]));
  }
  return { edits, warnings, unsure, name, calls, entity, change };
}

/** Call sites inside f-strings: the worker re-quotes their new arguments for the target Python, or refuses. */
async function fitFStrings(loaded: LoadedProject, ask: { session: PythonSession; python: string | undefined; target?: string | undefined }, edits: EditRequest[]): Promise<void> {
  const byFile = new Map<string, EditRequest[]>();
  const hasFString = new Map<string, boolean>();
  for (const e of edits) {
    if (!e.span) continue;
    // Only a file with an f-string can have a call inside one (`f"`, `rf'`, `F"""`, …).
    if (!hasFString.has(e.file)) hasFString.set(e.file, /(^|[^\w])[rR]?[fF][rR]?['"]/.test(new TextDecoder().decode(loaded.bytesOf.get(e.file)!)));
    if (hasFString.get(e.file)) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
  }
  for (const [file, list] of [...byFile].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const content = new TextDecoder('utf-8', { ignoreBOM: true }).decode(loaded.bytesOf.get(file)!);
    const request = { path: file, content, edits: list.map((e) => ({ span: [e.span!.start, e.span!.end], new_text: e.new_text })), ...(ask.target ? { target_python: ask.target } : {}) };
    const answer = await askPython<{ texts: string[] } | { refused: Refusal }>(ask.session, ask.python, 'fit_fstrings', request);
    if ('refused' in answer) throw workerRefusal(answer.refused);
    list.forEach((e, i) => (e.new_text = answer.texts[i]!));
  }
}

/** A renamed parameter's uses in the body follow it; a removed one still used there is reported. */
function bodyEdits(loaded: LoadedProject, file: string, site: DefSite, params: readonly NewParam[], removed: readonly OldParam[], warnings: WarningJSON[]): EditRequest[] {
  const info = loaded.project.files.get(file);
  if (!info) return [];
  const uses = (param: OldParam) => {
    const entity = loaded.resolver.entityAt(info, param.span[0] + (param.kind === 'vararg' ? 1 : param.kind === 'kwarg' ? 2 : 0));
    if (!entity || entity.kind !== 'local') return [];
    return loaded.resolver.occurrences(entity).filter((o) => o.file === file && o.kind !== 'keyword' && (o.span[1] <= site.inner[0] || o.span[0] >= site.inner[1]));
  };
  const out: EditRequest[] = [];
  for (const p of params) {
    if (!p.old || p.old.name === p.name) continue;
    for (const o of uses(p.old)) out.push({ file, span: { start: o.span[0], end: o.span[1] }, old_text: p.old.name, new_text: p.name });
  }
  for (const gone of removed) {
    const left = uses(gone);
    if (left.length === 0) continue;
    const { line, col } = positionOf(lineStarts(loaded.bytesOf.get(file)!), left[0]!.span[0]);
    warnings.push({ code: 'RemovedParameterUsed', message: `${gone.name} is removed from ${site.name} at ${file}:${site.line} but its body still uses it at line ${line}`, location: { file, line, col } });
  }
  return out;
}

/** The comment on the same line after each old parameter of a definition, by name. */
function trailingComments(loaded: LoadedProject, file: string, site: DefSite): Map<string, string> {
  const bytes = loaded.bytesOf.get(file)!;
  const comments = loaded.project.files.get(file)?.facts.comments.filter((c) => c.span[0] >= site.inner[0] && c.span[1] <= site.inner[1]) ?? [];
  const out = new Map<string, string>();
  for (const p of site.params) {
    const c = comments.find((c) => c.span[0] >= p.span[1] && !bytes.subarray(p.span[1], c.span[0]).includes(10));
    if (c) out.set(p.name, c.text);
  }
  return out;
}

/** The definition's parameter texts with the `/` and `*` markers the kinds need (or, given comments, each one's comment). */
function definitionList(params: readonly NewParam[], comments?: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  let star = false;
  params.forEach((p, i) => {
    if (p.kind !== 'posonly' && i > 0 && params[i - 1]!.kind === 'posonly') out.push(comments ? '' : '/');
    if (p.kind === 'vararg') star = true;
    if (p.kind === 'kwonly' && !star) {
      out.push(comments ? '' : '*');
      star = true;
    }
    out.push(comments ? (p.old ? comments.get(p.old.name) ?? '' : '') : p.text);
  });
  if (params.length > 0 && params[params.length - 1]!.kind === 'posonly') out.push(comments ? '' : '/');
  return out;
}

/** The pickle hook of the constructor's class, its own or inherited, or a subclass's that inherits the constructor. */
function pickleHook(resolver: LoadedProject['resolver'], entity: Entity): { name: string; owner: string } | null {
  if (entity.kind !== 'class-member') return null;
  const cls = { module: entity.module, owner: entity.owner };
  for (const name of PICKLE_HOOKS) {
    const defining = resolver.classes.definingClass(cls, name);
    const found = resolver.classes.defines(defining, name) ? defining : resolver.classes.subclassDefining(cls, name);
    if (found) return { name, owner: `${found.module}.${found.owner}` };
  }
  return null;
}
