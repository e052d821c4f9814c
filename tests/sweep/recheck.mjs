// Applies the pyflakes part of the independent check (names a change leaves undefined) to results stored before the
// check had it: each such ok result's commit is still in the corpus repository. Rewrites the results files in place.
// Usage: node tests/sweep/recheck.mjs [--seed 1]
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CORPORA, corpusRepo, git, WORK } from './corpora.mjs';
import { dropScratch, scratch, undefinedNames } from './run.mjs';

const seed = process.argv.includes('--seed') ? process.argv[process.argv.indexOf('--seed') + 1] : '1';
const dir = path.join(WORK, 'results');
// A file written in the last two minutes may belong to a sweep still running: leave it for the next recheck.
const settled = (f) => Date.now() - statSync(path.join(dir, f)).mtimeMs > 120_000;
for (const f of readdirSync(dir).filter((x) => x.endsWith(`.s${seed}.jsonl`) && settled(x))) {
  const lines = readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  let changed = 0;
  for (const line of lines) {
    const t = line.tug;
    if (t.class !== 'ok-green' || t.pyflakes || !t.commit || CORPORA[line.corpus].rust) continue;
    const info = corpusRepo(line.corpus);
    const files = git(info.repo, ['diff', '--name-only', info.commit, t.commit]).split('\n').filter((x) => x.endsWith('.py'));
    const after = scratch(info.repo, t.commit, 'recheck-after');
    const before = scratch(info.repo, info.commit, 'recheck-before');
    const old = undefinedNames(before, files);
    const added = [...undefinedNames(after, files)].filter((m) => !old.has(m));
    dropScratch(info.repo, after);
    dropScratch(info.repo, before);
    t.pyflakes = true;
    changed++;
    if (added.length) {
      t.class = 'broken';
      t.evidence = `pyflakes: the change leaves names undefined:\nE   ${added.join('\nE   ')}`;
      t.diff = git(info.repo, ['diff', info.commit, t.commit]).slice(0, 6000);
      process.stdout.write(`${line.corpus} ${line.op} #${line.index}: broken: ${added.join('; ')}\n`);
    }
  }
  if (changed) writeFileSync(path.join(dir, f), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}
