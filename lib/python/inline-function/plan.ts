// inline of a Python function: the function under the cursor (its def or a call of it), every occurrence the resolver
// finds, and the worker's edits for each call, the definition's removal and the imports it leaves behind.
import { TugError } from '../../core/errors.js';
import type { EditRequest } from '../../core/patchset.js';
import type { WarningJSON } from '../../core/schemas.js';
import { lineStarts, offsetOf } from '../../core/text.js';
import type { LoadedProject, PythonSession } from '../load-project.js';
import { askPython } from '../load-project.js';
import { workerRefusal, type Refusal } from '../local-refactor.js';

interface Reply {
  edits: Array<{ path: string; span: [number, number]; old_text: string; new_text: string }>;
  warnings: WarningJSON[];
  name: string;
  calls: number;
  removed: boolean;
}

export interface InlineFunctionPlan {
  edits: EditRequest[];
  warnings: WarningJSON[];
  name: string;
  calls: number;
  removed: boolean;
}

/**
 * The plan, or null when the position is not on a function the project defines (the caller then reports why the
 * local-variable inline refused it).
 */
export async function planInlineFunction(
  loaded: LoadedProject,
  ask: { session: PythonSession; python: string | undefined },
  at: { file: string; line: number; col: number },
  keepDefinition: boolean,
  targetPython?: string,
): Promise<InlineFunctionPlan | null> {
  const { project, resolver, bytesOf } = loaded;
  const bytes = bytesOf.get(at.file);
  const info = project.files.get(at.file);
  if (!bytes || !info) return null;
  const offset = offsetOf(bytes, lineStarts(bytes), at.line, at.col);
  const entity = offset === null ? null : resolver.entityAt(info, offset);
  if (!entity || entity.kind !== 'module-attr') return null;
  const occurrences = resolver.occurrences(entity);
  const definition = occurrences.find((o) => o.kind === 'definition' && project.files.get(o.file)?.module === entity.module);
  if (!definition) return null;
  const byFile = new Map<string, Array<{ offset: number; kind: string }>>();
  for (const o of occurrences) byFile.set(o.file, [...(byFile.get(o.file) ?? []), { offset: o.span[0], kind: o.kind }]);
  const files = [...byFile.keys()].sort().map((path) => {
    const broken = loaded.unparsable.get(path);
    if (broken) throw new TugError('SourceSyntaxError', `${path} does not parse, and it refers to ${entity.name}`, { details: { path, line: broken.line, col: broken.col } });
    return { path, module: project.files.get(path)?.module ?? null, content: new TextDecoder().decode(bytesOf.get(path)!), occurrences: byFile.get(path)! };
  });
  const reply = await askPython<Reply | { refused: Refusal }>(ask.session, ask.python, 'inline_function', {
    files,
    source: definition.file,
    offset: definition.span[0],
    keep_definition: keepDefinition,
    ...(targetPython ? { target_python: targetPython } : {}),
  });
  if ('refused' in reply) {
    // A module-level name that is no function (a constant, __all__): the local inline's refusal says it better.
    if (reply.refused.details['reason'] === 'not a module-level function') return null;
    throw workerRefusal(reply.refused);
  }
  return {
    edits: reply.edits.map((e): EditRequest => ({ file: e.path, span: { start: e.span[0], end: e.span[1] }, old_text: e.old_text, new_text: e.new_text })),
    warnings: reply.warnings,
    name: reply.name,
    calls: reply.calls,
    removed: reply.removed,
  };
}
