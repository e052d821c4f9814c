// Tabulates the sweep's results (tests/sweep/run.mjs) as the Markdown docs/QUALITY.md holds: per corpus and operation,
// tug's classes with rope's beside, the refusal reasons grouped, and every broken result and crash with its repro.
// Usage: node tests/sweep/report.mjs [--seed 1] [--write docs/QUALITY.md]  (--write replaces the part between the
// sweep:begin and sweep:end markers; without it the Markdown goes to stdout)
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { normalizeReason } from './classify.mjs';
import { CORPORA, WORK } from './corpora.mjs';

const seed = process.argv.includes('--seed') ? process.argv[process.argv.indexOf('--seed') + 1] : '1';
const dir = path.join(WORK, 'results');
const stored = existsSync(dir)
  ? readdirSync(dir).filter((f) => f.endsWith(`.s${seed}.jsonl`)).sort().flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)))
  : [];
// An assist pick where rust-analyzer offers nothing is no try: it is left out of every count (and said below the tables).
const notOffered = stored.filter((r) => r.tug?.class === 'not-offered');
const rows = stored.filter((r) => r.tug?.class !== 'not-offered');
// Reasons are grouped again here (classify.mjs may have learnt to group better since a line was written).
for (const r of rows) for (const side of [r.tug, r.rope]) if (side?.reason !== undefined && side.group) side.group = normalizeReason(side.code ?? '', side.reason);
const OPS = ['rename-symbol', 'move-symbol', 'change-signature', 'organize-imports', 'extract-variable', 'extract-function', 'inline', 'assist'];
const order = (a, b) => Object.keys(CORPORA).indexOf(a) - Object.keys(CORPORA).indexOf(b);
const count = (list, pred) => list.filter(pred).length;
const out = [];
const row = (cells) => out.push(`| ${cells.join(' | ')} |`);

function classes(list, side) {
  const r = list.map((x) => x[side]).filter(Boolean);
  return {
    tried: r.length,
    green: count(r, (x) => x.class === 'ok-green'),
    nochange: count(r, (x) => x.class === 'ok-nochange'),
    broken: count(r, (x) => x.class === 'broken'),
    caught: count(r, (x) => x.class === 'caught'),
    refused: count(r, (x) => x.class === 'refused'),
    crash: count(r, (x) => x.class === 'crash'),
    unsure: count(r, (x) => x.unsure > 0 && (x.class === 'ok-green' || x.class === 'broken')),
  };
}

const corpora = [...new Set(rows.map((r) => r.corpus))].sort(order);
/** How many positions an operation has in a corpus (run.mjs caches the list), or '?' when not listed yet. */
function eligible(corpus, op) {
  const cache = path.join(WORK, 'corpora', corpus, 'positions.json');
  if (!existsSync(cache)) return '?';
  const list = JSON.parse(readFileSync(cache, 'utf8')).list;
  // run.mjs tries assists at the names and the expressions; those where nothing was offered are not positions
  if (op === 'assist') return count(list, (p) => p.op === 'rename-symbol' || p.op === 'extract-variable') - count(notOffered, (r) => r.corpus === corpus);
  return count(list, (p) => p.op === op);
}
out.push('| corpus | operation | positions | tried | ok, tests green | ok, nothing to do | **broken** | caught by tug\'s verification | refused | ok with unsure listed | **crash** | rope: ok green | rope: broken | rope: refused | rope: crash |');
out.push('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
const total = {};
for (const corpus of corpora) {
  for (const op of OPS) {
    const list = rows.filter((r) => r.corpus === corpus && r.op === op);
    if (!list.length) continue;
    const t = classes(list, 'tug');
    const rp = classes(list, 'rope');
    total[op] ??= [];
    total[op].push(...list);
    row([corpus, op, eligible(corpus, op), t.tried, t.green, t.nochange, t.broken, t.caught, t.refused, t.unsure, t.crash,
      rp.tried ? rp.green + rp.nochange : '–', rp.tried ? rp.broken : '–', rp.tried ? rp.refused : '–', rp.tried ? rp.crash : '–']);
  }
}
for (const op of OPS) {
  if (!total[op]) continue;
  const t = classes(total[op], 'tug');
  const rp = classes(total[op], 'rope');
  row(['**all**', `**${op}**`, '', t.tried, t.green, t.nochange, t.broken, t.caught, t.refused, t.unsure, t.crash,
    rp.tried ? rp.green + rp.nochange : '–', rp.tried ? rp.broken : '–', rp.tried ? rp.refused : '–', rp.tried ? rp.crash : '–']);
}

// Issue 28's target: at least 150 tries per operation per project, or every position where there are fewer.
out.push('', '| operation | corpora swept | at the target (150 tries, or every position) | fewest tries | total tries |', '|---|--:|--:|--:|--:|');
for (const op of OPS) {
  if (!total[op]) continue;
  const per = corpora.map((c) => [c, total[op].filter((r) => r.corpus === c).length]).filter(([, n]) => n);
  const atTarget = per.filter(([c, n]) => n >= Math.min(150, Number(eligible(c, op)) || 150));
  row([op, per.length, `${atTarget.length}${atTarget.length ? ` (${atTarget.map(([c]) => c).join(', ')})` : ''}`, Math.min(...per.map(([, n]) => n)), total[op].length]);
}

// Where both ran: tug's ok rate against rope's on the same positions.
out.push('', '| operation | positions both tried | tug ok and green | rope ok and green | rope ok and green where tug refused |', '|---|--:|--:|--:|--:|');
for (const op of OPS) {
  const both = (total[op] ?? []).filter((r) => r.rope);
  if (!both.length) continue;
  const okT = (x) => x.class === 'ok-green' || x.class === 'ok-nochange';
  row([op, both.length, count(both, (r) => okT(r.tug)), count(both, (r) => okT(r.rope)), count(both, (r) => r.tug.class === 'refused' && okT(r.rope))]);
}

// What the results cost and which tug made them: seconds per try (the whole try: tug, the independent check, rope
// where it ran), and the tug builds (commits) the lines came from.
const timed = rows.filter((r) => r.wall_ms);
if (timed.length) {
  const mean = (xs) => (xs.length ? (xs.reduce((a, b) => a + b, 0) / xs.length / 1000).toFixed(1) : '–');
  out.push('', '| corpus | tries timed | s per try | tug s | check s (tug ok) | rope s (where run) |', '|---|--:|--:|--:|--:|--:|');
  for (const corpus of corpora) {
    const t = timed.filter((r) => r.corpus === corpus);
    if (!t.length) continue;
    row([corpus, t.length, mean(t.map((r) => r.wall_ms)), mean(t.map((r) => r.tug.ms)), mean(t.filter((r) => r.tug.check_ms).map((r) => r.tug.check_ms)), mean(t.filter((r) => r.rope?.ms).map((r) => r.rope.ms))]);
  }
}
if (notOffered.length) out.push('', `assist: ${notOffered.length} picked positions where rust-analyzer offered no assist are not counted as tries.`);
const builds = new Map();
for (const r of rows) builds.set(r.tug_build ?? 'unrecorded', (builds.get(r.tug_build ?? 'unrecorded') ?? 0) + 1);
out.push('', `tug builds: ${[...builds].sort((a, b) => b[1] - a[1]).map(([b, n]) => `${b} (${n} tries)`).join(', ')}`);

out.push('', '### Refusals where rope gave a green result, by reason', '');
for (const op of OPS) {
  const groups = new Map();
  for (const r of total[op] ?? []) {
    if (r.tug.class !== 'refused' || r.rope?.class !== 'ok-green') continue;
    const g = groups.get(r.tug.group) ?? [];
    g.push(r);
    groups.set(r.tug.group, g);
  }
  if (!groups.size) continue;
  out.push(`**${op}**`, '');
  for (const [g, rs] of [...groups].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))) {
    out.push(`- ${rs.length} × ${g.replace(/\|/g, '\\|')} (e.g. \`${rs[0].repro}\`)`);
  }
  out.push('');
}

out.push('', '### Refusals by reason (tug)', '');
for (const op of OPS) {
  const groups = new Map();
  for (const r of total[op] ?? []) if (r.tug.class === 'refused') groups.set(r.tug.group, (groups.get(r.tug.group) ?? 0) + 1);
  if (!groups.size) continue;
  out.push(`**${op}**`, '');
  for (const [g, n] of [...groups].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) out.push(`- ${n} × ${g.replace(/\|/g, '\\|')}`);
  out.push('');
}

/** The line of a test run that says what went wrong: pytest's `E   …` lines, else the last line naming an error. */
function firstError(text) {
  const lines = String(text ?? '').split('\n');
  const rust = lines.find((l) => /^error\[E\d+\]/.test(l)) ?? lines.find((l) => /^\s+(left|right):|assertion .* failed/.test(l));
  if (rust) return rust.trim();
  const e = lines.filter((l) => /^E\s{2,}\S/.test(l) && !/^E\s+(\^|~)/.test(l));
  const pick = e.find((l) => /Error|Exception|assert/i.test(l)) ?? e[0] ?? lines.filter((l) => /Error|FAILED|error/.test(l)).slice(-1)[0] ?? '';
  return pick.replace(/^E\s+/, '').trim();
}

const list = (title, pred, side) => {
  const hits = rows.filter((r) => r[side] && pred(r[side])).sort((a, b) => OPS.indexOf(a.op) - OPS.indexOf(b.op) || order(a.corpus, b.corpus) || a.index - b.index);
  out.push(`### ${title}: ${hits.length}`, '');
  for (const r of hits) {
    const p = r.position;
    const where = p.end_line ? `${p.file}:${p.line}:${p.col}-${p.end_line}:${p.end_col}` : p.line ? `${p.file}:${p.line}:${p.col}` : p.file;
    const what = side === 'tug' && r.tug.class === 'caught' ? ((r.tug.checks ?? []).flatMap((c) => (c.status === 'passed' ? [] : c.errors ?? []))[0] ?? (firstError((r.tug.checks ?? []).filter((c) => c.status !== 'passed').map((c) => c.output).join('\n')) || r.tug.group))
      : r[side].class === 'broken' ? firstError(r[side].evidence) : r[side].group ?? '';
    out.push(`- ${r.op} · ${r.corpus} · \`${where}\`${p.name ? ` (${p.kind ?? ''} ${p.name})` : p.kind ? ` (${p.kind})` : ''}: ${String(what).replace(/\|/g, '\\|').slice(0, 200)}  `, `  repro: \`${r.repro}\``);
  }
  out.push('');
};
list('tug broken (ok, then the tests failed or the code did not compile)', (x) => x.class === 'broken', 'tug');
list('tug crashes', (x) => x.class === 'crash', 'tug');
list('caught by tug\'s own verification (a bad patch, nothing committed)', (x) => x.class === 'caught', 'tug');
list('rope broken', (x) => x.class === 'broken', 'rope');
const write = process.argv.includes('--write') ? process.argv[process.argv.indexOf('--write') + 1] : null;
if (write) {
  const doc = readFileSync(write, 'utf8');
  const [begin, end] = ['<!-- sweep:begin -->', '<!-- sweep:end -->'];
  if (!doc.includes(begin) || !doc.includes(end)) throw new Error(`${write} has no ${begin} … ${end} markers`);
  writeFileSync(write, `${doc.slice(0, doc.indexOf(begin) + begin.length)}\n${out.join('\n')}\n${doc.slice(doc.indexOf(end))}`);
} else process.stdout.write(`${out.join('\n')}\n`);
