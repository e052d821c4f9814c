// What the moved Rust code needs in its new module: the old module's imports it uses (copied, made absolute), the
// old module's own items it names (imported from there, and made `pub(crate)` when private), and `self::`/`super::`
// paths written from the crate root instead. Each candidate name is checked with rust-analyzer's definition, so a
// local variable that happens to share an import's name brings nothing along.
import { cfgBefore, leavesOf, useItems, type Seg, type StrEdit, type UseItem, type UseLeaf, type UseTree } from './move-text.js';
import type { TopItem } from './move-items.js';

export interface DepsContext {
  text: string;
  masked: string;
  moved: ReadonlyArray<{ start: number; end: number }>;
  movedNames: ReadonlySet<string>;
  srcSegs: readonly string[];
  /** Top-level items of the old module that stay. */
  siblings: readonly TopItem[];
  /** Whether the old module declares `mod name;` (a relative `use name::…` then starts there). */
  childModule: (name: string) => boolean;
  /** Where the name at `at` (in the old module's file) is defined: a file and index, or null. */
  definitionAt: (at: number) => Promise<{ file: string; at: number } | null>;
  source: string;
}

export interface Import {
  name: string;
  path: string;
  alias: string | null;
  /** The old module's `use` it was copied from (absent for the old module's own items). */
  from?: { item: UseItem; tree: UseTree };
  /** `#[cfg(…)]` lines the import needs (those of the `use` or of the item it names). */
  cfg: string[];
  /** A trait brought for its methods: copied, never taken out of the old module. */
  keep?: boolean;
}

export interface DepsOutcome {
  imports: Import[];
  /** Edits inside the moved ranges (source indexes): `self::`/`super::` paths made absolute. */
  edits: StrEdit[];
  /** Private items of the old module the moved code names: they become `pub(crate)`. */
  needVisible: TopItem[];
}

const KEYWORDS = new Set(
  'as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type union unsafe use where while yield'.split(' '),
);

export async function movedCodeNeeds(ctx: DepsContext): Promise<DepsOutcome> {
  const { masked } = ctx;
  const leaves = new Map<string, UseLeaf & { item: UseItem }>();
  for (const item of useItems(ctx.text, masked).filter((u) => u.depth === 0 && !inside(ctx.moved, u.start))) {
    for (const leaf of leavesOf(item.tree)) if (leaf.name !== null && !leaf.glob) leaves.set(leaf.name, { ...leaf, item });
  }
  const siblings = new Map(ctx.siblings.map((s) => [s.name, s]));
  const edits: StrEdit[] = [];
  const candidates = new Map<string, number[]>();
  const visibility = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, name: string, at: number) => map.set(name, [...(map.get(name) ?? []), at]);
  for (const range of ctx.moved) {
    const re = /(?:r#)?[\p{XID_Start}_][\p{XID_Continue}]*/gu;
    re.lastIndex = range.start;
    for (let m = re.exec(masked); m && m.index < range.end; m = re.exec(masked)) {
      const at = m.index;
      const name = m[0];
      let j = at;
      while (j > 0 && /\s/.test(masked[j - 1]!)) j--;
      if (masked[j - 1] === "'" || (/[\p{XID_Continue}]/u.test(masked[at - 1] ?? ' '))) continue;
      const afterPath = masked.slice(j - 2, j) === '::';
      const field = masked[j - 1] === '.' && masked[j - 2] !== '.';
      let k = at + name.length;
      while (k < masked.length && /\s/.test(masked[k]!)) k++;
      const macro = masked[k] === '!' && masked[k + 1] !== '=';
      const pathNext = masked.startsWith('::', k);
      if ((name === 'self' || name === 'super') && !afterPath && pathNext) {
        const rewrite = absoluteStart(masked, at, ctx.srcSegs);
        if (rewrite) edits.push(rewrite);
        continue;
      }
      if (field || macro || KEYWORDS.has(name)) continue;
      const sibling = siblings.get(name);
      if (sibling && sibling.header.vis === '') add(visibility, name, at);
      if (afterPath || ctx.movedNames.has(name)) continue;
      if (leaves.has(name) || sibling) add(candidates, name, at);
    }
  }
  const local = (def: { file: string; at: number } | null) => def !== null && def.file === ctx.source && inside(ctx.moved, def.at);
  /** Whether some occurrence resolves outside the moved code (a few are asked; all-local names bring nothing). */
  const needed = async (spots: number[], test: (def: { file: string; at: number } | null) => boolean) => {
    for (const at of spots.slice(0, 8)) if (test(await ctx.definitionAt(at))) return true;
    return false;
  };
  const imports: Import[] = [];
  for (const [name, spots] of [...candidates].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const leaf = leaves.get(name);
    if (leaf) {
      if (await needed(spots, (def) => !local(def))) imports.push({ name, path: absolute(leaf.path, ctx).join('::'), alias: leaf.alias, from: { item: leaf.item, tree: leaf.chain[leaf.chain.length - 1]! }, cfg: leaf.item.cfg });
      continue;
    }
    const sibling = siblings.get(name)!;
    if (await needed(spots, (def) => def === null || (def.file === ctx.source && def.at >= sibling.start && def.at <= sibling.end))) {
      imports.push({ name, path: ['crate', ...ctx.srcSegs, name].join('::'), alias: null, cfg: cfgBefore(masked, ctx.text, sibling.header.visStart) });
    }
  }
  imports.push(...traitImports(ctx, leaves, imports));
  const needVisible: TopItem[] = [];
  for (const [name, spots] of visibility) {
    const sibling = siblings.get(name)!;
    if (await needed(spots, (def) => def !== null && def.file === ctx.source && def.at >= sibling.start && def.at <= sibling.end)) needVisible.push(sibling);
  }
  return { imports, edits, needVisible };
}

/**
 * Imports the old module has only for their methods (`use std::io::Write;`, `use x::Trait as _;`: the name is written
 * nowhere else in the file): the moved code may call those methods, so they go along when it calls any method.
 */
function traitImports(ctx: DepsContext, leaves: ReadonlyMap<string, UseLeaf & { item: UseItem }>, taken: readonly Import[]): Import[] {
  if (!ctx.moved.some((r) => /\.\s*[\p{XID_Start}_][\p{XID_Continue}]*\s*(?:::\s*<[^;{}]*>\s*)?\(/u.test(ctx.masked.slice(r.start, r.end)))) return [];
  const found: Import[] = [];
  const all = useItems(ctx.text, ctx.masked).filter((u) => u.depth === 0 && !inside(ctx.moved, u.start));
  let rest = ctx.masked;
  for (const u of all) rest = rest.slice(0, u.start) + ' '.repeat(u.end - u.start) + rest.slice(u.end);
  for (const item of all) {
    for (const leaf of leavesOf(item.tree)) {
      if (leaf.glob) continue;
      const underscore = leaf.alias === '_';
      const name = leaf.name ?? leaf.path[leaf.path.length - 1]?.text;
      if (!name || taken.some((i) => i.name === name) || (!underscore && leaves.get(name)?.item.start !== item.start)) continue;
      if (!underscore && new RegExp(`(?<![\\p{XID_Continue}])${name}(?![\\p{XID_Continue}])`, 'u').test(rest)) continue;
      found.push({ name: underscore ? `_${name}` : name, path: absolute(leaf.path, ctx).join('::'), alias: underscore ? '_' : null, cfg: item.cfg, keep: true });
    }
  }
  return found;
}

function inside(ranges: ReadonlyArray<{ start: number; end: number }>, at: number): boolean {
  return ranges.some((r) => r.start <= at && at < r.end);
}

/** A `use` path of the old module written from the crate root. */
function absolute(path: readonly Seg[], ctx: Pick<DepsContext, 'srcSegs' | 'childModule'>): string[] {
  const texts = path.map((s) => s.text);
  const first = texts[0];
  if (first === 'self') return ['crate', ...ctx.srcSegs, ...texts.slice(1)];
  if (first === 'super') {
    let k = 0;
    while (texts[k] === 'super') k++;
    return ['crate', ...ctx.srcSegs.slice(0, Math.max(0, ctx.srcSegs.length - k)), ...texts.slice(k)];
  }
  if (first !== undefined && first !== 'crate' && ctx.childModule(first)) return ['crate', ...ctx.srcSegs, ...texts];
  return texts;
}

/** `self::` or `super::super::` at `at` as the old module's path from the crate root; null when it climbs past it. */
function absoluteStart(masked: string, at: number, srcSegs: readonly string[]): StrEdit | null {
  const run = /^(self|super(?:\s*::\s*super)*)(?=\s*::)/.exec(masked.slice(at, at + 200));
  if (!run) return null;
  const ups = run[1] === 'self' ? 0 : run[1]!.split('::').length;
  if (ups > srcSegs.length) return null;
  return { start: at, end: at + run[0].length, text: ['crate', ...srcSegs.slice(0, srcSegs.length - ups)].join('::') };
}
