// How the sweep sorts one tug run: ok (then checked by run.mjs), refused with a reason, verification failed, or a
// crash (exit 10, InternalError, no JSON, killed). Reasons are grouped with names and numbers taken out.

const CRASH_CODES = new Set(['InternalError', 'WorkerCrashed', 'WorkerTimeout', 'RustAnalyzerCrashed', 'RustAnalyzerTimeout', 'IndexingTimeout']);

/** A refusal's reason with the project's own words (quoted names, paths, positions, numbers) replaced by placeholders. */
export function normalizeReason(code, reason) {
  const text = String(reason ?? '')
    .replace(/`[^`]*`|'[^']*'|"[^"]*"/g, 'X')
    .replace(/[\w./-]+\.(py|rs)(:\d+)*(:\d+)?/g, 'FILE')
    .replace(/\b[A-Za-z_]\w*(\.[A-Za-z_]\w*)+\b/g, 'X') // dotted module and attribute names
    .replace(/\b\d+\b/g, 'N')
    .replace(/\b[a-z_][a-z0-9_]*[_0-9][a-z0-9_]*\b/gi, 'X')
    .replace(/\b[A-Z][a-z0-9]+[A-Z]\w*\b/g, 'X') // CamelCase names
    .replace(/\b(X|FILE)(, (X|FILE))+\b/g, '$1') // lists of names
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 110);
  return `${code}: ${text}`;
}

export function classifyTug(run) {
  const out = { exit: run.status, signal: run.signal ?? null };
  if (run.signal || run.status === null) return { ...out, class: 'crash', group: `killed (${run.signal ?? 'timeout'})`, stderr: (run.stderr ?? '').slice(-1500) };
  let json;
  try {
    json = JSON.parse(run.stdout);
  } catch {
    return { ...out, class: 'crash', group: `no JSON (exit ${run.status})`, stderr: `${run.stdout}${run.stderr}`.slice(-1500) };
  }
  const unsure = json.unsure ?? json.error?.details?.unsure ?? [];
  out.unsure = Array.isArray(unsure) ? unsure.length : 0;
  out.warnings = (json.warnings ?? []).map((w) => w.kind ?? w.code ?? String(w)).sort();
  if (json.status === 'ok') {
    out.class = 'ok';
    out.commit = json.git?.commit ?? null;
    out.branch = json.git?.branch ?? null;
    out.edits = json.summary?.edits_count ?? null;
    if (!out.commit) out.class = 'ok-nochange';
    return out;
  }
  const code = json.error?.code ?? 'unknown';
  const reason = json.error?.details?.reason ?? json.error?.message ?? '';
  out.code = code;
  out.reason = String(reason).slice(0, 400);
  out.message = String(json.error?.message ?? '').slice(0, 400);
  if (run.status === 10 || CRASH_CODES.has(code)) {
    out.class = 'crash';
    out.stderr = (run.stderr ?? '').slice(-1500);
  } else if (code === 'VerificationFailed') {
    out.class = 'caught';
    out.checks = (json.error?.details?.verification?.checks ?? []).map((c) => ({ name: c.name, status: c.status, output: String(c.output ?? c.stderr ?? c.errors?.map((e) => e.message).join('; ') ?? '').slice(-2500), errors: (c.errors ?? []).slice(0, 3).map((e) => `${e.file}:${e.line}: ${e.message}`) }));
  } else out.class = 'refused';
  out.group = normalizeReason(code, reason);
  return out;
}
