// `?`: every key and what it does, in the body's place until the next key.
import { Box } from 'ink';
import { HELP } from './view-model.js';
import { Line } from './Line.js';
import { useTheme } from './theme.js';

export function HelpScreen({ height }: { height: number }) {
  const theme = useTheme();
  const rows = HELP.slice(0, Math.max(0, height - 1));
  return (
    <Box flexDirection="column" height={height}>
      <Line bold color={theme.accent}>
        Keys (any key closes this help)
      </Line>
      {rows.map(([key, what]) => (
        <Line key={key}>{`${key.padEnd(14)} ${what}`}</Line>
      ))}
    </Box>
  );
}
