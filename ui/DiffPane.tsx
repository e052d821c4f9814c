// The right pane: the current file's hunks, coloured, with the change under the cursor marked and kept in view.
import { Box, Text } from 'ink';
import type { ReviewState } from './review-state.js';
import { diffRows, visibleRows, type DiffRow } from './view-model.js';
import { Line } from './Line.js';
import { useTheme, type Theme } from './theme.js';

function colorOf(row: DiffRow, theme: Theme): string | undefined {
  if (row.kind === 'hunk') return theme.hunk;
  if (row.kind === 'removed') return theme.removed;
  if (row.kind === 'added') return theme.added;
  return undefined;
}

export function DiffPane({ state, width, height }: { state: ReviewState; width: number; height: number }) {
  const theme = useTheme();
  const file = state.result?.files[state.file];
  const focused = state.focus === 'diff';
  const decisions = state.decisions[state.file] ?? [];
  const kept = decisions.filter(Boolean).length;
  const title = file ? `${focused ? '*' : ' '}${file.path}  ${file.status}${decisions.length ? `  kept ${kept}/${decisions.length}` : ''}` : ' (no files)';
  const { rows } = visibleRows(diffRows(file, decisions, state.group), Math.max(0, height - 1));
  return (
    <Box flexDirection="column" width={width} height={height} paddingLeft={1}>
      <Line bold color={focused ? theme.accent : undefined}>{title}</Line>
      {rows.map((row, i) => (
        <Line key={i} color={row.accepted === false ? undefined : colorOf(row, theme)} dim={row.accepted === false && theme.dim} bold={row.current === true}>
          {row.segments ? <Segments row={row} theme={theme} /> : row.text}
        </Line>
      ))}
    </Box>
  );
}

/** A line holding several edits: rejected edits dimmed, the one under the cursor in reverse video (plain: in ‹ ›). */
function Segments({ row, theme }: { row: DiffRow; theme: Theme }) {
  return (
    <>
      {row.prefix}
      {row.segments!.map((segment, i) => {
        if (segment.accepted === undefined) return segment.text;
        if (segment.current && !theme.inverse) return `‹${segment.text}›`;
        return (
          <Text key={i} inverse={segment.current === true && theme.inverse} dimColor={segment.accepted === false && theme.dim} strikethrough={segment.accepted === false && theme.dim}>
            {segment.text}
          </Text>
        );
      })}
    </>
  );
}
