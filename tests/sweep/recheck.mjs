// Applies the parts of the independent check that stored results predate to them: rope's inline told apart from its
// InlineParameter (rope_inline_kind.py), pyflakes (names a change leaves
// undefined), the import state (what importing the package builds, check.mjs's lostAtImport) and, for inlines and
// extracted variables, when and how often code runs (check.mjs's evaluationChange, on rope's results too: it judges
// the position). Each such ok
// result's commit is still in the corpus repository. Rewrites the results files in place, unless a sweep appended to
// one meanwhile (then that file waits for the next recheck). One scratch checkout per corpus, reused for every result.
// Usage: node tests/sweep/recheck.mjs [--seed 1] [--rope-ops inline,move-symbol]
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { normalizeReason } from './classify.mjs';
import { CORPORA, corpusRepo, git, WORK } from './corpora.mjs';
import { dropScratch, EVALUATION_CHECK, evaluationChange, namesAndImports, ROPE_OTHER_OPERATION, ropeAt, ropeInlinesParameter, scratch } from './check.mjs';

// --rope-ops a,b: which operations' stored rope results to re-run for pyflakes and the import state (all by default).
const ops = process.argv.includes('--rope-ops') ? process.argv[process.argv.indexOf('--rope-ops') + 1].split(',') : null;
const seed = process.argv.includes('--seed') ? process.argv[process.argv.indexOf('--seed') + 1] : '1';
const dir = path.join(WORK, 'results');
// A file written in the last two minutes may belong to a sweep still running: leave it for the next recheck.
const settled = (f) => Date.now() - statSync(path.join(dir, f)).mtimeMs > 120_000;

function recheck(line) {
  const t = line.tug;
  const info = corpusRepo(line.corpus);
  const after = scratch(info.repo, t.commit, 'recheck');
  const files = git(info.repo, ['diff', '--name-only', info.commit, t.commit]).split('\n').filter((x) => x.endsWith('.py'));
  // The base side is read from the corpus repository, which holds main between tries.
  const found = namesAndImports(line.corpus, info.repo, after, files, { pyflakes: !t.pyflakes, importState: !t.importState });
  t.pyflakes = true;
  if (!found.length) t.importState = true;
  if (found.length) {
    t.class = 'broken';
    t.evidence = found.join('\n');
    t.diff = git(info.repo, ['diff', info.commit, t.commit]).slice(0, 6000);
    process.stdout.write(`${line.corpus} ${line.op} #${line.index}: broken: ${found.join('; ').replaceAll('\nE   ', ' ')}\n`);
  }
}

/** The evaluation check on each green side of a line that predates it; true when the line changed. */
function recheckEvaluation(line) {
  let changed = false;
  for (const side of [line.tug, line.rope]) {
    if (side?.class !== 'ok-green' || side.evaluation === EVALUATION_CHECK || CORPORA[line.corpus].rust) continue;
    if (line.op !== 'inline' && line.op !== 'extract-variable') continue;
    const info = corpusRepo(line.corpus);
    const found = evaluationChange(line.corpus, info.repo, line.position);
    side.evaluation = EVALUATION_CHECK;
    changed = true;
    if (!found) continue;
    side.class = 'broken';
    side.evidence = `evaluation: the ${line.op} changes when code runs or what it reads:\nE   ${found}`;
    process.stdout.write(`${line.corpus} ${line.op} #${line.index}: ${side === line.tug ? 'tug' : 'rope'} broken: ${found}\n`);
  }
  return changed;
}

/**
 * pyflakes and the import state on a green rope result stored before rope's results got them (tug's always did): rope
 * runs again at the position in a scratch checkout of the base (its edit is deterministic), and the two checks judge
 * it as they judge tug's. True when the line changed.
 */
function recheckRope(line) {
  const rope = line.rope;
  if (rope?.class !== 'ok-green' || (rope.pyflakes && rope.importState) || CORPORA[line.corpus].rust) return false;
  const info = corpusRepo(line.corpus);
  const dir = scratch(info.repo, info.commit, 'recheck-rope');
  const answer = ropeAt(dir, line.position);
  if (answer.status !== 'ok') {
    process.stdout.write(`${line.corpus} ${line.op} #${line.index}: rope answered ${JSON.stringify(answer)} now (${rope.class} before); left as it was\n`);
    return false;
  }
  git(dir, ['add', '-A']);
  const files = git(dir, ['diff', '--cached', '--name-only']).split('\n').filter((f) => f.endsWith('.py'));
  const found = namesAndImports(line.corpus, info.repo, dir, files);
  rope.pyflakes = rope.importState = true;
  if (found.length) {
    rope.class = 'broken';
    rope.evidence = found.join('\n');
    process.stdout.write(`${line.corpus} ${line.op} #${line.index}: rope broken: ${found.join('; ').replaceAll('\nE   ', ' ')}\n`);
  }
  return true;
}

/** A rope inline stored before the sweep told InlineParameter apart: declined when it was one; true when changed. */
function recheckRopeKind(line) {
  const rope = line.rope;
  if (!rope || rope.kindChecked || line.op !== 'inline' || CORPORA[line.corpus].rust) return false;
  rope.kindChecked = true;
  if (rope.status === 'ok' && ropeInlinesParameter(line.corpus, corpusRepo(line.corpus).repo, line.position)) {
    line.rope = { ...ROPE_OTHER_OPERATION, kindChecked: true, ms: rope.ms, was: rope.class };
    line.rope.group = normalizeReason(ROPE_OTHER_OPERATION.code, ROPE_OTHER_OPERATION.reason);
    process.stdout.write(`${line.corpus} inline #${line.index}: rope's ${rope.class} was InlineParameter; counted as declined\n`);
  }
  return true;
}

for (const f of readdirSync(dir).filter((x) => x.endsWith(`.s${seed}.jsonl`) && settled(x))) {
  const file = path.join(dir, f);
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  let changed = 0;
  for (const line of lines) {
    if (recheckRopeKind(line)) changed++;
    if ((!ops || ops.includes(line.op)) && recheckRope(line)) changed++;
    if (recheckEvaluation(line)) changed++;
    const t = line.tug;
    if (t.class !== 'ok-green' || (t.pyflakes && t.importState) || !t.commit || CORPORA[line.corpus].rust) continue;
    recheck(line);
    changed++;
  }
  if (!changed) continue;
  if (readFileSync(file, 'utf8') === text) writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  else process.stdout.write(`${f}: a sweep wrote to it meanwhile; left for the next recheck\n`);
  for (const name of ['recheck', 'recheck-rope']) dropScratch(corpusRepo(lines[0].corpus).repo, path.join(path.dirname(corpusRepo(lines[0].corpus).repo), name));
}
