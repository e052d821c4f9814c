// The left pane: the result's files with [x] all kept, [~] some, [ ] none, [=] not splittable, and kept/total counts.
import { Box } from 'ink';
import type { ReviewState } from './review-state.js';
import { fileRows } from './view-model.js';
import { Line } from './Line.js';
import { useTheme } from './theme.js';

export function FilesPane({ state, width, height }: { state: ReviewState; width: number; height: number }) {
  const theme = useTheme();
  const focused = state.focus === 'files';
  const rows = fileRows(state);
  const visible = Math.max(0, height - 1);
  const offset = Math.max(0, Math.min(state.file - visible + 1, rows.length - visible));
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="single" borderTop={false} borderBottom={false} borderLeft={false}>
      <Line bold color={focused ? theme.accent : undefined}>{`${focused ? '*' : ' '}files (${rows.length})`}</Line>
      {rows.slice(offset, offset + visible).map((row, i) => (
        <Line key={i} inverse={row.current && focused && theme.inverse} bold={row.current} dim={row.state === 'none' && theme.dim}>
          {row.text}
        </Line>
      ))}
    </Box>
  );
}
