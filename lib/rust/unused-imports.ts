// Which `use` items of a file are unused, as rustc says (its unused_imports lint through `cargo check`), not as
// rust-analyzer guesses: rust-analyzer's remove_unused_imports removed `use core::str;` that `str::Utf8Error` needs.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { TugError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import { cargoCheckArgs, cargoManifests } from '../verify/cargo.js';
import { checkKey, lintsOf, rememberedLints, rememberLints, type Span, type TreeLints } from '../verify/cargo-lints.js';
import { mark } from '../core/timing.js';
import { confinementFor } from '../verify/check-confinement.js';
import { runCheck } from '../verify/run-check.js';
import { callerEnvironment, sandboxEnv } from '../verify/sandbox-env.js';
import { userRepositoryOf } from '../verify/user-checkout.js';

/** A byte span of the file and what rustc suggests in its place ('' to remove). */
export interface Removal {
  start: number;
  end: number;
  text: string;
}

export interface UnusedImports {
  removals: Removal[];
  /** How many imported names the removals take out. */
  removed: number;
  /** Items unused in every build of the file but inside a `use` that is used differently by another build. */
  kept: number;
  /** How many compilations (lib, lib under cfg(test), bins, tests, …) build the file. */
  builds: number;
}

/**
 * Runs `cargo check --all-targets` (confined, like verification) in `tree`, a checkout of the snapshot whose git tree
 * is `treeId`, unless this process has the answer for that tree already (verification's passing check of it, or an
 * earlier one of ours: lib/verify/cargo-lints.ts). An import counts as unused only when every compilation that builds
 * the file flags it: one used only under `#[cfg(test)]` stays. Compilations are counted from cargo's dep-info files.
 */
export async function unusedImports(tree: string, treeId: string, sessionDir: string, file: string, timeoutMs: number): Promise<UnusedImports> {
  const callerEnv = callerEnvironment();
  // The confinement's probes do not depend on the manifest: both at once.
  const confining = userRepositoryOf(tree).then((user) => confinementFor(user, callerEnv));
  confining.catch(() => undefined);
  const [manifest] = await cargoManifests(tree, [file]);
  if (!manifest) throw new TugError('NotCargoProject', `no Cargo.toml above ${file}`, { details: { path: file } });
  const workspace = path.join(tree, path.posix.dirname(manifest));
  // Not verification's target dir: cargo names a workspace member's units alike in the sandbox and here, and would
  // replay the warnings the sandbox's (changed) sources gave when this checkout's files look older.
  const targetDir = path.join(sessionDir, 'cargo-target', `${sha256(manifest).slice(0, 12)}-imports`);
  const out = path.join(targetDir, 'tug-unused-imports.jsonl');
  const confine = await confining;
  const cargoArgs = cargoCheckArgs(path.join(tree, manifest));
  const env = { ...sandboxEnv(callerEnv, []).env, CARGO_TERM_COLOR: 'never' };
  const key = await checkKey({ tree: treeId, root: tree, manifest, cwd: workspace, argv: cargoArgs, env, confinement: confine.confinement, network: confine.mounts.network ?? false });
  let lints = rememberedLints(key);
  if (lints) mark('rust imports: cargo check of this tree remembered');
  else {
    const argv = ['sh', '-c', 'exec "$@" > "$0"', out, 'cargo', ...cargoArgs];
    const run = await runCheck({
      name: 'cargo check', argv, cwd: workspace, timeoutMs, baseEnv: env,
      env: { CARGO_TARGET_DIR: targetDir }, confine: { ...confine, mounts: { ...confine.mounts, writable: [tree] } }, writable: [targetDir],
    });
    const text = await readFile(out, 'utf8').catch(() => '');
    await rm(out, { force: true });
    const read = await lintsOf(text, tree, workspace);
    if (run.status !== 'passed' || read.errors.length > 0) {
      const { errors } = read;
      throw new TugError('UnsupportedByAdapter', `cargo check fails before any change, so rustc cannot say which imports of ${file} are unused`, {
        details: { operation: 'organize-imports', reason: 'cargo check fails before the change', errors: errors.slice(0, 5), offered: [], ...(errors.length === 0 ? { output: (run.output ?? '').slice(-2000) } : {}) },
      });
    }
    lints = read.lints;
    if (read.keep) rememberLints(key, lints);
  }
  return removalsIn(lints, file, path.join(tree, file));
}

/** Which of `lints` fall in `file` and are unused in every build of it, as rustc's own suggested edits. */
async function removalsIn(lints: TreeLints, file: string, absolute: string): Promise<UnusedImports> {
  const builds = lints.builds.get(file) ?? 0;
  const inFile = (s: Span) => s.file_name === file;
  const key = (s: Span) => `${s.byte_start}:${s.byte_end}`;
  const flagged = new Map<string, number>();
  for (const d of lints.unusedImports) for (const s of d.spans) if (s.is_primary && inFile(s)) flagged.set(key(s), (flagged.get(key(s)) ?? 0) + 1);
  let source: Buffer | undefined;
  // Inside a `#[cfg(test)]` item only the test builds compile an import: under `--all-targets` each target's source
  // is built once as itself and once as its tests, so half of the file's builds.
  const tests = [...flagged].some(([, n]) => n < builds) ? testOnlyRanges(source ??= await readFile(absolute)) : [];
  const needed = (k: string) => {
    const start = Number(k.slice(0, k.indexOf(':')));
    return tests.some(([a, b]) => start >= a && start < b) ? Math.max(1, Math.floor(builds / 2)) : builds;
  };
  const unused = new Set([...flagged].filter(([k, n]) => builds > 0 && n >= needed(k)).map(([k]) => k));
  // rustc's own suggestion of a diagnostic whose every flagged item is unused everywhere: it knows the commas and braces.
  const removals: Removal[] = [];
  const covered = new Set<string>();
  for (const d of lints.unusedImports) {
    const primary = d.spans.filter((s) => s.is_primary && inFile(s));
    if (primary.length === 0 || !primary.every((s) => unused.has(key(s))) || primary.every((s) => covered.has(key(s)))) continue;
    const edits = d.children.flatMap((c) => c.spans).filter((s) => typeof s.suggested_replacement === 'string' && inFile(s));
    let proposed = edits.map((s) => ({ start: s.byte_start, end: s.byte_end, text: s.suggested_replacement! }));
    // rustc suggests nothing for a name in a group that also holds `self` (`use std::fmt::{self, Display, Write};`).
    if (proposed.length === 0 && primary.length === 1) proposed = groupItemRemoval(source ??= await readFile(absolute), primary[0]!.byte_start, primary[0]!.byte_end);
    if (proposed.length === 0 || proposed.some((p) => removals.some((r) => p.start < r.end && r.start < p.end))) continue;
    removals.push(...proposed);
    for (const s of primary) covered.add(key(s));
  }
  removals.sort((a, b) => a.start - b.start);
  return { removals, removed: covered.size, kept: [...unused].filter((k) => !covered.has(k)).length, builds };
}

const COMMA = 0x2c;
const isSpace = (b: number | undefined) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/** `, Write` (or `Write, ` when it comes first) out of a braced group; nothing when the name is not between commas. */
function groupItemRemoval(bytes: Buffer, start: number, end: number): Removal[] {
  let before = start;
  while (isSpace(bytes[before - 1])) before--;
  if (bytes[before - 1] === COMMA) return [{ start: before - 1, end, text: '' }];
  let after = end;
  while (isSpace(bytes[after])) after++;
  if (bytes[after] === COMMA) {
    after++;
    while (isSpace(bytes[after])) after++;
    return [{ start, end: after, text: '' }];
  }
  return [];
}

const CFG_TEST = Buffer.from('#[cfg(test)]');
const [OPEN, CLOSE, SEMI, QUOTE, SLASH, STAR, NL, BACKSLASH] = [0x7b, 0x7d, 0x3b, 0x22, 0x2f, 0x2a, 0x0a, 0x5c];

/**
 * Byte ranges of the items under `#[cfg(test)]` at the start of a line (a `mod tests { … }`, a `use`): up to their
 * `;` or the brace that closes their body, skipping strings and comments. Raw strings and char literals holding a brace are not skipped: a
 * range then ends early or late, which can only keep an import (a test-only one flagged in fewer builds) or leave
 * verification to catch a removal.
 */
export function testOnlyRanges(bytes: Buffer): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let at = bytes.indexOf(CFG_TEST); at !== -1; at = bytes.indexOf(CFG_TEST, at + 1)) {
    // Only an attribute that starts its line: the same text in a comment or a string (`// see #[cfg(test)]`) is none.
    const line = bytes.lastIndexOf(NL, at - 1) + 1;
    if (!bytes.subarray(line, at).every((b) => b === 0x20 || b === 0x09)) continue;
    let depth = 0;
    let i = at + CFG_TEST.length;
    for (; i < bytes.length; i++) {
      const b = bytes[i];
      if (b === SLASH && bytes[i + 1] === SLASH) i = Math.max(i, bytes.indexOf(NL, i));
      else if (b === SLASH && bytes[i + 1] === STAR) i = Math.max(i, bytes.indexOf('*/', i + 2) + 1);
      else if (b === QUOTE) {
        for (i++; i < bytes.length && bytes[i] !== QUOTE; i++) if (bytes[i] === BACKSLASH) i++;
      } else if (b === OPEN) depth++;
      else if (b === CLOSE && --depth === 0) break;
      else if (b === SEMI && depth === 0) break;
    }
    ranges.push([at, i + 1]);
  }
  return ranges;
}
