// Reads agent-written unified diffs (git or plain) into per-file changes, and turns hunks into exact, fuzz-free span edits.
import { parsePatch } from 'diff';
import { TugError } from './errors.js';
import type { EditRequest } from './patchset.js';
import { textStyle } from './text-edits.js';
import { utf8Length } from './text.js';

export interface Hunk {
  oldStart: number;
  oldLines: number;
  lines: string[];
}

export interface FilePatch {
  /** Repo-relative as written in the patch (a/ and b/ prefixes removed); null for /dev/null. */
  oldPath: string | null;
  newPath: string | null;
  newMode?: string;
  hunks: Hunk[];
}

function invalid(reason: string): never {
  throw new TugError('InvalidArgument', `patch: ${reason}`, { details: { argument: 'patch', reason } });
}

function stripPrefix(name: string | undefined, prefix: 'a/' | 'b/'): string | null {
  if (name === undefined || name === '') return null;
  const bare = name.split('\t')[0]!.trim();
  if (bare === '/dev/null') return null;
  return bare.startsWith(prefix) ? bare.slice(2) : bare;
}

/** Splits on `diff --git` so git's rename and mode headers are read, then lets `diff` parse each file's hunks. */
export function parseUnifiedPatch(text: string): FilePatch[] {
  const normalized = text.replace(/\r\n/g, '\n');
  const chunks = /^diff --git /m.test(normalized) ? normalized.split(/^(?=diff --git )/m).filter((c) => c.startsWith('diff --git ')) : [normalized];
  const files: FilePatch[] = [];
  for (const chunk of chunks) {
    const git = chunk.startsWith('diff --git ') ? gitHeader(chunk) : null;
    if (/^(Binary files |GIT binary patch)/m.test(chunk)) invalid('binary patches are not supported');
    let parsed: ReturnType<typeof parsePatch>;
    try {
      parsed = parsePatch(chunk);
    } catch (error) {
      invalid((error as Error).message);
    }
    const withHunks = parsed.filter((p) => p.hunks.length > 0 || p.oldFileName || p.newFileName);
    if (git) {
      refuseModes(git);
      const p = withHunks[0];
      const oldPath = git.created ? null : (git.renameFrom ?? stripPrefix(p?.oldFileName, 'a/') ?? git.a);
      const newPath = git.deleted ? null : (git.renameTo ?? stripPrefix(p?.newFileName, 'b/') ?? git.b);
      files.push({ oldPath, newPath, ...(git.newMode ? { newMode: git.newMode } : {}), hunks: (p?.hunks ?? []).map(toHunk) });
      continue;
    }
    for (const p of withHunks) {
      files.push({ oldPath: stripPrefix(p.oldFileName, 'a/'), newPath: stripPrefix(p.newFileName, 'b/'), hunks: p.hunks.map(toHunk) });
    }
  }
  if (files.length === 0) invalid('no file changes found (expected unified diff headers --- a/FILE, +++ b/FILE and @@ hunks)');
  for (const f of files) if (f.oldPath === null && f.newPath === null) invalid('a file goes from /dev/null to /dev/null');
  return files;
}

function toHunk(h: { oldStart: number; oldLines: number; lines: string[] }): Hunk {
  return { oldStart: h.oldStart, oldLines: h.oldLines, lines: h.lines };
}

function gitHeader(chunk: string) {
  const lines = chunk.split('\n');
  const names = /^diff --git a\/(.+) b\/(.+)$/.exec(lines[0]!);
  const header = lines.slice(1, Math.max(1, lines.findIndex((l) => l.startsWith('--- ') || l.startsWith('@@')))).filter(Boolean);
  const value = (key: string) => header.find((l) => l.startsWith(key))?.slice(key.length).trim();
  return {
    a: names?.[1] ?? null,
    b: names?.[2] ?? null,
    renameFrom: value(`rename from `) ?? null,
    renameTo: value('rename to ') ?? null,
    created: header.some((l) => l.startsWith('new file mode')),
    deleted: header.some((l) => l.startsWith('deleted file mode')),
    newMode: value('new file mode ') ?? value('new mode '),
    oldMode: value('old mode ') ?? value('deleted file mode '),
    indexMode: /^index [0-9a-f]+\.\.[0-9a-f]+ (\d+)$/.exec(header.find((l) => l.startsWith('index ')) ?? '')?.[1],
  };
}

const MODE_NAMES: Record<string, string> = { '120000': 'symlink', '160000': 'submodule (gitlink)' };

/**
 * Symlinks and submodules are not text files: a patch that creates, changes or deletes one is refused rather than
 * turned into a regular file. So is a mode change of a regular file, which tug would otherwise drop.
 */
function refuseModes(git: ReturnType<typeof gitHeader>): void {
  const name = git.b ?? git.a ?? 'a file';
  for (const mode of [git.newMode, git.oldMode, git.indexMode]) {
    if (mode !== undefined && MODE_NAMES[mode]) invalid(`${name}: ${MODE_NAMES[mode]} entries (mode ${mode}) cannot be patched; change them with git`);
    if (mode !== undefined && mode !== '100644' && mode !== '100755') invalid(`${name}: unknown file mode ${mode}`);
  }
  if (git.oldMode !== undefined && git.newMode !== undefined && !git.created && !git.deleted && git.oldMode !== git.newMode) {
    invalid(`${name}: mode changes (${git.oldMode} → ${git.newMode}) are not supported; change the mode with git`);
  }
}

interface Line {
  text: string;
  start: number;
  end: number;
  eol: string;
}

function splitLines(text: string): Line[] {
  const out: Line[] = [];
  let byte = 0;
  for (const piece of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    const eol = piece.endsWith('\r\n') ? '\r\n' : piece.endsWith('\n') ? '\n' : '';
    const length = utf8Length(piece);
    out.push({ text: piece.slice(0, piece.length - eol.length), start: byte, end: byte + length, eol });
    byte += length;
  }
  return out;
}

/**
 * Each hunk's old side (context and removed lines) must appear exactly, line for line, at its stated line or,
 * failing that, at the nearest place after the previous hunk (git apply's offsets, never its fuzz).
 * Line breaks are not compared: an LF patch applies to a CRLF file and the new lines get the file's breaks.
 */
export function hunkEdits(file: string, text: string, hunks: readonly Hunk[]): EditRequest[] {
  const lines = splitLines(text);
  const eol = textStyle(text).eol;
  const edits: EditRequest[] = [];
  let floor = 0;
  for (const [index, hunk] of hunks.entries()) {
    const oldSide: string[] = [];
    // A context line remembers its old line (kept byte for byte); an added line the removed line it replaces, whose
    // line break it takes, so a file with mixed line endings keeps them.
    const newSide: Array<{ text: string; eol: boolean; context?: number; replaces?: number }> = [];
    let removedRun: number[] = [];
    let addedInRun = 0;
    // `\ No newline at end of file` after a + or context line: that new line ends without a break.
    let previous = '';
    for (const raw of hunk.lines) {
      const tag = raw[0];
      const body = raw.slice(1);
      if (tag === '\\') {
        if (previous === '+' || previous === ' ') newSide.at(-1)!.eol = false;
        continue;
      }
      if (tag === ' ' || (tag === '-' && previous !== '-')) (removedRun = []), (addedInRun = 0);
      previous = tag ?? '';
      if (tag === ' ' || tag === '-') oldSide.push(body.replace(/\r$/, ''));
      if (tag === '-') removedRun.push(oldSide.length - 1);
      if (tag === ' ') newSide.push({ text: body.replace(/\r$/, ''), eol: true, context: oldSide.length - 1 });
      if (tag === '+') {
        const replaces = removedRun[addedInRun] ?? removedRun.at(-1) ?? (oldSide.length > 0 ? oldSide.length - 1 : undefined);
        addedInRun++;
        newSide.push({ text: body.replace(/\r$/, ''), eol: true, ...(replaces !== undefined ? { replaces } : {}) });
      }
    }
    const aware = hunk.lines.some((l) => l.startsWith('\\'));
    // `diff` reports an insertion after line N (`-N,0`) as oldStart N+1, so one formula serves both.
    const expected = hunk.oldStart - 1;
    const at = locate(lines, oldSide, expected, floor);
    if (at === null) {
      throw new TugError('AnchorMismatch', `hunk ${index + 1} of ${file} does not match the file at line ${hunk.oldStart} or anywhere after the previous hunk`, {
        details: { path: file, hunk: index + 1, expected_line: hunk.oldStart, expected: oldSide.join('\n'), actual: lines.slice(Math.max(0, expected), Math.max(0, expected) + oldSide.length).map((l) => l.text).join('\n') },
      });
    }
    const start = lines[at]?.start ?? utf8Length(text);
    const end = oldSide.length === 0 ? start : lines[at + oldSide.length - 1]!.end;
    const lineEol = lines[at]?.eol || eol;
    const oldText = Buffer.from(text, 'utf8').subarray(start, end).toString('utf8');
    const lastOld = lines[at + oldSide.length - 1];
    const newText = newSide
      .map((l, i) => {
        const isLast = i === newSide.length - 1;
        // The file's own last line without a break keeps lacking one unless the patch says otherwise.
        const keepMissing = !aware && isLast && oldSide.length > 0 && lastOld?.eol === '' && at + oldSide.length === lines.length;
        if (l.context !== undefined) {
          const original = lines[at + l.context]!;
          return original.text + (l.eol ? original.eol || (keepMissing ? '' : lineEol) : '');
        }
        const own = l.replaces === undefined ? '' : lines[at + l.replaces]!.eol;
        return l.text + (!l.eol || keepMissing ? '' : own || lineEol);
      })
      .join('');
    edits.push({ file, span: { start, end }, old_text: oldText, new_text: newText });
    floor = at + oldSide.length;
  }
  return edits;
}

function locate(lines: Line[], oldSide: string[], expected: number, floor: number): number | null {
  const fits = (at: number) => at >= floor && at + oldSide.length <= lines.length && oldSide.every((text, i) => lines[at + i]!.text === text);
  if (oldSide.length === 0) return expected >= floor && expected <= lines.length ? expected : null;
  if (fits(expected)) return expected;
  let best: number | null = null;
  for (let at = floor; at + oldSide.length <= lines.length; at++) {
    if (fits(at) && (best === null || Math.abs(at - expected) < Math.abs(best - expected))) best = at;
  }
  return best;
}
