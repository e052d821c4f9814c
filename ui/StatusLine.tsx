// The row above the key bar: what tug is busy with, the outcome of the last action, or the edit under the cursor.
import { Box } from 'ink';
import type { ReviewState } from './review-state.js';
import { Line } from './Line.js';
import { useTheme } from './theme.js';
import { changeCaption } from './view-model.js';

export function StatusLine({ state }: { state: ReviewState }) {
  const theme = useTheme();
  const tone = state.message?.tone;
  const color = state.busy ? theme.accent : tone === 'error' ? theme.error : tone === 'ok' ? theme.ok : undefined;
  const idle = state.screen === 'review' && !state.help ? changeCaption(state) : '';
  const text = state.busy ? `… ${state.busy}` : (state.message?.text ?? idle);
  return (
    <Box height={1}>
      <Line color={color}>{text}</Line>
    </Box>
  );
}
