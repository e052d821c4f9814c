// apply-patchset at scale: many edits over many files verified and applied, against `git apply` of the same change.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cachedRepo, CACHE, fmt, git, median, row, timed, TUG } from './lib.mjs';

export const PATCHSET_TARGET_MS = 10_000;

/** `files` Python files of `perFile` lines; line i of every file holds `name_<i>` once, at column 1. */
function sourceRepo(files, perFile) {
  return cachedRepo(`patchset-${files}x${perFile}`, (dir) => {
    for (let f = 0; f < files; f++) {
      const lines = [];
      for (let i = 0; i < perFile; i++) lines.push(`name_${i} = ${f} + ${i}  # line ${i}`);
      mkdirSync(path.join(dir, `pkg${f % 10}`), { recursive: true });
      writeFileSync(path.join(dir, `pkg${f % 10}`, `mod_${f}.py`), `${lines.join('\n')}\n`);
    }
  });
}

/** One edit per line: `name_<i>` becomes `renamed_<i>`, anchored by line, column and old text. */
function patchsetFor(files, perFile) {
  const edits = [];
  for (let f = 0; f < files; f++) {
    for (let i = 0; i < perFile; i++) edits.push({ file: `pkg${f % 10}/mod_${f}.py`, line: i + 1, col: 1, old_text: `name_${i}`, new_text: `renamed_${i}` });
  }
  return { edits, message: 'bench: rename every name' };
}

/** A fresh copy of the generated repo per run, so each apply starts from the same clean tree. */
function freshClone(source, name) {
  const dir = path.join(CACHE, name);
  rmSync(dir, { recursive: true, force: true });
  git(CACHE, 'clone', '-q', source, dir);
  git(dir, 'config', 'user.name', 'Bench');
  git(dir, 'config', 'user.email', 'bench@example.com');
  return dir;
}

export function patchsetBench(runs, files = 500, perFile = 100) {
  const source = sourceRepo(files, perFile);
  const patchFile = path.join(CACHE, `patchset-${files}x${perFile}.json`);
  writeFileSync(patchFile, JSON.stringify(patchsetFor(files, perFile)));
  // The baseline's input: the same change as a unified diff, made once by tug itself and checked against git.
  const tugTimes = [];
  let diffFile = null;
  for (let run = 0; run < runs; run++) {
    const repo = freshClone(source, 'patchset-run');
    const out = timed(TUG, ['apply-patchset', '-f', patchFile, '--verify', 'syntax', '--apply', '--json'], { cwd: repo });
    tugTimes.push(out.ms);
    if (diffFile === null) {
      diffFile = path.join(CACHE, `patchset-${files}x${perFile}.diff`);
      writeFileSync(diffFile, `${git(repo, 'diff')}\n`);
    }
  }
  const gitTimes = [];
  for (let run = 0; run < runs; run++) {
    const repo = freshClone(source, 'patchset-git');
    gitTimes.push(timed('git', ['apply', diffFile], { cwd: repo }).ms);
  }
  return { files, edits: files * perFile, tug: median(tugTimes), git: median(gitTimes), runs };
}

export function patchsetReport(result) {
  const ratio = result.tug / result.git;
  return [
    `### apply-patchset: ${result.edits.toLocaleString('en-US')} edits over ${result.files} files`,
    '',
    row(['', 'median of ' + result.runs, 'target', 'vs `git apply`']),
    row(['---', '---', '---', '---']),
    row(['`tug apply-patchset --verify syntax --apply`', fmt(result.tug), `≤ ${fmt(PATCHSET_TARGET_MS)} (${result.tug <= PATCHSET_TARGET_MS ? 'met' : 'missed'})`, `${ratio.toFixed(1)}×`]),
    row(['`git apply` of the same diff', fmt(result.git), '', '1×']),
    '',
  ].join('\n');
}

// `node tests/bench/patchset.mjs [files] [lines per file]` runs this section alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [files, perFile] = process.argv.slice(2).map(Number);
  process.stdout.write(`${patchsetReport(patchsetBench(1, files || 500, perFile || 100))}\n`);
}
