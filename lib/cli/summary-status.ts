// What a person reads from the inspecting commands (session status, toolchain, clean, show, daemon): one fact a line.
import { summarizeBranchShow } from './summary-replay.js';

type Json = Record<string, any>;

const yesNo = (value: unknown) => (value ? 'yes' : 'no');

export function summarizeSessionStatus(result: Json): string {
  const session = result['session'];
  const cache = result['cache'];
  const lines = [
    `session   ${session.path}`,
    `workspace ${session.workspace_root}`,
    `lock      ${result['lock'].held ? `held by pid ${result['lock'].pid}` : 'free'}`,
    `python    ${result['python'].interpreter ?? 'none found'}${result['python'].source ? ` (${result['python'].source})` : ''}`,
    `workers   ${result['workers'].length === 0 ? 'none' : result['workers'].map((w: Json) => `${w.name} pid ${w.pid}${w.running ? '' : ' (gone)'}`).join(', ')}`,
    `sandboxes ${result['sandboxes'].length === 0 ? 'none' : result['sandboxes'].join(', ')}`,
    `undo      ${result['undo_tokens']} undo point(s)`,
    `cache     ${cache.snapshots} snapshot(s), ${cache.facts_files} facts file(s), ${cache.facts_bytes} bytes`,
  ];
  if (result['stale_branches']?.length) lines.push(`stale     ${result['stale_branches'].join(', ')} (HEAD moved on; tug check-merge, then tug replay)`);
  if (result['interrupted_apply']) lines.push('warning: an apply was interrupted; the next command that writes recovers it');
  return lines.join('\n');
}

export function summarizeToolchain(result: Json): string {
  if (result['python']) {
    const p = result['python'];
    const lines = p.found
      ? [`python    ${p.interpreter} (${p.source}), Python ${p.version}`, `libcst    ${p.libcst ?? 'not installed (only needed by operations that rewrite structure)'}`]
      : ['python    none found'];
    if (p.managed_venv) lines.push(`venv      ${p.managed_venv}`);
    lines.push('searched', ...(p.searched ?? []).map((s: string) => `  ${s}`));
    return lines.join('\n');
  }
  const r = result['rust'] ?? {};
  const lines = [
    `rust-analyzer ${r.found ? `${r.rust_analyzer} (${r.source}), ${r.version}` : 'none works; run `tug toolchain rust setup`'}`,
    `cargo         ${r.cargo ?? 'not found'}`,
    `clippy        ${yesNo(r.clippy)}`,
    'searched',
    ...(r.searched ?? []).map((s: string) => `  ${s.split('\n')[0]}`),
  ];
  return lines.join('\n');
}

export function summarizeClean(result: Json): string {
  const removed = result['removed'] ?? {};
  const parts = [
    `${(removed.workers ?? []).length} worker(s) stopped`,
    `cache ${removed.cache ? 'deleted' : 'kept'}`,
    `${(removed.sandboxes ?? []).length} sandbox(es) removed`,
    `${removed.snapshot_refs ?? 0} snapshot ref(s) and ${removed.undo_points ?? 0} undo point(s) deleted`,
  ];
  return `cleaned: ${parts.join(', ')}`;
}

export function summarizeShow(result: Json): string {
  if (result['branch']) return summarizeBranchShow(result['branch']);
  const e = result['entry'];
  const lines = [`${e.id}  ${e.time}  ${e.operation}${e.tool ? ` (${e.tool})` : ''}`];
  const args = Object.entries(e.arguments ?? {}).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  if (args.length) lines.push(`  arguments ${args.join(' ')}`);
  if (e.snapshot_id) lines.push(`  snapshot  ${e.snapshot_id}`);
  if (e.branch) lines.push(`  branch    ${e.branch}  ${String(e.commit ?? '').slice(0, 12)}`);
  if (e.verification) lines.push(`  verified  ${e.verification.status} (${e.verification.mode})`);
  if (e.files?.length) lines.push(`  files     ${e.files.join(', ')}`);
  lines.push(`  applied   ${yesNo(e.applied)}`);
  if (e.undo_token) lines.push(`  undo      tug undo ${e.undo_token}`);
  return lines.join('\n');
}

export function summarizeDaemon(daemon: Json): string {
  if (!daemon['running']) return daemon['stopped'] ? 'daemon stopped' : 'no daemon runs for this repository (`tug daemon start` starts one)';
  const warm = Object.entries(daemon['warm'] ?? {}).map(([k, v]) => `${k.replace(/_/g, ' ')} ${v}`);
  return [
    `daemon running, pid ${daemon['pid']}${daemon['already_running'] === false ? ' (started now)' : ''}`,
    ...(daemon['uptime_seconds'] !== undefined ? [`  up ${daemon['uptime_seconds']} s, exits after ${daemon['idle_seconds']} s idle, ${daemon['requests']} request(s)`] : []),
    ...(daemon['socket'] ? [`  socket ${daemon['socket']}`] : []),
    ...(warm.length ? [`  warm ${warm.join(', ')}`] : []),
  ].join('\n');
}

export function summarizeDoctor(result: Json): string {
  const checks: Json[] = result['checks'];
  const width = Math.max(...checks.map((c) => c.name.length));
  const mark = { ok: 'ok', missing: 'MISSING', info: '--' } as Record<string, string>;
  const lines = checks.map((c) => `${(mark[c.status] ?? c.status).padEnd(7)} ${c.name.padEnd(width)}  ${c.found ?? 'not found'}${c.status === 'ok' ? '' : `  (${c.needed_for})`}`);
  const missing = checks.filter((c) => c.status === 'missing');
  if (missing.length === 0) lines.push('', 'nothing is missing');
  else lines.push('', 'to fix:', ...missing.map((c) => `  ${c.name}: ${c.fix}`));
  return lines.join('\n');
}

export function summarizeTrust(result: Json): string {
  const settings: Json[] = result['settings'];
  const state = { trusted: 'trusted', changed: 'NOT trusted (a setting changed since it was trusted; run tug trust again)', untrusted: 'NOT trusted' }[result['trust'] as string];
  const lines = [`${result['repository']}: ${state}`];
  if (settings.length === 0) lines.push('  no settings that need trust (trust still lets the default verification run the tests)');
  for (const s of settings) lines.push(`  ${s['source']} ${s['key']} = ${JSON.stringify(s['value'])}`);
  return lines.join('\n');
}
