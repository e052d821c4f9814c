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
interface CallSite { kind: 'call' | 'partial'; bound: boolean; args: CallArg[]; inner: [number, number]; after_first?: number; offset: number; line: number; col: number }
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
  if (!entity || (entity.kind !== 'module-attr' && entity.kind !== 'class-member')) throw notFunction();
  const name = nameOf(entity);
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
  const { params, removed } = resolveNewParams(newParams, old);
  const edits: EditRequest[] = [];
  const text = (file: string, span: [number, number]) => new TextDecoder().decode(bytesOf.get(file)!.subarray(span[0], span[1]));
  for (const d of defs) {
    const self = own(d.site) === d.site.params ? [] : [d.site.params[0]!.text];
    const inner = text(d.file, d.site.inner);
    const list = [...self, ...definitionList(params)];
    const replacement = layout(inner, list);
    if (replacement !== inner) edits.push({ file: d.file, span: { start: d.site.inner[0], end: d.site.inner[1] }, old_text: inner, new_text: replacement });
    edits.push(...bodyEdits(loaded, d.file, d.site, params, removed, warnings));
  }
  let calls = 0;
  for (const [file, list] of sites) {
    for (const site of list) {
      if (site.kind !== 'call' && site.kind !== 'partial') continue;
      const location = { file, line: site.line, col: site.col };
      const outcome = rewriteCall(site.args, old, params, removed, { partial: site.kind === 'partial', force });
      if (outcome.kind === 'refuse') {
        throw new TugError('UnsafeRefactor', `the call at ${file}:${site.line}:${site.col} passes ${outcome.text} for ${outcome.param}, which new_params removes; dropping it could drop an effect (pass force to drop it anyway)`, {
          details: { reason: 'removed argument has effects', param: outcome.param, line: site.line, col: site.col },
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
      if (replacement !== before) edits.push({ file, span: { start: span[0], end: span[1] }, old_text: before, new_text: replacement });
    }
  }
  const unsure = unsureJSON(findUnsure(resolver, entity, name, occurrences), bytesOf, false);
  if (unsure.length > 0) warnings.push({ code: 'UnsureCallSites', message: `${unsure.length} place(s) may call ${name} through a receiver tug cannot type; they were left as they are (see unsure)` });
  return { edits, warnings, unsure, name, calls };
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

/** The definition's parameter texts with the `/` and `*` markers the kinds need. */
function definitionList(params: readonly NewParam[]): string[] {
  const out: string[] = [];
  let star = false;
  params.forEach((p, i) => {
    if (p.kind !== 'posonly' && i > 0 && params[i - 1]!.kind === 'posonly') out.push('/');
    if (p.kind === 'vararg') star = true;
    if (p.kind === 'kwonly' && !star) {
      out.push('*');
      star = true;
    }
    out.push(p.text);
  });
  if (params.length > 0 && params[params.length - 1]!.kind === 'posonly') out.push('/');
  return out;
}

/** Joins texts the way `written` is laid out: one line with `, `, or one item a line with its indentation and trailing comma. */
function layout(written: string, items: readonly string[]): string {
  if (!written.includes('\n')) return items.join(', ');
  const lead = /^\s*/.exec(written)![0];
  const indent = /\n([ \t]*)\S/.exec(written)?.[1] ?? '    ';
  const trail = /,?\s*$/.exec(written)![0];
  const closing = trail.includes('\n') ? trail.slice(trail.lastIndexOf('\n')) : '';
  const comma = trail.trimStart().startsWith(',') || closing ? ',' : '';
  return `${lead}${items.join(`,\n${indent}`)}${items.length > 0 ? comma : ''}${closing}`;
}

