// Formats what organize-imports changed as rustfmt would, with the project's rustfmt.toml: the whole file when
// rustfmt changed nothing but its imports before (the result is then `cargo fmt`'s), else only the `use` blocks that
// changed, so code the user did not ask about is never reformatted.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadExeca } from '../verify/execa.js';

export interface RustfmtSettings {
  edition: string;
  /** rustfmt.toml or .rustfmt.toml nearest above the file inside the checkout, if any. */
  configPath: string | null;
  maxWidth: number;
  /** No `blank_lines_*` setting: rustfmt keeps at most one blank line and adds none. */
  defaultBlankLines: boolean;
}

/** The settings `cargo fmt` would use for `file` (repo-relative) in the checkout `tree`. */
export async function rustfmtSettings(tree: string, file: string): Promise<RustfmtSettings> {
  let edition: string | null = null;
  let configPath: string | null = null;
  for (let dir = path.posix.dirname(file); ; dir = path.posix.dirname(dir)) {
    const here = path.join(tree, dir === '.' ? '' : dir);
    if (configPath === null) {
      for (const name of ['rustfmt.toml', '.rustfmt.toml']) {
        if (configPath === null && (await readFile(path.join(here, name), 'utf8').then(() => true, () => false))) configPath = path.join(here, name);
      }
    }
    const manifest = await readFile(path.join(here, 'Cargo.toml'), 'utf8').catch(() => null);
    const stated = manifest ? /^\s*edition\s*=\s*"(\d{4})"/m.exec(manifest) : null;
    if (edition === null && stated) edition = stated[1]!;
    if (dir === '.') break;
  }
  const config = configPath ? await readFile(configPath, 'utf8') : '';
  const width = /^\s*max_width\s*=\s*(\d+)/m.exec(config);
  return { edition: edition ?? '2015', configPath, maxWidth: width ? Number(width[1]) : 100, defaultBlankLines: !/^\s*blank_lines_/m.test(config) };
}

/** rustfmt's output for `text` (stdin, no `mod` followed), or null when rustfmt refuses it. */
export async function rustfmt(text: string, settings: RustfmtSettings, maxWidth = settings.maxWidth): Promise<string | null> {
  const execa = await loadExeca();
  const args = ['--edition', settings.edition, '--emit', 'stdout', '--quiet', '--config', `max_width=${maxWidth}`];
  if (settings.configPath) args.push('--config-path', settings.configPath);
  const result = await execa('rustfmt', args, { input: text, reject: false, timeout: 60_000, stripFinalNewline: false, cwd: settings.configPath ? path.dirname(settings.configPath) : '/' });
  return result.exitCode === 0 ? String(result.stdout) : null;
}

export type FormatMode = 'whole file' | 'changed use blocks';

/**
 * rustfmt's output for the file before the removals, when everything rustfmt changes there is inside its `use`
 * blocks (nothing when the file is clean): then formatting the whole file reformats no code the user did not ask
 * about, only the imports (an edit's unsorted or split `use` items), as `cargo fmt` would. Null otherwise.
 */
export async function formattedImportsOnly(before: string, settings: RustfmtSettings): Promise<string | null> {
  const out = await rustfmt(before, settings);
  if (out === null || out === before) return out;
  const [a, b] = [outsideImports(before), outsideImports(out)];
  return a.length === b.length && a.every((part, i) => part === b[i]) ? out : null;
}

/** The text between the file's import regions (`use` blocks and the blank lines between them), in order. */
function outsideImports(text: string): string[] {
  const lines = text.split('\n');
  const parts: string[] = [];
  let at = 0;
  let region: Block | null = null;
  const close = () => {
    if (region) (parts.push(lines.slice(at, region.first).join('\n')), (at = region.last + 1));
  };
  for (const b of useBlocks(lines)) {
    if (region && lines.slice(region.last + 1, b.first).every((l) => l.trim() === '')) region.last = b.last;
    else close(), (region = { ...b });
  }
  close();
  parts.push(lines.slice(at).join('\n'));
  return parts;
}

/**
 * `after` (the file with the removals applied on `changedLines`, 0-based lines of `after`) formatted as this file
 * allows; `wasClean` says whether rustfmt changed nothing but imports in the file before the removals.
 */
export async function formatImports(after: string, changedLines: readonly number[], settings: RustfmtSettings, wasClean: boolean): Promise<{ text: string; mode: FormatMode }> {
  if (wasClean) {
    const whole = await rustfmt(after, settings);
    if (whole !== null) return { text: whole, mode: 'whole file' };
  }
  return { text: await formatBlocks(after, changedLines, settings), mode: 'changed use blocks' };
}

interface Block {
  first: number;
  last: number;
}

/** Runs of `use` items (with their attributes) on consecutive lines: what rustfmt sorts together. */
function useBlocks(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const start = i;
    let j = i;
    while (/^\s*#\[[^\]]*\]\s*$/.test(lines[j] ?? '')) j++;
    if (!/^\s*(pub(\([^)]*\))?\s+)?use\s/.test(lines[j] ?? '')) {
      i++;
      continue;
    }
    let depth = 0;
    for (; j < lines.length; j++) {
      for (const c of lines[j]!.replace(/\/\/.*$/, '')) depth += c === '{' ? 1 : c === '}' ? -1 : 0;
      if (depth <= 0 && /;\s*(\/\/.*)?$/.test(lines[j]!)) break;
    }
    const last = Math.min(j, lines.length - 1);
    const previous = blocks.at(-1);
    if (previous && previous.last === start - 1) previous.last = last;
    else blocks.push({ first: start, last });
    i = last + 1;
  }
  return blocks;
}

async function formatBlocks(text: string, changedLines: readonly number[], settings: RustfmtSettings): Promise<string> {
  const lines = text.split('\n');
  const touched = new Set(changedLines);
  const blocks = useBlocks(lines).filter((b) => [...touched].some((l) => l >= b.first && l <= b.last));
  // From the end, so earlier line numbers stay right.
  for (const block of blocks.reverse()) {
    const own = lines.slice(block.first, block.last + 1);
    const indent = /^\s*/.exec(own[0]!)![0];
    if (!own.every((l) => l.trim() === '' || l.startsWith(indent))) continue;
    const formatted = await rustfmt(`${own.map((l) => l.slice(indent.length)).join('\n')}\n`, settings, Math.max(20, settings.maxWidth - indent.length));
    if (formatted === null) continue;
    const out = formatted.replace(/\n$/, '').split('\n').map((l) => (l === '' ? l : indent + l));
    lines.splice(block.first, own.length, ...out);
  }
  return lines.join('\n');
}
