// The top row: which result is open, how it was verified, and how many of its changes are kept.
import { Box } from 'ink';
import { keptCount, type ReviewState } from './review-state.js';
import { Line } from './Line.js';
import { useTheme } from './theme.js';

export function Header({ state }: { state: ReviewState }) {
  const theme = useTheme();
  const result = state.result;
  let text = 'tug review — tug/ branches, newest first';
  if (state.screen === 'review' && result) {
    const { kept, total } = keptCount(state);
    text = `${result.branch}  kept ${kept}/${total}  ${result.verification}  ${result.operation}`;
    if (result.stale) text += `  base moved: press r to replay`;
  }
  return (
    <Box height={1}>
      <Line bold color={theme.accent}>{text}</Line>
    </Box>
  );
}
