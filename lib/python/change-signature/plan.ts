// Python change-signature on a loaded project: the function under the cursor (with its overrides and bases), every
// resolved call of it, and byte-span edits for the definitions and the argument lists.
import { TugError } from '../../core/errors.js';
import type { EditRequest } from '../../core/patchset.js';
import type { WarningJSON } from '../../core/schemas.js';
import { lineStarts, offsetOf, positionOf } from '../../core/text.js';
import type { LoadedProject, PythonSession } from '../load-project.js';
import { askPython } from '../load-project.js';
import { nameOf } from '../references.js';
import { findUnsure, unsureJSON, type UnsureJSON } from '../unsure.js';
import { unparsableError } from '../parse-errors.js';
import { rewriteCall, type CallArg } from './calls.js';
import { resolveNewParams, type NewParam, type NewParamInput, type OldParam } from './params.js';

/** Decorators that keep the function's own signature for its callers. */
const KEEPS_SIGNATURE = new Set(['staticmethod', 'classmethod', 'abstractmethod', 'abc.abstractmethod', 'override', 'typing.override', 'typing_extensions.override', 'functools.cache', 'functools.lru_cache', 'cache', 'lru_cache', 'functools.wraps']);

interface DefSite { kind: 'def'; name: string; params: OldParam[]; inner: [number, number]; decorators: string[]; offset: number; line: number; col: number }
interface CallSite { kind: 'call' | 'partial'; bound: boolean; args: CallArg[]; inner: [number, number]; span: [number, number]; after_first?: number; offset: number; line: number; col: number }
type Site = DefSite | CallSite | { kind: 'other'; offset: number };

export interface SignaturePlan {
  edits: EditRequest[];
  warnings: WarningJSON[];
  unsure: UnsureJSON[];
  name: string;
  calls: number;
}

export async function planSignatureOn(
  loaded: LoadedProject,
  ask: { session: PythonSession; python: string | undefined },
  at: { file: string; line: number; col: number },
  newParams: readonly NewParamInput[],
  force: boolean,
): Promise<SignaturePlan> {
  const { project, resolver, bytesOf } = loaded;
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
  if (/^__\w+__$/.test(name)) {
    throw new TugError('UnsupportedOperation', `${name} is called implicitly by Python (a class call, an operator, a protocol), so tug cannot find its call sites`, { details: { operation: 'change-signature', reason: 'special method' }, location: at });
  }
  const occurrences = resolver.occurrences(entity);
  const byFile = new Map<string, number[]>();
  for (const o of occurrences) byFile.set(o.file, [...(byFile.get(o.file) ?? []), o.span[0]]);
  const sites = new Map<string, Site[]>();
  for (const [file, offsets] of [...byFile].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const content = new TextDecoder().decode(bytesOf.get(file)!);
    const answer = await askPython<{ sites: Site[] }>(ask.session, ask.python, 'signature_sites', { content, offsets });
    sites.set(file, answer.sites);
  }
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
  for (const d of defs) {
    const replacing = d.site.decorators.filter((x) => !KEEPS_SIGNATURE.has(x));
    if (replacing.length === 0) continue;
    const message = `${name} at ${d.file}:${d.site.line} is decorated with ${replacing.map((x) => `@${x}`).join(', ')}, which may give its callers another signature`;
    if (!force) throw new TugError('UnsafeRefactor', `${message}; pass force to change it anyway`, { details: { reason: 'decorated', decorators: replacing, line: d.site.line, col: d.site.col }, location: { file: d.file, line: d.site.line, col: d.site.col } });
    warnings.push({ code: 'DecoratedSignature', message, location: { file: d.file, line: d.site.line, col: d.site.col } });
  }
  // A method's receiver is kept first and left out of the list; written there anyway, as in the def, it means itself.
  const receiver = own(main.site) === main.site.params ? undefined : main.site.params[0]!.name;
  const first = newParams[0];
  const given = receiver !== undefined && first && first.name === receiver && Object.entries(first).every(([key, value]) => key === 'name' || value === undefined) ? newParams.slice(1) : newParams;
  const { params, removed } = resolveNewParams(given, old);
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
      if (inner.includes('#')) commentWarning(loaded, d.file, d.site.inner, replacement, { file: d.file, line: d.site.line, col: d.site.col }, warnings);
    }
    edits.push(...bodyEdits(loaded, d.file, d.site, params, removed, warnings));
  }
  let calls = 0;
  for (const [file, list] of sites) {
    for (const site of list) {
      if (site.kind === 'other' && ['reference', 'attribute'].includes(kindAt.get(`${file}:${site.offset}`) ?? '')) {
        const { line, col } = positionOf(lineStarts(bytesOf.get(file)!), site.offset);
        warnings.push({ code: 'ReferenceNotCall', message: `${name} is used without being called at ${file}:${line}:${col}; calls made through that value are not rewritten`, location: { file, line, col } });
      }
      if (site.kind !== 'call' && site.kind !== 'partial') continue;
      const location = { file, line: site.line, col: site.col };
      if (site.kind === 'call' && method && own(main.site) !== main.site.params && !main.site.decorators.includes('classmethod') && throughClass(loaded, file, site)) {
        warnings.push({ code: 'CallNotRewritten', message: `the call of ${name} at ${file}:${site.line}:${site.col} goes through the class (self passed by hand); tug left it as it is`, location });
        continue;
      }
      const outcome = rewriteCall(site.args, old, params, removed, { partial: site.kind === 'partial', force });
      if (outcome.kind === 'refuse') {
        throw new TugError('UnsafeRefactor', `the call at ${file}:${site.line}:${site.col} passes ${outcome.text} for ${outcome.param}, which new_params removes; dropping it could drop an effect (pass force to drop it anyway)`, {
          details: { reason: 'removed argument has effects', param: outcome.param, line: site.line, col: site.col },
          location,
        });
      }
      if (outcome.kind === 'reorder') {
        throw new TugError('UnsafeRefactor', `the call at ${file}:${site.line}:${site.col} would evaluate ${outcome.text} in the other order; pass force to reorder them anyway`, {
          details: { reason: 'evaluation order', line: site.line, col: site.col },
          location,
        });
      }
      if (outcome.kind === 'skip') {
        const why = outcome.reason === 'unpacking' ? 'passes *args or **kwargs through' : 'does not match the old signature';
        warnings.push({ code: 'CallNotRewritten', message: `the call of ${name} at ${file}:${site.line}:${site.col} ${why}; tug left it as it is`, location });
        continue;
      }
      calls++;
      if (site.kind === 'partial') warnings.push({ code: 'PartialRewritten', message: `functools.partial(${name}, …) at ${file}:${site.line}:${site.col} was rewritten; calls of the partial object itself are not`, location });
      const span: [number, number] = site.args.length > 0 ? [site.args[0]!.span[0], site.args[site.args.length - 1]!.span[1]] : site.kind === 'partial' ? [site.after_first!, site.after_first!] : [site.inner[0], site.inner[0]];
      const before = text(file, span);
      const joined = site.args.length > 0 ? layout(before, outcome.args) : outcome.args.join(', ');
      const replacement = site.args.length === 0 && site.kind === 'partial' && joined ? `, ${joined}` : joined;
      if (replacement !== before) {
        edits.push({ file, span: { start: span[0], end: span[1] }, old_text: before, new_text: replacement });
        if (before.includes('#')) commentWarning(loaded, file, span, replacement, location, warnings);
      }
    }
  }
  const unsure = unsureJSON(findUnsure(resolver, entity, name, occurrences), bytesOf, false);
  if (unsure.length > 0) warnings.push({ code: 'UnsureCallSites', message: `${unsure.length} place(s) may call ${name} through a receiver tug cannot type; they were left as they are (see unsure)` });
  return { edits, warnings, unsure, name, calls };
}

/** `Cls.method(obj, …)`: the receiver is the class itself, so the arguments start with self. */
function throughClass(loaded: LoadedProject, file: string, site: CallSite): boolean {
  const info = loaded.project.files.get(file);
  const call = info?.facts.calls.find((c) => c.span[0] === site.span[0] && c.span[1] === site.span[1]);
  if (!info || !call || call.callee.k !== 'attr') return false;
  return loaded.resolver.classes.classOfEntity(loaded.project.follow(loaded.project.entityOfExpr(info, call.callee.value))) !== null;
}

/** Comments inside a rewritten parameter or argument list are not carried over: say so, never drop them silently. */
function commentWarning(loaded: LoadedProject, file: string, span: [number, number], replacement: string, location: { file: string; line: number; col: number }, warnings: WarningJSON[]): void {
  const comments = loaded.project.files.get(file)?.facts.comments.filter((c) => c.span[0] >= span[0] && c.span[1] <= span[1] && !replacement.includes(c.text)) ?? [];
  if (comments.length === 0) return;
  warnings.push({ code: 'CommentDropped', message: `${comments.length} comment(s) inside the list at ${location.file}:${location.line}:${location.col} were dropped by the rewrite (${comments[0]!.text})`, location });
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

/** Joins texts the way `written` is laid out: one line with `, `, or one item a line with its indentation and trailing comma (and its own comment). */
function layout(written: string, items: readonly string[], comments: ReadonlyArray<string | undefined> = []): string {
  if (!written.includes('\n')) return items.join(', ');
  const lead = /^\s*/.exec(written)![0];
  const indent = /\n([ \t]*)\S/.exec(written)?.[1] ?? '    ';
  const trail = /,?\s*$/.exec(written)![0];
  const closing = trail.includes('\n') ? trail.slice(trail.lastIndexOf('\n')) : '';
  const comma = trail.trimStart().startsWith(',') || closing ? ',' : '';
  const lines = items.map((t, i) => `${t}${i < items.length - 1 ? ',' : comma}${comments[i] ? `  ${comments[i]}` : ''}`);
  return `${lead}${lines.join(`\n${indent}`)}${closing}`;
}
