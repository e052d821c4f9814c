// What a passing `cargo check` of one tree said about unused imports, remembered per tree: organize-imports on a tree
// that verification (or an earlier organize-imports, for any file) has checked needs no `cargo check` of its own.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { sha256 } from '../core/hash.js';

export interface Span { file_name: string; byte_start: number; byte_end: number; is_primary: boolean; suggested_replacement?: string | null }
export interface Diagnostic { level: string; message: string; code?: { code: string } | null; spans: Span[]; children: Diagnostic[] }

export interface TreeLints {
  /** rustc's unused_imports diagnostics, every span's file name made relative to the tree's root (posix). */
  unusedImports: Diagnostic[];
  /** For each file of the tree (relative to its root): how many compilations (lib, lib under cfg(test), bins, tests, …) build it. */
  builds: Map<string, number>;
}

/** Everything a check's answer depends on besides the files outside the tree (see checkKey). */
export interface CheckIdentity {
  /** The git tree the checkout holds: its content, exactly. */
  tree: string;
  /** The checkout's root (absolute); paths below it are keyed relative to it. */
  root: string;
  /** Repo-relative Cargo.toml the check built. */
  manifest: string;
  /** Where cargo ran: it reads `.cargo/config.toml` from there upwards. */
  cwd: string;
  /** cargo's arguments. */
  argv: readonly string[];
  /** The environment cargo ran with, but its target dir (where it builds changes nothing it says). */
  env: Record<string, string>;
  confinement: string;
  network: boolean;
}

/**
 * The key under which a check's answer is kept: the tree, the manifest, the flags, the environment (PATH, RUSTFLAGS,
 * CARGO_*, …), the confinement, and the toolchain those pick (the cargo and rustc found on PATH, rustup's settings
 * and its toolchains dir, by file identity and time). What it cannot see: a build script that reads files outside the
 * tree (which verification's own incremental check would not see either).
 */
export async function checkKey(id: CheckIdentity): Promise<string> {
  const relative = (p: string) => (path.isAbsolute(p) && isInside(p, id.root) ? `<root>/${path.relative(id.root, p)}` : p);
  const env = Object.keys(id.env).filter((k) => k !== 'CARGO_TARGET_DIR').sort().map((k) => `${k}=${id.env[k]}`);
  return sha256([id.tree, id.manifest, relative(id.cwd), id.argv.map(relative).join(' '), id.confinement, String(id.network), await toolchainStamp(id.env), ...env].join('\0'));
}

/** The cargo and rustc that `env`'s PATH finds and rustup's settings, by file identity and time: changes when the toolchain does. */
export async function toolchainStamp(env: Record<string, string | undefined>): Promise<string> {
  const parts: string[] = [];
  for (const tool of ['cargo', 'rustc']) {
    for (const dir of (env['PATH'] ?? '').split(':').filter((d) => path.isAbsolute(d))) {
      const found = await stat(path.join(dir, tool)).catch(() => null);
      if (!found?.isFile()) continue;
      parts.push(`${dir}/${tool}:${found.ino}:${found.size}:${found.mtimeMs}`);
      break;
    }
  }
  const rustup = env['RUSTUP_HOME'] || (env['HOME'] ? path.join(env['HOME'], '.rustup') : '');
  if (rustup) for (const name of ['settings.toml', 'toolchains']) parts.push(`${name}:${(await stat(path.join(rustup, name)).catch(() => null))?.mtimeMs ?? '-'}`);
  return parts.join('|');
}

interface Message {
  reason: string;
  message?: Diagnostic;
  filenames?: string[];
  package_id?: string;
  manifest_path?: string;
}

/**
 * The unused-import lints and the build counts of a passing check's JSON messages (`--message-format=json` on stdout),
 * read in `workspace` (where rustc's relative file names start) of the checkout at `root`, and its errors. `keep` is
 * false when it has errors, or when the answer also depends on a path dependency outside the tree, which the tree's
 * id does not cover.
 */
export async function lintsOf(stdout: string, root: string, workspace: string): Promise<{ lints: TreeLints; keep: boolean; errors: string[] }> {
  const messages = stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Message);
  const toRoot = (name: string) => {
    const absolute = path.resolve(workspace, name);
    return isInside(absolute, root) ? path.relative(root, absolute).split(path.sep).join('/') : null;
  };
  let keep = true;
  const builds = new Map<string, number>();
  for (const m of messages) {
    if (m.reason !== 'compiler-artifact') continue;
    const inTree = m.manifest_path !== undefined && isInside(m.manifest_path, root);
    if (m.package_id?.includes('path+file://') && !inTree) keep = false;
    // A dependency from a registry or git builds none of the tree's files: its dep-info is not read.
    if (!inTree) continue;
    for (const f of m.filenames ?? []) {
      if (!f.endsWith('.rmeta')) continue;
      for (const name of await depInfoNames(f, workspace)) {
        const file = toRoot(name);
        if (file !== null) builds.set(file, (builds.get(file) ?? 0) + 1);
      }
    }
  }
  const relativeSpans = (d: Diagnostic): Diagnostic => ({
    ...d,
    spans: d.spans.map((s) => ({ ...s, file_name: toRoot(s.file_name) ?? s.file_name })),
    children: d.children.map(relativeSpans),
  });
  const unusedImports = messages.filter((m) => m.reason === 'compiler-message' && m.message?.code?.code === 'unused_imports').map((m) => relativeSpans(m.message!));
  const errors = messages.filter((m) => m.reason === 'compiler-message' && m.message?.level === 'error').map((m) => m.message!.message);
  return { lints: { unusedImports, builds }, keep: keep && errors.length === 0, errors };
}

/** The files a dep-info file beside an .rmeta (deps/libfoo-HASH.rmeta → deps/foo-HASH.d) lists, each once. */
async function depInfoNames(rmeta: string, workspace: string): Promise<Set<string>> {
  const stem = path.basename(rmeta, '.rmeta').replace(/^lib/, '');
  const text = await readFile(path.join(path.dirname(rmeta), `${stem}.d`), 'utf8').catch(() => '');
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const colon = line.indexOf(': ');
    if (colon < 0) continue;
    for (const n of line.slice(colon + 2).split(/(?<!\\) /)) if (n !== '') names.add(path.resolve(workspace, n.replaceAll('\\ ', ' ')));
  }
  return names;
}

function isInside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

const MEMO_SIZE = 32;
const remembered = new Map<string, TreeLints>();

export function rememberLints(key: string, lints: TreeLints): void {
  remembered.delete(key);
  remembered.set(key, lints);
  while (remembered.size > MEMO_SIZE) remembered.delete(remembered.keys().next().value!);
}

export function rememberedLints(key: string): TreeLints | undefined {
  return remembered.get(key);
}
