// Entry point the CLI loads at run time (never at start-up): renders the review TUI with ink and waits for q.
import { render } from 'ink';
import type { ReviewTuiOptions } from '../lib/review/types.js';
import { App } from './App.js';
import { themeFor } from './theme.js';

export async function runReview(options: ReviewTuiOptions): Promise<void> {
  const app = render(<App createKernel={options.createKernel} branch={options.branch} theme={themeFor(process.env)} />, { exitOnCtrlC: true, patchConsole: true });
  await app.waitUntilExit();
}
