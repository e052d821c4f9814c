// The review TUI's root: header, the result list or the review panes, status line and key bar, sized to the terminal.
import { Box, Text, useInput } from 'ink';
import { Header } from './Header.js';
import { HelpScreen } from './HelpScreen.js';
import { KeyBar } from './KeyBar.js';
import { ResultList } from './ResultList.js';
import { ReviewPanes } from './ReviewPanes.js';
import { StatusLine } from './StatusLine.js';
import { ThemeContext, type Theme } from './theme.js';
import { useReview, type KernelFactory } from './use-review.js';
import { useTerminalSize } from './use-terminal-size.js';
import { keyBarLines, LIST_KEYS, REVIEW_KEYS } from './view-model.js';

export interface AppProps {
  createKernel: KernelFactory;
  /** Open this branch at once instead of the list. */
  branch?: string | undefined;
  theme: Theme;
  now?: () => number;
}

export function App({ createKernel, branch, theme, now = Date.now }: AppProps) {
  const { state, dispatch, closing } = useReview(createKernel, branch);
  const { columns, rows } = useTerminalSize();
  useInput((input, key) => {
    if (!closing) dispatch({ type: 'key', input, key });
  });
  if (closing) {
    const lines = state.log.length > 0 ? state.log : ['nothing was committed, merged or applied'];
    return (
      <Box flexDirection="column">
        {lines.map((line, i) => (
          <Text key={i}>{`tug review: ${line}`}</Text>
        ))}
      </Box>
    );
  }
  // One row short of the window: ink redraws a frame as tall as the terminal by clearing the whole screen.
  const height = Math.max(8, rows - 1);
  const width = Math.max(30, columns);
  const keys = keyBarLines(state.screen === 'list' ? LIST_KEYS : REVIEW_KEYS, width);
  const body = Math.max(3, height - 2 - keys.length);
  return (
    <ThemeContext.Provider value={theme}>
      <Box flexDirection="column" width={width} height={height}>
        <Header state={state} />
        {state.help ? (
          <HelpScreen height={body} />
        ) : state.screen === 'list' ? (
          <ResultList state={state} height={body} now={now()} />
        ) : (
          <ReviewPanes state={state} width={width} height={body} />
        )}
        <StatusLine state={state} />
        <KeyBar lines={keys} />
      </Box>
    </ThemeContext.Provider>
  );
}
