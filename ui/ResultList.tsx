// The tug/ branches, newest first, two rows each; enter opens the one under the cursor.
import { Box } from 'ink';
import type { ReviewState } from './review-state.js';
import { resultRows } from './view-model.js';
import { Line } from './Line.js';
import { useTheme } from './theme.js';

export function ResultList({ state, height, now }: { state: ReviewState; height: number; now: number }) {
  const theme = useTheme();
  if (state.results === null) {
    return (
      <Box height={height}>
        <Line>reading tug/ branches…</Line>
      </Box>
    );
  }
  if (state.results.length === 0) {
    return (
      <Box flexDirection="column" height={height}>
        <Line>No tug/ branches in this repository yet.</Line>
        <Line dim={theme.dim}>Make one with `tug rename FILE:LINE:COL NEW_NAME` or `tug apply-patchset -f edits.json`.</Line>
      </Box>
    );
  }
  const rows = resultRows(state.results, state.listCursor, now);
  const visible = Math.max(2, height - (height % 2));
  const offset = Math.max(0, Math.min(state.listCursor * 2 - visible + 2, rows.length - visible));
  return (
    <Box flexDirection="column" height={height}>
      {rows.slice(Math.max(0, offset), Math.max(0, offset) + visible).map((row, i) => (
        <Line key={i} bold={row.current && !row.detail} inverse={row.current && !row.detail && theme.inverse} dim={row.detail && !row.current && theme.dim}>
          {row.text}
        </Line>
      ))}
    </Box>
  );
}
