// What a person's edit leaves in a Rust file's imports, made deterministically from a seed for
// tests/sweep/rust-imports.mjs: existing one-line `use` items reordered and split, then unused `use` items added
// (std/core paths and the crate's own items, alone, as a new braced group, or inside an existing `{…}` group).
// Pure text work, no IO: it returns the injected text and the reference (the same edit without the unused items),
// which cargo fmt turns into the expected result of organize-imports.

/** mulberry32: a small seeded generator, so a seed names the same sample on every machine (run.mjs uses it too). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit number from strings (FNV-1a), to seed one try of one file. */
export function seedOf(...parts) {
  let h = 0x811c9dc5;
  for (const c of parts.join('\0')) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

// Types only (no traits: an unused trait in scope can still make a method call ambiguous), by module.
const STD = {
  collections: ['BTreeMap', 'BTreeSet', 'BinaryHeap', 'LinkedList', 'VecDeque'],
  cell: ['Cell', 'RefCell', 'UnsafeCell'],
  rc: ['Rc'],
  sync: ['Arc', 'Mutex', 'RwLock', 'Barrier'],
  time: ['Duration', 'Instant', 'SystemTime'],
  ops: ['Range', 'RangeInclusive', 'Bound', 'ControlFlow'],
  cmp: ['Reverse'],
  num: ['Wrapping', 'NonZeroU8', 'NonZeroU32', 'NonZeroUsize'],
  mem: ['ManuallyDrop', 'MaybeUninit'],
  marker: ['PhantomData', 'PhantomPinned'],
  ptr: ['NonNull'],
  any: ['TypeId'],
  convert: ['Infallible'],
  iter: ['Peekable', 'Rev', 'Zip', 'Chain'],
  fmt: ['Arguments', 'Alignment'],
  io: ['Cursor', 'Sink', 'SeekFrom', 'BufReader', 'BufWriter'],
  str: ['Utf8Error', 'CharIndices'],
  string: ['FromUtf8Error'],
  hash: ['BuildHasherDefault'],
};
const NOT_IN_CORE = new Set(['collections', 'rc', 'sync', 'io', 'string', 'Instant', 'SystemTime']);

/** The std (or core) modules and names an injection may use. */
function library(root) {
  const out = {};
  for (const [m, names] of Object.entries(STD)) {
    if (root === 'core' && NOT_IN_CORE.has(m)) continue;
    out[m] = root === 'core' ? names.filter((n) => !NOT_IN_CORE.has(n)) : names;
  }
  return out;
}

const ITEM = /^(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|unsafe|async)\s+|extern\s+"[^"]*"\s+)*(fn|struct|enum|const|static|type|union)\s+([A-Za-z_]\w*)/;

/** Items defined at column 0 of a file's text, not under an attribute line (no `#[cfg]`'d ones); `pubOnly` for another module's. */
export function topItems(text, pubOnly) {
  const lines = text.split('\n');
  const names = [];
  lines.forEach((l, i) => {
    const m = ITEM.exec(l);
    if (!m || m[2] === '_' || (pubOnly && !/^pub\s/.test(l))) return;
    let j = i - 1;
    while (j >= 0 && /^\s*(\/\/|#\[(doc|allow|warn|deny|must_use|inline|derive|repr)\b)/.test(lines[j])) j--;
    if (j >= 0 && /^\s*#/.test(lines[j])) return;
    names.push(m[2]);
  });
  return [...new Set(names)];
}

const USE = /^(\s*)((?:pub(?:\([^)]*\))?\s+)?)use\s+([^;]*);\s*$/;

/**
 * Lines inside `macro_rules!` bodies (their `use` lines belong to expansions, not to this module) or block comments
 * (commented-out code).
 */
function macroLines(lines) {
  const out = new Set();
  let inComment = false;
  lines.forEach((l, i) => {
    if (inComment || l.includes('/*')) out.add(i);
    for (let at = 0; ; ) {
      const next = l.indexOf(inComment ? '*/' : '/*', at);
      if (next === -1) break;
      inComment = !inComment;
      at = next + 2;
    }
  });
  for (let i = 0; i < lines.length; i++) {
    if (!/macro_rules!/.test(lines[i])) continue;
    let depth = 0;
    let opened = false;
    for (let j = i; j < lines.length; j++) {
      out.add(j);
      for (const c of lines[j]) {
        if (c === '{' || c === '(' || c === '[') (depth++), (opened = true);
        else if (c === '}' || c === ')' || c === ']') depth--;
      }
      if (opened && depth <= 0) {
        i = j;
        break;
      }
    }
  }
  return out;
}

/**
 * Whether line `i` sits in a block opened under a `#[cfg(…)]` other than `cfg(test)` (a feature's match arm or
 * module): the default build may not compile it, and rustc then says nothing about an import there.
 */
function gated(lines, i) {
  let indent = /^\s*/.exec(lines[i])[0].length;
  for (let j = i - 1; j >= 0 && indent > 0; j--) {
    if (lines[j].trim() === '') continue;
    const n = /^\s*/.exec(lines[j])[0].length;
    if (n >= indent) continue;
    indent = n;
    // The item's first line: a signature written over several lines ends in `) -> T {` or a lone `{` at this indent.
    let first = j;
    while (first > 0 && /^\s*(\)|\{|->|where\b)/.test(lines[first]) && /^\s*/.exec(lines[first - 1])[0].length >= n) {
      first--;
      while (first > 0 && /^\s*/.exec(lines[first])[0].length > n) first--;
    }
    for (let k = first; k >= 0 && (k === first || /^\s*#\[/.test(lines[k])); k--) if (/#\[cfg\((?!test\))/.test(lines[k])) return true;
  }
  return false;
}

/** One-line `use` statements that are safe to move: no attribute above, no comment, no macro metavariable. */
function eligibleUses(lines) {
  const inMacro = macroLines(lines);
  const out = [];
  lines.forEach((l, i) => {
    const m = USE.exec(l);
    if (!m || inMacro.has(i) || /\/\/|\/\*|\$/.test(l) || gated(lines, i)) return;
    if (i > 0 && /^\s*#/.test(lines[i - 1])) return;
    const body = m[3];
    let depth = 0;
    for (const c of body) depth += c === '{' ? 1 : c === '}' ? -1 : 0;
    if (depth !== 0) return;
    out.push({ line: i, indent: m[1], vis: m[2], body });
  });
  return out;
}

/** The items of a braced group split at top-level commas: `std::fmt::{self, Write}` → prefix `std::fmt`, ['self', 'Write']. */
function group(body) {
  const m = /^(.*?)::\{(.*)\}$/.exec(body.trim());
  if (!m) return null;
  const items = [];
  let depth = 0;
  let cur = '';
  for (const c of m[2]) {
    if (c === ',' && depth === 0) (items.push(cur.trim()), (cur = ''));
    else {
      depth += c === '{' ? 1 : c === '}' ? -1 : 0;
      cur += c;
    }
  }
  if (cur.trim()) items.push(cur.trim());
  return { prefix: m[1], items };
}

const pick = (next, list) => list[Math.floor(next() * list.length)];

function shuffled(next, list) {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * One try on `text` (file `file`): { injected, reference, ops, unused } or null when the file has no `use` to work
 * with. `ctx`: { edition, root: 'std'|'core', rootItems, moduleItems: {mod: [names]}, isRoot, sortOnly }; with
 * sortOnly the items are only reordered and split, nothing unused is added (null when neither applied).
 */
export function inject(text, file, seed, ctx) {
  const next = rng(seed);
  let lines = text.split('\n');
  const ops = [];
  const uses = eligibleUses(lines);

  // Runs: eligible lines one after another at one indentation (what rustfmt sorts together).
  const runs = [];
  for (const u of uses) {
    const last = runs.at(-1);
    if (last && last.at(-1).line === u.line - 1 && last.at(-1).indent === u.indent) last.push(u);
    else runs.push([u]);
  }
  const long = runs.filter((r) => r.length >= 2);
  if (long.length && next() < 0.6) {
    const run = pick(next, long);
    const texts = run.map((u) => lines[u.line]);
    let order = shuffled(next, texts);
    if (order.every((t, i) => t === texts[i])) order = [...texts.slice(1), texts[0]];
    order.forEach((t, i) => (lines[run[0].line + i] = t));
    ops.push(`reorder ${run.length} at line ${run[0].line + 1}`);
  }
  const splittable = eligibleUses(lines).filter((u) => {
    const g = group(u.body);
    return g && g.items.length >= 2 && g.items.every((it) => /^[\w:]+( as \w+)?$|^\*$/.test(it) && it !== 'self');
  });
  if (splittable.length && next() < 0.5) {
    const u = pick(next, splittable);
    const g = group(u.body);
    lines.splice(u.line, 1, ...g.items.map((it) => `${u.indent}${u.vis}use ${g.prefix}::${it};`));
    ops.push(`split ${g.items.length} at line ${u.line + 1}`);
  }

  // The unused names: none the file mentions anywhere (so nothing can conflict or become used).
  const taken = new Set(text.match(/\b[A-Za-z_]\w*\b/g) ?? []);
  const lib = library(ctx.root);
  const free = (name) => !taken.has(name);
  const used = new Set();
  const take = (name) => (used.add(name), taken.add(name), name);
  const stdPath = () => {
    const options = Object.entries(lib).flatMap(([m, names]) => names.filter(free).map((n) => [m, n]));
    if (!options.length) return null;
    const [m, n] = pick(next, options);
    take(n);
    return { path: `${ctx.root}::${m}::${n}`, names: [n] };
  };
  const cratePrefix = ctx.edition === '2015' ? '' : 'crate::';
  const cratePath = () => {
    const options = ctx.isRoot
      ? Object.entries(ctx.moduleItems).flatMap(([m, names]) => names.filter(free).map((n) => `${cratePrefix}${m}::${n}`))
      : ctx.rootItems.filter(free).map((n) => `${cratePrefix}${n}`);
    if (!options.length) return null;
    const p = pick(next, options);
    take(p.split('::').pop());
    return { path: p, names: [p.split('::').pop()] };
  };
  const injected = [...lines];
  const insertions = []; // [after line index, text]
  const unused = [];
  const current = eligibleUses(lines);
  // New lines also go before a `use` written over several lines.
  const inMacro = macroLines(lines);
  const anchors = [...current.map((u) => ({ ...u, after: true })), ...lines.flatMap((l, i) => {
    const m = /^(\s*)(?:pub(?:\([^)]*\))?\s+)?use\s[^;]*$/.exec(l);
    return m && !inMacro.has(i) && !gated(lines, i) && !(i > 0 && /^\s*#/.test(lines[i - 1])) ? [{ line: i, indent: m[1], after: false }] : [];
  })];
  if (ctx.sortOnly) return ops.length ? { injected: lines.join('\n'), reference: lines.join('\n'), ops, unused: [] } : null;
  if (anchors.length === 0) return null;
  const count = 1 + Math.floor(next() * 3);
  // Until `count` injections are made: a kind with nothing to work with here is drawn again (20 draws at most).
  for (let k = 0, draws = 0; k < count && draws < 20; draws++) {
    const kind = pick(next, ['line-std', 'line-crate', 'new-group', 'in-group', 'in-group']);
    const at = pick(next, anchors);
    if (kind === 'in-group') {
      const fits = (prefix) => prefix === ctx.root || prefix.slice(ctx.root.length + 2) in lib && prefix.startsWith(`${ctx.root}::`) || (prefix === 'crate' && !ctx.isRoot);
      const candidates = current.filter((u) => {
        const m = USE.exec(injected[u.line]);
        const g = m && group(m[3]);
        return g && fits(g.prefix);
      });
      if (!candidates.length) continue;
      const u = pick(next, candidates);
      const line = injected[u.line];
      const g = group(USE.exec(line)[3]);
      let item = null;
      if (g.prefix === ctx.root) {
        const p = stdPath();
        if (p) item = { text: p.path.slice(ctx.root.length + 2), names: p.names };
      } else if (g.prefix === 'crate') {
        const options = ctx.rootItems.filter(free);
        if (options.length) item = { text: take(pick(next, options)), names: [] };
        if (item) item.names = [item.text];
      } else {
        const m = g.prefix.slice(ctx.root.length + 2);
        const options = (lib[m] ?? []).filter(free);
        if (options.length) {
          const n = take(pick(next, options));
          item = { text: n, names: [n] };
        }
      }
      if (!item) continue;
      const items = [...g.items];
      items.splice(Math.floor(next() * (items.length + 1)), 0, item.text);
      injected[u.line] = line.replace(/\{.*\}/, `{${items.join(', ')}}`);
      unused.push(...item.names);
      ops.push(`into group at line ${u.line + 1}: ${item.text}`);
      k++;
      continue;
    }
    let p = null;
    if (kind === 'line-std') p = stdPath();
    else if (kind === 'line-crate') p = cratePath() ?? stdPath();
    else {
      const a = stdPath();
      const b = a && stdPath();
      if (a && b) {
        const [ma, mb] = [a.path.split('::'), b.path.split('::')];
        p = ma[1] === mb[1]
          ? { path: `${ctx.root}::${ma[1]}::{${ma[2]}, ${mb[2]}}`, names: [...a.names, ...b.names] }
          : { path: `${ctx.root}::{${ma.slice(1).join('::')}, ${mb.slice(1).join('::')}}`, names: [...a.names, ...b.names] };
      } else p = a;
    }
    if (!p) continue;
    k++;
    const before = !at.after || next() < 0.5;
    insertions.push([before ? at.line - 1 : at.line, `${at.indent}use ${p.path};`]);
    unused.push(...p.names);
    ops.push(`new line ${before ? 'before' : 'after'} line ${at.line + 1}: use ${p.path};`);
  }
  if (unused.length === 0) return null;
  insertions.sort((a, b) => b[0] - a[0]);
  for (const [after, t] of insertions) injected.splice(after + 1, 0, t);
  return { injected: injected.join('\n'), reference: lines.join('\n'), ops, unused };
}
