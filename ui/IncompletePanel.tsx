// Shown in place of the diff when a kept subset of a rename, move or change-signature leaves references broken: which
// rejected changes break against which kept ones, and the question; `y` keeps it anyway, any other key cancels.
import { Box } from 'ink';
import type { IncompleteSubset } from '../lib/review/types.js';
import { Line } from './Line.js';
import { useTheme } from './theme.js';

export function IncompletePanel({ incomplete, action, width, height }: { incomplete: IncompleteSubset; action: string; width: number; height: number }) {
  const theme = useTheme();
  const place = (g: IncompleteSubset['rejected'][number]) => `  ${g.file}:${g.line}  ${g.old_text} -> ${g.new_text}`;
  const lines = [
    'rejected, so these references break:',
    ...incomplete.rejected.map(place),
    'against the kept changes:',
    ...incomplete.kept.map(place),
  ];
  const room = Math.max(0, height - 2);
  return (
    <Box flexDirection="column" width={width} height={height} paddingLeft={1}>
      <Line bold color={theme.error}>{`incomplete subset — y ${action}s it anyway, any other key cancels`}</Line>
      {lines.slice(0, room).map((line, i) => (
        <Line key={i}>{line}</Line>
      ))}
    </Box>
  );
}
