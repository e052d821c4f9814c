// The asynchronous end of a Python rename plan: uses in doctests and docs code blocks, then the completeness check.
import path from 'node:path';
import type { Repo } from '../git/repo.js';
import { lineStarts, positionOf } from '../core/text.js';
import { resolvePython } from './interpreter.js';
import { mark } from '../core/timing.js';
import { checkComplete } from './check-rename.js';
import { doctestOccurrences, doctestSkipped } from './doctests.js';
import { unsureJSON } from './unsure.js';
import { refuseLibraryOverride } from './library-overrides.js';
import { nativeMentionsInTree, refuseNamedByNativeCode } from './native-names.js';
import type { LoadedProject } from './load-project.js';
import type { CorePlan, RenamePlan } from './plan-types.js';

export interface CompleteRequest {
  repo: Repo;
  session: { dir: string; paths: { facts: string; workers: string } };
  tree: string;
  python: string | undefined;
  /** Run the completeness check (a committed rename); analyze-impact does not. */
  check: boolean | undefined;
  /** The old name stays as an alias (keep_alias): native code that reads it by name still finds it. */
  keepAlias?: boolean | undefined;
}

export async function completePlan(request: CompleteRequest, loaded: LoadedProject, core: CorePlan, newName: string): Promise<RenamePlan> {
  const { session } = request;
  const { entities, ...plan } = core;
  const python = async () => (await resolvePython(request.python, session.dir)).path;
  const { file, line, col } = plan.symbol.location;
  const entity = entities[0];
  if (entity?.kind === 'module-attr' && !request.keepAlias) {
    const native = await nativeMentionsInTree(request.repo, request.tree, loaded.allPaths, entity.module, entity.name);
    refuseNamedByNativeCode(native, entity.module, entity.name, 'the rename', { flag: 'keep_alias', cli: '--keep-alias' });
  }
  if (entities[0]) await refuseLibraryOverride(loaded.project, loaded.resolver.classes, entities[0], { oldName: plan.oldName, newName, at: { file, line, col } }, python);
  const examples = await doctestOccurrences({
    repo: request.repo,
    tree: request.tree,
    loaded,
    entities,
    oldName: plan.oldName,
    python,
    factsDir: session.paths.facts,
    workersDir: session.paths.workers,
  });
  mark('python: doctests searched');
  for (const file of examples.unparsed) plan.warnings.push(doctestSkipped(file, plan.oldName));
  for (const { file, span, keyword } of examples.spans) {
    const bytes = loaded.bytesOf.get(file) ?? examples.bytes.get(file)!;
    plan.references.push({ location: { file, ...positionOf(lineStarts(bytes), span[0]), byte_start: span[0], byte_end: span[1] }, kind: 'reference' });
    // attrs' keyword of a private field (`_x` → `x`) follows the same way.
    const renamed = keyword === undefined ? newName : newName.replace(/^_+/, '');
    if (renamed) plan.edits.push({ file, span: { start: span[0], end: span[1] }, old_text: keyword ?? plan.oldName, new_text: renamed });
  }
  const edited = new Set(plan.edits.map((e) => `${e.file}:${e.span?.start}`));
  for (const { file, span } of examples.dotted) {
    if (edited.has(`${file}:${span[0]}`)) continue;
    edited.add(`${file}:${span[0]}`);
    const bytes = loaded.bytesOf.get(file) ?? examples.bytes.get(file)!;
    const at = positionOf(lineStarts(bytes), span[0]);
    plan.edits.push({ file, span: { start: span[0], end: span[1] }, old_text: plan.oldName, new_text: newName });
    plan.warnings.push({ code: 'DottedPathRenamed', message: `the text of ${file} names ${plan.oldName} by its dotted path (a doctest's expected output, a cross-reference) and was renamed with it`, location: { file, ...at } });
  }
  if (examples.unsure.length > 0) {
    const bytesOf = new Map([...examples.bytes, ...loaded.bytesOf]);
    plan.unsure.push(...unsureJSON(examples.unsure, bytesOf, false));
    plan.unsure.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col));
  }
  if (request.check && newName !== plan.oldName) {
    await checkComplete({ repo: request.repo, session, python: request.python, loaded, entities, oldName: plan.oldName, newName, edits: plan.edits, moves: plan.moves });
    mark('python: completeness checked');
  }
  return plan;
}
