// organize-imports for one Rust file: rustc's unused imports removed (lib/rust/unused-imports.ts), then rustfmt over
// the whole file if rustfmt changed nothing but imports there, else over the changed `use` blocks only
// (lib/rust/rustfmt-imports.ts). A
// process that stays (the daemon) remembers the plan of a snapshot's file, so asking again costs no cargo check, and
// a check of the same tree (verification's, or one for another file) answers rustc's part (unused-imports.ts).
import type { EditRequest } from '../core/patchset.js';
import type { Repo } from '../git/repo.js';
import { readBlobs } from '../git/objects.js';
import { listTreePaths } from '../git/snapshot.js';
import { TugError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import { mark } from '../core/timing.js';
import { callerEnvironment } from '../verify/sandbox-env.js';
import { toolchainStamp } from '../verify/cargo-lints.js';
import { withAnalysisTree } from './servers.js';
import { formatImports, formattedImportsOnly, rustfmtSettings, type FormatMode } from './rustfmt-imports.js';
import { unusedImports, type Removal } from './unused-imports.js';

export interface ImportsInput {
  repo: Repo;
  session: { dir: string; paths: { workers: string } };
  tree: string;
  commit: string;
  file: string;
  timeoutMs: number;
  noWait?: boolean | undefined;
}

export interface ImportsPlan {
  edits: EditRequest[];
  removed: number;
  /** Unused in every build, but inside a `use` another build reads differently: left alone. */
  kept: number;
  mode: FormatMode | null;
}

const decoder = new TextDecoder();

export async function planRustImports(input: ImportsInput): Promise<ImportsPlan> {
  const entry = (await listTreePaths(input.repo, input.tree)).find((e) => e.path === input.file && e.type === 'blob');
  if (!entry) throw new TugError('FileNotFound', `${input.file} is not a file of the workspace`, { details: { path: input.file } });
  const key = await memoKey(input);
  const known = remembered.get(key);
  if (known) {
    mark('rust imports: plan remembered for this snapshot');
    return known;
  }
  const original = Buffer.from((await readBlobs(input.repo, [entry.oid])).get(entry.oid)!);
  // Not even the word `use` (in code, a comment or a macro): no import can be unused, nothing to build.
  if (!/\buse\b/.test(decoder.decode(original))) return { edits: [], removed: 0, kept: 0, mode: null };
  const plan = await withAnalysisTree(input, async (tree) => {
    mark('rust imports: analysis tree ready');
    const before = decoder.decode(original);
    // cargo check is the long step: it starts first. What rustfmt would change in the file does not depend on its answer.
    // Everything started here ends before the analysis tree's lock is let go, a failure included.
    const checked = unusedImports(tree, input.tree, input.session.dir, input.file, input.timeoutMs);
    const configured = rustfmtSettings(tree, input.file);
    // rustfmt's output when it changes nothing but imports (unsorted or split `use` items an edit left): the whole
    // file may then be formatted, as `cargo fmt` would.
    const importsOnly = configured.then((s) => formattedImportsOnly(before, s).catch(() => null), () => null);
    const [foundR, settingsR] = await Promise.allSettled([checked, configured]);
    if (foundR.status === 'rejected' || settingsR.status === 'rejected') {
      await importsOnly;
      throw foundR.status === 'rejected' ? foundR.reason : (settingsR as PromiseRejectedResult).reason;
    }
    const found = foundR.value;
    const settings = settingsR.value;
    mark('rust imports: unused imports known');
    if (found.removals.length === 0) {
      // Nothing unused: only an import order rustfmt would change, in a file it otherwise leaves alone, is organized.
      const sorted = await importsOnly;
      const edits = sorted === null ? [] : minimalEdit(input.file, before, sorted);
      return { edits, removed: 0, kept: found.kept, mode: edits.length ? ('whole file' as const) : null };
    }
    const parts: Buffer[] = [];
    const changedLines: number[] = [];
    const taken: Removal[] = [];
    let at = 0;
    for (const removal of found.removals) {
      const r = wholeLine(original, removal, at);
      parts.push(original.subarray(at, r.start));
      changedLines.push(lineCount(parts) - 1);
      const text = Buffer.from(r.text);
      parts.push(text);
      taken.push(r);
      at = r.end;
    }
    parts.push(original.subarray(at));
    const result = Buffer.concat(parts);
    const after = decoder.decode(result);
    const formatted = await importsOnly;
    // A rustfmt-clean file that lost only whole `use` statements is what rustfmt would make of it: no second run.
    if (formatted === before && settings.defaultBlankLines && staysFormatted(original, taken)) {
      mark('rust imports: formatted (whole use statements of a clean file removed)');
      return { edits: minimalEdit(input.file, before, after), removed: found.removed, kept: found.kept, mode: 'whole file' as const };
    }
    const { text, mode } = await formatImports(after, changedLines, settings, formatted !== null);
    mark('rust imports: formatted');
    return { edits: minimalEdit(input.file, before, text), removed: found.removed, kept: found.kept, mode };
  });
  remember(key, plan);
  return plan;
}

/**
 * The plan depends on the snapshot's tree (sources, manifests, rustfmt.toml, rust-toolchain) and on the toolchain
 * the caller's environment picks (its variables, and the cargo, rustc and rustup settings they find); nothing else
 * the plan reads can change under the same key.
 */
async function memoKey(input: ImportsInput): Promise<string> {
  const env = callerEnvironment();
  const toolchain = Object.keys(env).filter((k) => /^(PATH$|RUST|CARGO)/.test(k)).sort().map((k) => `${k}=${env[k]}`);
  return sha256([input.session.dir, input.tree, input.file, await toolchainStamp(env), ...toolchain].join('\0'));
}

const MEMO_SIZE = 32;
const remembered = new Map<string, ImportsPlan>();

function remember(key: string, plan: ImportsPlan): void {
  remembered.delete(key);
  remembered.set(key, plan);
  while (remembered.size > MEMO_SIZE) remembered.delete(remembered.keys().next().value!);
}

const NEWLINE = 10;
const blank = (bytes: Buffer, from: number, to: number) => bytes.subarray(from, to).every((b) => b === 0x20 || b === 0x09 || b === 0x0d);

/**
 * A removal that empties its line (rustc's suggestion takes the `use` item and its newline but not the indentation
 * before it, or the item alone) taken with the whole line, so no whitespace-only line stays where it was: the changed
 * `use` blocks are formatted alone and would keep it. Never reaching back before `floor`, the previous removal's end.
 */
function wholeLine(bytes: Buffer, r: Removal, floor: number): Removal {
  if (r.text !== '') return r;
  const start = r.start === 0 ? 0 : bytes.lastIndexOf(NEWLINE, r.start - 1) + 1;
  if (start < floor || !blank(bytes, start, r.start)) return r;
  if (bytes[r.end - 1] === NEWLINE) return { ...r, start };
  const end = bytes.indexOf(NEWLINE, r.end);
  return end !== -1 && blank(bytes, r.end, end) ? { ...r, start, end: end + 1 } : r;
}

/** A `use` statement or several, each on lines of its own (no attribute, no code, no `;` in a comment). */
const WHOLE_USES = /^(?:[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?use\s[^;#]*;[ \t\r]*\n)+$/;

/**
 * Whether removing `removals` (whole lines, in order) from the rustfmt-clean `original` leaves a rustfmt-clean file:
 * each removal takes whole `use` statements, and no blank line is left where rustfmt would drop it (two in a row, at
 * the start of the file or of a block, before a block's end, at the end of the file), and no attribute or doc comment
 * is right above the gap. Anything else is formatted by rustfmt itself.
 */
export function staysFormatted(original: Buffer, removals: readonly Removal[]): boolean {
  if (removals.some((r) => r.text !== '')) return false;
  const lineAt = (from: number) => {
    const end = original.indexOf(NEWLINE, from);
    return decoder.decode(original.subarray(from, end === -1 ? original.length : end)).trim();
  };
  for (let i = 0; i < removals.length; i++) {
    const start = removals[i]!.start;
    let end = removals[i]!.end;
    // Removals that touch make one gap.
    while (i + 1 < removals.length && removals[i + 1]!.start === end) end = removals[++i]!.end;
    if ((start !== 0 && original[start - 1] !== NEWLINE) || original[end - 1] !== NEWLINE) return false;
    if (!WHOLE_USES.test(decoder.decode(original.subarray(start, end)))) return false;
    const before = start === 0 ? null : lineAt(start < 2 ? 0 : original.lastIndexOf(NEWLINE, start - 2) + 1);
    const next = end >= original.length ? null : lineAt(end);
    if (next === '' && (before === null || before === '' || before.endsWith('{'))) return false;
    if (before === '' && (next === null || next.startsWith('}'))) return false;
    if (before !== null && before.endsWith('{') && next !== null && next.startsWith('}')) return false;
    if (before !== null && /^(#\[|\/\/\/|\/\*\*)|\*\/$/.test(before)) return false;
  }
  return true;
}

function lineCount(parts: readonly Buffer[]): number {
  let n = 1;
  for (const p of parts) for (const b of p) if (b === 10) n++;
  return n;
}

/** One edit spanning from the first to the last byte that differs. */
function minimalEdit(file: string, before: string, after: string): EditRequest[] {
  if (before === after) return [];
  const a = Buffer.from(before);
  const b = Buffer.from(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  // Back to a line start, so the edit never splits a UTF-8 character.
  while (start > 0 && a[start - 1] !== 10) start--;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  while (end > 0 && a[a.length - end - 1] !== 10) end--;
  return [{ file, span: { start, end: a.length - end }, old_text: decoder.decode(a.subarray(start, a.length - end)), new_text: decoder.decode(b.subarray(start, b.length - end)) }];
}
