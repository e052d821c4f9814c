// The places that name a moved Rust item, rewritten: a path whose module part names the old module gets the new
// one (`crate::new::Item`, `other_crate::new::Item`), a `use` leaf inside a group moves to a `use` of its own, an
// import of the item in its new module is dropped. Paths through a re-export are left alone (they still resolve), and
// a bare name is reported for the planner to decide (an import in the old module, or a glob it cannot fix).
import { lineStart, maskRust, useItems, wholeLines, type Seg, type StrEdit, type UseItem, type UseTree } from './move-text.js';
import { modulePath } from './move-modules.js';

export interface FileEdit extends StrEdit {
  file: string;
}

export interface RefContext {
  textOf: (file: string) => string;
  /** The module file or crate root a path segment at (file, index) resolves to, null when it is not a module. */
  moduleAt: (file: string, at: number) => Promise<string | null>;
  source: string;
  crateRoot: string;
  destFile: string;
  destSegs: readonly string[];
  sameCrate: (file: string) => boolean;
}

export interface RefOutcome {
  edits: FileEdit[];
  /** Bare uses of the name, for the planner. */
  bare: Array<{ file: string; at: number }>;
  /** Files where a `use` names the item (through any path). */
  imported: Set<string>;
  /** Where `use` items name it. */
  useRefs: Array<{ file: string; at: number }>;
  /** Uses in other crates through the old module's path (rewritten only when the new path is public). */
  otherCrate: Array<{ file: string; at: number }>;
  /** Places whose path tug cannot read (generic arguments in the qualifier, say). */
  unreadable: Array<{ file: string; at: number }>;
}

type Planned = { file: string; item: UseItem; tree: UseTree; seg: Seg; newPrefix: string | null };

/** Rewrites every reference; `rewriteOtherCrates` says whether the new path can be named from other crates. */
export async function rewriteReferences(ctx: RefContext, refs: ReadonlyArray<{ file: string; at: number }>, rewriteOtherCrates: boolean): Promise<RefOutcome> {
  const out: RefOutcome = { edits: [], bare: [], imported: new Set(), useRefs: [], otherCrate: [], unreadable: [] };
  const uses = new Map<string, UseItem[]>();
  const masks = new Map<string, string>();
  const maskOf = (file: string) => masks.get(file) ?? (masks.set(file, maskRust(ctx.textOf(file))), masks.get(file)!);
  const usesOf = (file: string) => uses.get(file) ?? (uses.set(file, useItems(ctx.textOf(file), maskOf(file))), uses.get(file)!);
  const rel = ctx.destSegs.length > 0 ? `::${modulePath(ctx.destSegs)}` : '';
  /** The new module path written from `file`, starting like `first` did; null when it cannot be written there. */
  const newPrefix = async (file: string, first: Seg): Promise<string | null> => {
    if (first.text === 'crate') return `crate${rel}`;
    if ((await ctx.moduleAt(file, first.start)) === ctx.crateRoot && first.text !== 'self' && first.text !== 'super') return `${first.text}${rel}`;
    return ctx.sameCrate(file) ? `crate${rel}` : null;
  };
  const grouped: Planned[] = [];
  for (const ref of refs) {
    const item = usesOf(ref.file).find((u) => u.start <= ref.at && ref.at < u.end);
    if (item) {
      out.imported.add(ref.file);
      out.useRefs.push(ref);
      const found = findSeg(item.tree, ref.at);
      if (!found) {
        out.unreadable.push(ref);
        continue;
      }
      const { chain, prefix, seg } = found;
      const last = prefix[prefix.length - 1];
      if (!last || (await ctx.moduleAt(ref.file, last.start)) !== ctx.source) continue;
      const other = !ctx.sameCrate(ref.file);
      if (other) out.otherCrate.push(ref);
      if (other && !rewriteOtherCrates) continue;
      const tree = chain[chain.length - 1]!;
      if (ref.file === ctx.destFile && item.depth === 0) {
        grouped.push({ file: ref.file, item, tree, seg, newPrefix: null });
        continue;
      }
      const prefixText = await newPrefix(ref.file, prefix[0]!);
      if (prefixText === null) {
        out.unreadable.push(ref);
        continue;
      }
      if (chain.length === 1) {
        const from = prefixText.startsWith('crate') ? tree.start : tree.path[0]!.start;
        out.edits.push({ file: ref.file, start: from, end: seg.start, text: `${prefixText}::` });
      } else grouped.push({ file: ref.file, item, tree, seg, newPrefix: prefixText });
      continue;
    }
    const qualifier = qualifierBefore(maskOf(ref.file), ref.at);
    if (qualifier === 'unreadable') {
      out.unreadable.push(ref);
      continue;
    }
    if (qualifier.length === 0) {
      out.bare.push(ref);
      continue;
    }
    if ((await ctx.moduleAt(ref.file, qualifier[qualifier.length - 1]!.start)) !== ctx.source) continue;
    const other = !ctx.sameCrate(ref.file);
    if (other) out.otherCrate.push(ref);
    if (other && !rewriteOtherCrates) continue;
    const prefixText = await newPrefix(ref.file, qualifier[0]!);
    if (prefixText === null) out.unreadable.push(ref);
    else out.edits.push({ file: ref.file, start: qualifier[0]!.start, end: ref.at, text: `${prefixText}::` });
  }
  // Leaves of groups: taken out of their `use` (which may vanish) and written as `use new::path::Leaf;` after it.
  const byItem = new Map<UseItem, Planned[]>();
  for (const p of grouped) byItem.set(p.item, [...(byItem.get(p.item) ?? []), p]);
  for (const [item, planned] of byItem) {
    const file = planned[0]!.file;
    const text = ctx.textOf(file);
    out.edits.push(...removeTrees(text, item, new Set(planned.map((p) => p.tree))).map((e) => ({ file, ...e })));
    const indent = /^[ \t]*/.exec(text.slice(lineStart(text, item.start)))![0];
    const added = planned.filter((p) => p.newPrefix !== null).map((p) => `\n${indent}${item.vis ? `${item.vis} ` : ''}use ${p.newPrefix}::${text.slice(p.seg.start, p.tree.end)};`);
    if (added.length > 0) out.edits.push({ file, start: item.end, end: item.end, text: added.join('') });
  }
  return out;
}

/** The segment starting at `at`, the trees leading to it and the path before it. */
function findSeg(tree: UseTree, at: number, chain: UseTree[] = [], prefix: Seg[] = []): { chain: UseTree[]; prefix: Seg[]; seg: Seg } | null {
  const here = [...chain, tree];
  const index = tree.path.findIndex((s) => s.start === at);
  if (index >= 0) return { chain: here, prefix: [...prefix, ...tree.path.slice(0, index)], seg: tree.path[index]! };
  for (const child of tree.children) {
    const found = findSeg(child, at, here, [...prefix, ...tree.path]);
    if (found) return found;
  }
  return null;
}

/** The segments of the path before the name at `at` (`a::b::` in `a::b::Name`), [] for a bare name. */
export function qualifierBefore(masked: string, at: number): Seg[] | 'unreadable' {
  const segs: Seg[] = [];
  let i = at;
  for (;;) {
    let j = i;
    while (j > 0 && /\s/.test(masked[j - 1]!)) j--;
    if (masked.slice(j - 2, j) !== '::') return segs;
    j -= 2;
    while (j > 0 && /\s/.test(masked[j - 1]!)) j--;
    if (masked[j - 1] === '>') return 'unreadable';
    let k = j;
    while (k > 0 && /[\p{XID_Continue}$]/u.test(masked[k - 1]!)) k--;
    if (k === j) return segs;
    segs.unshift({ text: masked.slice(k, j), start: k, end: j });
    i = k;
  }
}

/** Edits taking `removed` subtrees out of a use item; the whole item (and its line) goes when nothing is left. */
export function removeTrees(text: string, item: UseItem, removed: ReadonlySet<UseTree>): StrEdit[] {
  const edits: StrEdit[] = [];
  const empty = (tree: UseTree): boolean => removed.has(tree) || (tree.kind === 'group' && tree.children.length > 0 && tree.children.every(empty));
  const walk = (tree: UseTree) => {
    if (tree.kind !== 'group') return;
    const kids = tree.children;
    let i = 0;
    while (i < kids.length) {
      if (!empty(kids[i]!)) {
        walk(kids[i]!);
        i++;
        continue;
      }
      let j = i;
      while (j + 1 < kids.length && empty(kids[j + 1]!)) j++;
      if (j + 1 < kids.length) edits.push({ start: kids[i]!.start, end: kids[j + 1]!.start, text: '' });
      else edits.push({ start: kids[i - 1]!.end, end: kids[j]!.end, text: '' });
      i = j + 1;
    }
  };
  if (empty(item.tree)) {
    const span = wholeLines(text, item.start, item.end);
    return [{ ...span, text: '' }];
  }
  walk(item.tree);
  return edits;
}
