// The row above the key bar: what tug is busy with, or the outcome of the last action.
import { Box } from 'ink';
import type { ReviewState } from './review-state.js';
import { Line } from './Line.js';
import { useTheme } from './theme.js';

export function StatusLine({ state }: { state: ReviewState }) {
  const theme = useTheme();
  const tone = state.message?.tone;
  const color = state.busy ? theme.accent : tone === 'error' ? theme.error : tone === 'ok' ? theme.ok : undefined;
  const text = state.busy ? `… ${state.busy}` : (state.message?.text ?? '');
  return (
    <Box height={1}>
      <Line color={color}>{text}</Line>
    </Box>
  );
}
