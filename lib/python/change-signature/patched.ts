// A function that a test replaces with a mock by its dotted path (`patch("pkg.term.win32.SetConsoleMode", mock)`) is
// called through that mock, and the test then checks the calls (`mock.assert_called_with(handle, mode)`) or answers
// them (`side_effect=lambda handle, mode: …`) in the old order, which no edit of a call site reaches. The sweep over
// real projects found it (colorama's SetConsoleMode with its parameters swapped: verification failed), so a change
// old calls no longer fit is refused there, like a function passed as a value; `force` changes it anyway.
import { TugError } from '../../core/errors.js';
import { lineStarts, positionOf } from '../../core/text.js';
import { dottedPathsInText } from '../dotted-strings.js';
import type { LoadedProject } from '../load-project.js';
import type { Entity } from '../project.js';
import { callCompatible, type SignatureChange } from './call-sites.js';

export function refusePatchedFunction(loaded: LoadedProject, entity: Entity, change: SignatureChange): void {
  if (change.force || callCompatible(change)) return;
  const { project, resolver, bytesOf } = loaded;
  for (const info of [...project.files.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))) {
    for (const s of info.facts.strings) {
      // Only a string that is a dotted path as a whole: a patch target, not prose that mentions one.
      if (!/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/.test(s.value) || !s.value.endsWith(`.${change.name}`)) continue;
      if (dottedPathsInText(project, resolver, [entity], change.name, s.value).length === 0) continue;
      const { line, col } = positionOf(lineStarts(bytesOf.get(info.file)!), s.span[0]);
      throw new TugError('UnsafeRefactor', `"${s.value}" at ${info.file}:${line}:${col} names ${change.name} by its dotted path (a mock.patch target): calls made through that mock, and what the test checks of them, keep the old arguments, which the new signature no longer fits; pass force to change it anyway`, {
        details: { reason: 'patched in tests', path: info.file, line, col, target: s.value },
        location: { file: info.file, line, col },
      });
    }
  }
}
