// Shown in place of the diff when a check fails: which check, its command, and the tail of its output.
import { Box } from 'ink';
import type { VerificationView } from '../lib/review/types.js';
import { Line } from './Line.js';
import { useTheme } from './theme.js';

export function VerificationPanel({ verification, width, height }: { verification: VerificationView; width: number; height: number }) {
  const theme = useTheme();
  const lines: string[] = [];
  for (const check of verification.checks.filter((c) => c.status === 'failed')) {
    lines.push(`check ${check.name} failed${check.exit_code != null ? ` (exit ${check.exit_code})` : ''}${check.timed_out ? ' (timed out)' : ''}`);
    if (check.command) lines.push(`  $ ${check.command.join(' ')}`);
    for (const e of check.errors ?? []) lines.push(`  ${e.file}:${e.line ?? '?'}: ${e.message}`);
    if (check.output) lines.push(...check.output.trimEnd().split('\n').map((l) => `  ${l}`));
  }
  const room = Math.max(0, height - 1);
  const shown = lines.length > room ? [...lines.slice(0, 2), ...lines.slice(lines.length - (room - 2))] : lines;
  return (
    <Box flexDirection="column" width={width} height={height} paddingLeft={1}>
      <Line bold color={theme.error}>{`verification (${verification.mode}) failed — any key returns to the diff`}</Line>
      {shown.slice(0, room).map((line, i) => (
        <Line key={i}>{line}</Line>
      ))}
    </Box>
  );
}
