// Writes results: JSON for programs (and whenever stdout is not a terminal), a short summary for people.
import { ERROR_CODES, type TugError } from '../core/errors.js';
import { ErrorResponse, SCHEMA_VERSION } from '../core/schemas.js';
import type { CliIO } from './io.js';

export interface OutputMode {
  json: boolean;
}

export function outputMode(forceJson: boolean, io: CliIO): OutputMode {
  return { json: forceJson || !io.stdoutIsTTY };
}

export function errorEnvelope(error: TugError): unknown {
  return ErrorResponse.parse({
    status: 'error',
    schema_version: SCHEMA_VERSION,
    ...(error.snapshotId ? { snapshot_id: error.snapshotId } : {}),
    error: { ...error.toJSON(), hint: ERROR_CODES[error.code].hint },
  });
}

export function writeJson(value: unknown, io: CliIO): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}

export function writeError(error: TugError, mode: OutputMode, io: CliIO): void {
  if (mode.json) {
    writeJson(errorEnvelope(error), io);
    return;
  }
  const lines = [`error[${error.code}]: ${error.message}`, `  hint: ${ERROR_CODES[error.code].hint}`];
  const details = error.details ?? {};
  for (const key of ['changed_files', 'conflicting_files'] as const) {
    const files = details[key];
    if (Array.isArray(files) && files.length > 0) lines.push(`  ${key.replace('_', ' ')}: ${files.join(', ')}`);
  }
  for (const conflict of (details['conflicts'] as Array<Record<string, unknown>> | undefined) ?? []) {
    lines.push(`  clash at ${conflict['file']}:${conflict['line']}:${conflict['col']}: ${String(conflict['reason']).replace(/_/g, ' ')}${conflict['name'] ? ` (${conflict['name']})` : ''}`);
  }
  const verification = details['verification'] as { checks?: Array<{ name: string; status: string; output?: string }> } | undefined;
  for (const check of verification?.checks ?? []) {
    if (check.status !== 'failed') continue;
    lines.push(`  check ${check.name} failed:`);
    if (check.output) lines.push(...check.output.trimEnd().split('\n').slice(-20).map((l) => `    ${l}`));
  }
  io.err(`${lines.join('\n')}\n`);
}
