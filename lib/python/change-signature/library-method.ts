// A method that overrides one of a standard-library base class is called by the library with the base's arguments
// (datetime calls a tzinfo's `utcoffset(dt)`, codecs an encoder's `encode(input, final)`), which no edit reaches. The
// sweep over real projects found it (isodate's `FixedOffset.utcoffset` without `dt`: verification failed), so a change
// old calls no longer fit is refused there; `force` changes it anyway. Special methods are special-methods.ts's.
import { TugError } from '../../core/errors.js';
import { resolvePython } from '../interpreter.js';
import { libraryDefiner } from '../library-overrides.js';
import type { LoadedProject, PythonSession } from '../load-project.js';
import type { Entity } from '../project.js';
import { callCompatible, type SignatureChange } from './call-sites.js';

export async function refuseLibraryMethod(
  loaded: LoadedProject,
  ask: { session: PythonSession; python: string | undefined },
  entity: Entity,
  change: SignatureChange,
  at: { file: string; line: number; col: number },
): Promise<void> {
  if (change.force || callCompatible(change) || entity.kind !== 'class-member' || /^__\w+__$/.test(entity.name)) return;
  const python = async () => (await resolvePython(ask.python, ask.session.dir)).path;
  const dotted = await libraryDefiner(loaded.project, loaded.resolver.classes, entity, python);
  if (!dotted) return;
  const base = dotted.replace(/^builtins\./, '');
  throw new TugError('UnsafeRefactor', `${entity.owner}.${entity.name} overrides ${base}.${entity.name}, which Python's library calls with that method's arguments; calls the library makes would keep them, which the new signature no longer fits; pass force to change it anyway`, {
    details: { reason: 'library override', base: dotted, class: entity.owner, line: at.line, col: at.col },
    location: at,
  });
}
