// change-signature in the docs: doctest examples (docstrings, .md/.rst and collected .txt files) and Python code
// blocks call the function too, and a run that left them passing the old arguments would be silently partial.
import type { EditRequest } from '../../core/patchset.js';
import { lineStarts, positionOf } from '../../core/text.js';
import type { Repo } from '../../git/repo.js';
import { realOffset, type DoctestText } from '../doctest-text.js';
import { doctestSkipped, exampleProject, exampleUnsure } from '../doctests.js';
import { resolvePython } from '../interpreter.js';
import { askPython, type LoadedProject, type PythonSession } from '../load-project.js';
import { unsureJSON } from '../unsure.js';
import { rewriteSites, type Site, type SiteText } from './call-sites.js';
import { constructorCalls } from './constructors.js';
import type { Entity } from '../project.js';
import type { SignaturePlan } from './plan.js';

export interface ExamplesRequest {
  repo: Repo;
  tree: string;
  session: PythonSession;
  python: string | undefined;
}

/** The plan with the examples' calls rewritten (or listed as unsure, or reported as skipped) as the code's are. */
export async function completeSignature(request: ExamplesRequest, loaded: LoadedProject, plan: SignaturePlan): Promise<SignaturePlan> {
  const { session } = request;
  const { name, entity, change } = plan;
  const edits = [...plan.edits];
  const warnings = [...plan.warnings];
  let unsure = plan.unsure;
  let calls = plan.calls;
  const examples = await exampleProject({
    repo: request.repo,
    tree: request.tree,
    loaded,
    // `__init__`'s calls in examples are calls of its class, by the class's name.
    oldName: constructorOf(entity) ?? name,
    python: async () => (await resolvePython(request.python, session.dir)).path,
    factsDir: session.paths.facts,
    workersDir: session.paths.workers,
  });
  for (const file of examples.unparsed) warnings.push(doctestSkipped(file, name));
  const classCalls = examples.docs.size > 0 && constructorOf(entity) ? constructorCalls(examples.resolver, entity) : [];
  const occurrences = examples.docs.size === 0 ? [] : [...examples.resolver.occurrences(entity), ...classCalls];
  const isClassCall = new Set(classCalls.map((o) => `${o.file}:${o.span[0]}`));
  // The examples' own occurrences: not the code's files, nor the import of a docstring's globals tug puts first.
  const inExamples = occurrences.filter((o) => examples.real(o.file, o.span) !== null);
  const realBytes = (file: string) => loaded.bytesOf.get(file) ?? examples.bytes.get(file)!;
  const byText = new Map<string, number[]>();
  for (const o of inExamples) byText.set(o.file, [...(byText.get(o.file) ?? []), o.span[0]]);
  const kindAt = new Map(inExamples.map((o) => [`${o.file}:${o.span[0]}`, o.kind]));
  const texts = [...byText].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // Asked all at once, as for the code's files.
  const answers = await Promise.all(texts.map(([virtual, offsets]) => askPython<{ sites: Site[] }>(session, request.python, 'signature_sites', { content: examples.docs.get(virtual)!.text, offsets })));
  for (const [index, [virtual]] of texts.entries()) {
    const doc = examples.docs.get(virtual)!;
    const answer = answers[index]!;
    const real = realBytes(doc.file);
    const source: SiteText = {
      info: examples.resolver.project.files.get(virtual),
      resolver: examples.resolver,
      bytes: Buffer.from(doc.text, 'utf8'),
      kindAt: (offset) => kindAt.get(`${virtual}:${offset}`),
      place: (offset) => ({ file: doc.file, ...positionOf(lineStarts(real), realOffset(doc, offset) ?? 0) }),
      edit: (span, text) => writeBack(doc, real, span, text),
    };
    // A def or other binding of the function in an example (a subclass's override): its parameters are not changed.
    for (const site of answer.sites.filter((s) => kindAt.get(`${virtual}:${s.offset}`) === 'definition')) {
      const location = source.place(site.offset);
      warnings.push({ code: 'DefinitionNotRewritten', message: `${name} is defined again in the example at ${location.file}:${location.line}:${location.col}; tug left its parameters as they are`, location });
    }
    const done = rewriteSites(source, answer.sites.filter((s) => s.kind !== 'other' || !isClassCall.has(`${virtual}:${s.offset}`)), change);
    edits.push(...done.edits);
    warnings.push(...done.warnings);
    calls += done.calls;
    if (done.unsure.length > 0) unsure = [...unsure, ...done.unsure];
  }
  const listed = exampleUnsure(examples, entity, name, occurrences);
  if (listed.length > 0) unsure = [...unsure, ...unsureJSON(listed, new Map([...examples.bytes, ...loaded.bytesOf]), false)];
  if (unsure.length > 0) warnings.push({ code: 'UnsureCallSites', message: `${unsure.length} place(s) may call ${name} in a way tug cannot rewrite (through a receiver it cannot type, the function passed as a value, or *args/**kwargs that may fill what changed); they were left as they are (see unsure)` });
  return { ...plan, edits, warnings, unsure, calls };
}

/**
 * An edit of an example's text, written into its file: each line break it spans or writes is a line break and the
 * next line's prompt there (`... `, a code block's indentation). Null when the span joins lines that are not next to
 * each other in the file (two examples with output between them).
 */
function writeBack(doc: DoctestText, real: Uint8Array, span: [number, number], text: string): EditRequest | null {
  const start = realOffset(doc, span[0]);
  const end = realOffset(doc, span[1]);
  if (start === null || end === null) return null;
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  const before = decode(Buffer.from(doc.text, 'utf8').subarray(span[0], span[1]));
  const old = decode(real.subarray(start, end));
  const breaks: string[] = [];
  doc.lines.forEach((line, i) => {
    if (i === 0 || line.virtual <= span[0] || line.virtual > span[1]) return;
    const previous = doc.lines[i - 1]!;
    breaks.push(decode(real.subarray(previous.real + previous.length, line.real)));
  });
  if (breaks.some((b) => !/^\r?\n[^\n]*$/.test(b))) return null;
  const parts = before.split('\n');
  if (parts.length !== breaks.length + 1 || parts.map((p, i) => (i === 0 ? p : `${breaks[i - 1]}${p}`)).join('') !== old) return null;
  const lineBreak = breaks[breaks.length - 1] ?? null;
  if (text.includes('\n') && lineBreak === null) return null;
  return { file: doc.file, span: { start, end }, old_text: old, new_text: lineBreak === null ? text : text.replaceAll('\n', lineBreak) };
}

/** The class name whose calls run an `__init__` entity, else null. */
function constructorOf(entity: Entity): string | null {
  return entity.kind === 'class-member' && entity.name === '__init__' ? (entity.owner.split('.').pop() ?? null) : null;
}
