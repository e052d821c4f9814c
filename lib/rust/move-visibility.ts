// Visibility and public API of a Rust move. Code that stays behind needs at least `pub(crate)` from the item's new
// module; a published library's public path must not vanish (unless a `pub use` keeps it) or appear where there was
// none; uses tug cannot reach (a glob import of the old module elsewhere, another crate when the new path is not
// public) are refused rather than left broken.
import { TugError } from '../core/errors.js';
import type { WarningJSON } from '../core/schemas.js';
import type { TopItem } from './move-items.js';
import { isPublicModule, modulePath, type CratePackage, type RustModule } from './move-modules.js';
import type { RefOutcome } from './move-refs.js';
import type { StrEdit } from './move-text.js';

export interface VisibilityInput {
  pkg: CratePackage;
  src: RustModule;
  dest: RustModule;
  item: TopItem;
  keepReexport: boolean;
  refs: ReadonlyArray<{ file: string; at: number }>;
  outcome: RefOutcome;
  insideMoved: (file: string, at: number) => boolean;
  moduleOf: (file: string) => RustModule | null;
  positionAt: (file: string, at: number) => { line: number; character: number };
}

export interface VisibilityPlan {
  /** The item's visibility in its new module ('' when private). */
  vis: string;
  /** Edit of the item's own visibility (source indexes, inside the moved item), when it changes. */
  edit: StrEdit | null;
  /** Whether code left in the old module names the item without a path (it then imports it). */
  importInSource: boolean;
  /** Where it does (indexes in the old module's file). */
  bareInSource: number[];
  warnings: WarningJSON[];
}

const isUnder = (outer: readonly string[], inner: readonly string[]) => inner.length > outer.length && outer.every((s, i) => inner[i] === s);

export function decideVisibility(input: VisibilityInput): VisibilityPlan {
  const { pkg, src, dest, item, keepReexport, outcome } = input;
  const name = item.name;
  const oldPath = `${pkg.name}::${modulePath([...src.segs, name])}`;
  const at = (file: string, index: number) => {
    const p = input.positionAt(file, index);
    return { file, line: p.line + 1, col: p.character + 1 };
  };
  const refuse = (reason: string, message: string, extra: Record<string, unknown> = {}) => {
    throw new TugError('UnsafeRefactor', message, { details: { reason, ...extra } });
  };
  const oldPublic = item.header.vis === 'pub' && isPublicModule(pkg, src);
  const newPublic = item.header.vis === 'pub' && isPublicModule(pkg, dest);
  if (pkg.published && oldPublic && !keepReexport) {
    refuse('public API path removed', `${oldPath} is public API of the published crate ${pkg.name}: moving it removes that path for its users; pass keep_reexport to leave \`pub use\` there`, { old_path: oldPath, suggestion: 'keep_reexport' });
  }
  if (pkg.published && !oldPublic && newPublic) {
    refuse('widens public API', `${name} would become public API of ${pkg.name} at ${pkg.name}::${modulePath([...dest.segs, name])} (it was not at ${oldPath}); move it to a private module or make it pub(crate) first`, { new_path: `${pkg.name}::${modulePath([...dest.segs, name])}` });
  }
  if (outcome.otherCrate.length > 0 && !newPublic && !keepReexport) {
    refuse('other crate uses the old path', `other crates name ${name} through ${oldPath}, and its new module is not public; pass keep_reexport, or move it to a public module`, { places: outcome.otherCrate.map((r) => at(r.file, r.at)) });
  }
  const globs = outcome.bare.filter((b) => {
    if (b.file === src.file || b.file === dest.file || outcome.imported.has(b.file)) return false;
    const module = input.moduleOf(b.file);
    return !(module && isUnder(src.segs, module.segs));
  });
  if (globs.length > 0 && !keepReexport) {
    refuse('glob import', `${name} is used through a glob import of ${oldPath.replace(/::[^:]+$/, '')} (at ${globs.map((g) => `${at(g.file, g.at).file}:${at(g.file, g.at).line}`).join(', ')}), which would no longer bring it; pass keep_reexport or import it by name first`, { places: globs.map((g) => at(g.file, g.at)) });
  }
  const outside = input.refs.some((r) => !input.insideMoved(r.file, r.at));
  const restricted = item.header.vis === '' || /^pub\((?:self|super|in\b)/.test(item.header.vis);
  const warnings: WarningJSON[] = [];
  let vis = item.header.vis;
  let edit: StrEdit | null = null;
  if (restricted && (outside || keepReexport)) {
    vis = 'pub(crate)';
    edit = { start: item.header.visStart, end: item.header.visEnd, text: item.header.vis === '' ? 'pub(crate) ' : 'pub(crate)' };
    warnings.push({ code: 'VisibilityChanged', message: `${name} is now pub(crate): code outside its new module uses it`, details: { name, from: item.header.vis || 'private', to: 'pub(crate)' } });
  }
  const bareInSource = outcome.bare.filter((b) => b.file === src.file && !input.insideMoved(b.file, b.at)).map((b) => b.at);
  return { vis, edit, importInSource: bareInSource.length > 0, bareInSource, warnings };
}
