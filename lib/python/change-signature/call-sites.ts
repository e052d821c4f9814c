// change-signature at the call sites of one analysed text: the code of a file, or the examples of a docs file or
// docstring read as one text; the same checks and rewrites for both, with the edits written back where the text came from.
import { TugError } from '../../core/errors.js';
import type { EditRequest } from '../../core/patchset.js';
import type { UnsureJSON } from '../unsure.js';
import type { WarningJSON } from '../../core/schemas.js';
import type { FileInfo } from '../project.js';
import type { Resolver } from '../references.js';
import { rewriteCall, type CallArg } from './calls.js';
import type { NewParam, OldParam } from './params.js';

export interface DefSite { kind: 'def'; name: string; params: OldParam[]; inner: [number, number]; decorators: string[]; offset: number; line: number; col: number }
export interface CallSite { kind: 'call' | 'partial'; bound: boolean; args: CallArg[]; inner: [number, number]; span: [number, number]; after_first?: number; offset: number; line: number; col: number }
/** What the worker's `signature_sites` sees at each occurrence of the function. */
export type Site = DefSite | CallSite | { kind: 'other'; offset: number; passed?: boolean };

type Location = { file: string; line: number; col: number };

/** One analysed text: its facts, and the way from its offsets back to the file the user has. */
export interface SiteText {
  info: FileInfo | undefined;
  resolver: Resolver;
  /** The analysed text's bytes (the sites' offsets and spans count in them). */
  bytes: Uint8Array;
  /** What kind of occurrence of the function the analysis found at an offset. */
  kindAt(offset: number): string | undefined;
  /** Where an offset is in the user's file, for messages. */
  place(offset: number): Location;
  /** The edit of the user's file that writes `text` over `span`; null when that span cannot be written back as it reads. */
  edit(span: [number, number], text: string): EditRequest | null;
}

/** The new signature, and what a call needs to know about the function. */
export interface SignatureChange {
  name: string;
  old: readonly OldParam[];
  params: readonly NewParam[];
  removed: readonly OldParam[];
  force: boolean;
  /** Calls through the class pass self by hand (a method that is neither static nor a classmethod). */
  selfByHand: boolean;
}

/**
 * Whether a call written for the old signature still means the same with the new one: the old parameters in their
 * places under their names and kinds, and any new one after them with a default. Calls through a value of the
 * function (`curry(f)`, `handlers = [f]`) are then still right; otherwise they are places tug cannot rewrite.
 */
export function callCompatible(change: SignatureChange): boolean {
  if (change.removed.length > 0) return false;
  return change.params.every((p, i) => {
    const before = change.old[i];
    // A caller never names *args or **kwargs: renaming them keeps every call valid.
    if (before) return p.old === before && (p.name === before.name || p.kind === 'vararg' || p.kind === 'kwarg') && p.kind === before.kind;
    return p.hasDefault || p.kind === 'vararg' || p.kind === 'kwarg';
  });
}

/** The argument lists' edits of one text, with their warnings; refusals are thrown as in the rest of the plan. */
export function rewriteSites(source: SiteText, sites: readonly Site[], change: SignatureChange): { edits: EditRequest[]; warnings: WarningJSON[]; calls: number; unsure: UnsureJSON[] } {
  const { name, old, params, removed, force } = change;
  const edits: EditRequest[] = [];
  const warnings: WarningJSON[] = [];
  const unsure: UnsureJSON[] = [];
  const compatible = callCompatible(change);
  let calls = 0;
  for (const site of sites) {
    const location = source.place(site.offset);
    const where = `${location.file}:${location.line}:${location.col}`;
    if (site.kind === 'other' && ['reference', 'attribute'].includes(source.kindAt(site.offset) ?? '')) {
      warnings.push({ code: 'ReferenceNotCall', message: `${name} is used without being called at ${where}; calls made through that value are not rewritten`, location });
      // With a signature old calls no longer fit, each such value is a place that calls it the old way.
      if (!compatible) unsure.push({ ...location, text: name, reason: 'value_use', renamed: false });
    }
    if (site.kind !== 'call' && site.kind !== 'partial') continue;
    // `Cls.method(obj, …)`: obj fills self, and the arguments after it are those of a bound call.
    let args = site.args;
    const lead: string[] = [];
    if (site.kind === 'call' && change.selfByHand && throughClass(source, site)) {
      const self = site.args[0];
      if (self?.kind !== 'pos') {
        warnings.push({ code: 'CallNotRewritten', message: `the call of ${name} at ${where} goes through the class without self written first; tug left it as it is`, location });
        if (!compatible) unsure.push({ ...location, text: `${name}(*…)`, reason: 'kwargs', renamed: false });
        continue;
      }
      args = site.args.slice(1);
      lead.push(self.text);
    }
    const outcome = rewriteCall(args, old, params, removed, { partial: site.kind === 'partial', force });
    if (outcome.kind === 'refuse') {
      throw new TugError('UnsafeRefactor', `the call at ${where} passes ${outcome.text} for ${outcome.param}, which new_params removes; dropping it could drop an effect (pass force to drop it anyway)`, {
        details: { reason: 'removed argument has effects', param: outcome.param, line: location.line, col: location.col },
        location,
      });
    }
    if (outcome.kind === 'reorder') {
      throw new TugError('UnsafeRefactor', `the call at ${where} would evaluate ${outcome.text} in the other order; pass force to reorder them anyway`, {
        details: { reason: 'evaluation order', line: location.line, col: location.col },
        location,
      });
    }
    if (outcome.kind === 'skip') {
      const why = outcome.reason === 'unpacking' ? 'passes *args or **kwargs through' : 'does not match the old signature';
      warnings.push({ code: 'CallNotRewritten', message: `the call of ${name} at ${where} ${why}; tug left it as it is`, location });
      // A call whose *args/**kwargs may fill what moved is a place the result may still call the old way.
      if (outcome.reason === 'unpacking' && !compatible) unsure.push({ ...location, text: `${name}(*…)`, reason: 'kwargs', renamed: false });
      continue;
    }
    const span: [number, number] = site.args.length > 0 ? [site.args[0]!.span[0], site.args[site.args.length - 1]!.span[1]] : site.kind === 'partial' ? [site.after_first!, site.after_first!] : [site.inner[0], site.inner[0]];
    const before = new TextDecoder().decode(source.bytes.subarray(span[0], span[1]));
    const joined = site.args.length > 0 ? layout(before, [...lead, ...outcome.args]) : outcome.args.join(', ');
    const replacement = site.args.length === 0 && site.kind === 'partial' && joined ? `, ${joined}` : joined;
    const edit = replacement === before ? null : source.edit(span, replacement);
    if (replacement !== before && !edit) {
      warnings.push({ code: 'CallNotRewritten', message: `the call of ${name} at ${where} spans lines tug cannot write back as one call; tug left it as it is`, location });
      // Left the old way while old calls no longer fit: a place the result calls wrongly unless a person fixes it.
      if (!compatible) unsure.push({ ...location, text: `${name}(…)`, reason: 'kwargs', renamed: false });
      continue;
    }
    calls++;
    if (site.kind === 'partial') warnings.push({ code: 'PartialRewritten', message: `functools.partial(${name}, …) at ${where} was rewritten; calls of the partial object itself are not`, location });
    if (edit) {
      edits.push(edit);
      if (before.includes('#')) commentWarning(source.info, span, replacement, location, warnings);
    }
  }
  return { edits, warnings, calls, unsure };
}

/** `Cls.method(obj, …)`: the receiver is the class itself, so the arguments start with self. */
function throughClass(source: SiteText, site: CallSite): boolean {
  const { info, resolver } = source;
  const call = info?.facts.calls.find((c) => c.span[0] === site.span[0] && c.span[1] === site.span[1]);
  if (!info || !call || call.callee.k !== 'attr') return false;
  return resolver.classes.classOfEntity(resolver.project.follow(resolver.project.entityOfExpr(info, call.callee.value))) !== null;
}

/** Comments inside a rewritten parameter or argument list are not carried over: say so, never drop them silently. */
export function commentWarning(info: FileInfo | undefined, span: [number, number], replacement: string, location: Location, warnings: WarningJSON[]): void {
  const comments = info?.facts.comments.filter((c) => c.span[0] >= span[0] && c.span[1] <= span[1] && !replacement.includes(c.text)) ?? [];
  if (comments.length === 0) return;
  warnings.push({ code: 'CommentDropped', message: `${comments.length} comment(s) inside the list at ${location.file}:${location.line}:${location.col} were dropped by the rewrite (${comments[0]!.text})`, location });
}

/** Joins texts the way `written` is laid out: one line with `, `, or one item a line with its indentation and trailing comma (and its own comment). */
export function layout(written: string, items: readonly string[], comments: ReadonlyArray<string | undefined> = []): string {
  if (!written.includes('\n')) return items.join(', ');
  const lead = /^\s*/.exec(written)![0];
  const indent = /\n([ \t]*)\S/.exec(written)?.[1] ?? '    ';
  const trail = /,?\s*$/.exec(written)![0];
  const closing = trail.includes('\n') ? trail.slice(trail.lastIndexOf('\n')) : '';
  const comma = trail.trimStart().startsWith(',') || closing ? ',' : '';
  const lines = items.map((t, i) => `${t}${i < items.length - 1 ? ',' : comma}${comments[i] ? `  ${comments[i]}` : ''}`);
  return `${lead}${lines.join(`\n${indent}`)}${closing}`;
}
