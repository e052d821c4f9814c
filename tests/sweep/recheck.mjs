// Applies the pyflakes part of the independent check (names a change leaves undefined) to results stored before the
// check had it: each such ok result's commit is still in the corpus repository. Rewrites the results files in place.
// Batched: one scratch checkout per corpus, reused for every result, and each base file checked once.
// Usage: node tests/sweep/recheck.mjs [--seed 1]
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CORPORA, corpusRepo, git, WORK } from './corpora.mjs';
import { addedUndefined, dropScratch, scratch } from './check.mjs';

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
    const after = scratch(info.repo, t.commit, 'recheck');
    // The base side is read from the corpus repository, which holds main between tries.
    const { syntax, added } = addedUndefined(line.corpus, info.repo, after, files);
    if (syntax) added.push(syntax);
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
  if (changed) dropScratch(corpusRepo(lines[0].corpus).repo, path.join(path.dirname(corpusRepo(lines[0].corpus).repo), 'recheck'));
}
