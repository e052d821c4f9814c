// The keys on screen, packed into as many rows as the width needs.
import { Box } from 'ink';
import { Line } from './Line.js';
import { useTheme } from './theme.js';

export function KeyBar({ lines }: { lines: readonly string[] }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" height={lines.length}>
      {lines.map((line, i) => (
        <Line key={i} dim={theme.dim}>
          {line}
        </Line>
      ))}
    </Box>
  );
}
