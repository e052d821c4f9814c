// Doc tests (``` blocks in /// and //! comments) are code cargo test compiles: shown to rust-analyzer as a module so its rename reaches them.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RustAnalyzer } from './lsp-client.js';

/** A run of doc-test code: `length` bytes at `generated` in the appended module come from `original` in `file`. */
interface Segment {
  file: string;
  generated: number;
  original: number;
  length: number;
}

export interface DocTestOverlay {
  /** The crate root with the doc-test module appended (what rust-analyzer is shown instead of the file on disk). */
  text: Uint8Array;
  /** Where a span of the overlaid crate root really is: itself before the module, a doc comment inside it, null elsewhere. */
  locate(start: number, end: number): { file: string; start: number; end: number } | null;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const RUST_FENCE = /^(rust|ignore|no_run|should_panic|compile_fail|test_harness|edition\d+|allow_fail|standalone_crate|,|\s)*$/;

/** Code lines of the doc tests in one file, each with the byte offset where its code starts. */
export function docTestLines(bytes: Uint8Array): Array<{ blockId: number; start: number; code: string }> {
  const text = Buffer.from(bytes).toString('latin1');
  const lines: Array<{ blockId: number; start: number; code: string }> = [];
  let fence: string | null = null;
  let blockId = 0;
  for (const match of text.matchAll(/^[ \t]*\/\/[/!](?![/!]) ?(.*)$/gm)) {
    const content = match[1]!.replace(/\r$/, '');
    const contentStart = match.index + match[0].length - match[1]!.length;
    const fenceMatch = /^\s*(```+|~~~+)(.*)$/.exec(content);
    if (fenceMatch) {
      if (fence === null) {
        fence = RUST_FENCE.test(fenceMatch[2]!.trim()) ? fenceMatch[1]! : `skip${fenceMatch[1]!}`;
        blockId++;
      } else if (fence.endsWith(fenceMatch[1]!) && fenceMatch[2]!.trim() === '') fence = null;
      continue;
    }
    if (fence === null || fence.startsWith('skip')) continue;
    // `# hidden` lines are compiled too; `##` stands for a literal `#`.
    const hidden = /^#( |$)/.exec(content) ? content.startsWith('# ') ? 2 : 1 : 0;
    lines.push({ blockId, start: contentStart + hidden, code: decoder.decode(Buffer.from(content.slice(hidden), 'latin1')) });
  }
  return lines;
}

/**
 * The crate root with `mod __tug_doctests` appended: one function per doc test, the crate reachable under its own name
 * (`use crate as name;`), so paths such as `name::Span::new` resolve as they do when cargo test compiles the example.
 * Null when no doc test mentions `word`.
 */
export function docTestOverlay(rootFile: string, rootBytes: Uint8Array, files: ReadonlyMap<string, Uint8Array>, crateName: string, word: string, edition2015 = false): DocTestOverlay | null {
  const segments: Segment[] = [];
  let body = '';
  // Edition 2015 reads a `use` path from the crate root, so `use strsim::hamming;` in a doc test needs the crate's name
  // there too (strsim: without it the doc test's calls resolved to nothing and were left unrenamed).
  const alias = edition2015 ? `\n#[allow(unused)]\nextern crate self as ${crateName};` : '';
  const header = `${alias}\n#[allow(unused, dead_code, unused_imports)]\nmod __tug_doctests {\n    use crate as ${crateName};\n`;
  const base = rootBytes.length + encoder.encode(header).length;
  let size = 0;
  const append = (s: string) => {
    body += s;
    size += encoder.encode(s).length;
  };
  for (const [file, bytes] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!decoder.decode(bytes).includes(word)) continue;
    const lines = docTestLines(bytes);
    if (!lines.some((l) => l.code.includes(word))) continue;
    let block = -1;
    for (const line of lines) {
      if (line.blockId !== block) {
        if (block !== -1) append('}\n');
        block = line.blockId;
        append(`fn doctest_${segments.length}() {\n`);
      }
      segments.push({ file, generated: size, original: line.start, length: encoder.encode(line.code).length });
      append(`${line.code}\n`);
    }
    if (block !== -1) append('}\n');
  }
  if (segments.length === 0) return null;
  const text = new Uint8Array([...rootBytes, ...encoder.encode(`${header}${body}}\n`)]);
  return {
    text,
    locate(start, end) {
      if (end <= rootBytes.length) return { file: rootFile, start, end };
      const at = start - base;
      const segment = segments.find((s) => s.generated <= at && at - s.generated + (end - start) <= s.length);
      return segment ? { file: segment.file, start: segment.original + at - segment.generated, end: segment.original + at - segment.generated + (end - start) } : null;
    },
  };
}

/** The crate's name as code spells it: `[lib] name`, else `[package] name` with `-` as `_`. */
export function crateNameOf(manifest: string): string | null {
  const section = (name: string) => new RegExp(`^\\[${name}\\]([\\s\\S]*?)(?=^\\[|(?![\\s\\S]))`, 'm').exec(manifest)?.[1] ?? '';
  const name = /^\s*name\s*=\s*"([^"]+)"/m.exec(section('lib'))?.[1] ?? /^\s*name\s*=\s*"([^"]+)"/m.exec(section('package'))?.[1];
  return name ? name.replaceAll('-', '_') : null;
}

/** The `[package] edition` of a manifest; Cargo's default, 2015, when it has none. */
export function editionOf(manifest: string): string {
  const pkg = /^\[package\]([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(manifest)?.[1] ?? '';
  return /^\s*edition\s*=\s*"(\d+)"/m.exec(pkg)?.[1] ?? '2015';
}

/**
 * Shows rust-analyzer the crate root with its doc tests appended (in memory: the file on disk is not touched), runs
 * `body`, then shows it the real file again. Without a lib crate root or a doc test naming `word`, just runs `body`.
 */
export async function withDocTests<T>(
  server: RustAnalyzer,
  crate: { root: string; dir: string; files: ReadonlyMap<string, Uint8Array> },
  word: string,
  body: (overlay: (DocTestOverlay & { file: string }) | null) => Promise<T>,
): Promise<T> {
  const rootFile = crate.dir === '' ? 'src/lib.rs' : `${crate.dir}/src/lib.rs`;
  const rootBytes = crate.files.get(rootFile);
  const manifest = rootBytes ? await readFile(path.join(crate.root, 'Cargo.toml'), 'utf8').catch(() => null) : null;
  const name = manifest ? crateNameOf(manifest) : null;
  const prefix = crate.dir === '' ? 'src/' : `${crate.dir}/src/`;
  const own = new Map([...crate.files].filter(([f]) => f.startsWith(prefix)));
  const overlay = rootBytes && name ? docTestOverlay(rootFile, rootBytes, own, name, word, editionOf(manifest!) === '2015') : null;
  if (!overlay) return body(null);
  const onDisk = path.join(crate.root, 'src', 'lib.rs');
  await server.showText(onDisk, decoder.decode(overlay.text));
  try {
    return await body({ ...overlay, file: rootFile });
  } finally {
    if (server.alive) await server.showText(onDisk, decoder.decode(rootBytes));
  }
}
