// The review TUI drawn on a real result branch: the kernel opens the branch and the App renders it until its diff shows.
import { render } from 'ink-testing-library';
import { createElement } from 'react';
import type { ReviewKernel } from '../../lib/review/types.js';
import { App } from '../../ui/App.js';
import { PLAIN_THEME } from '../../ui/theme.js';

/** The first frame of the review TUI on `branch` that shows a hunk (`@@`), or the last one drawn within ~30 s. */
export async function reviewFrame(kernel: ReviewKernel, branch: string): Promise<string> {
  const app = render(createElement(App, { createKernel: () => kernel, branch, theme: PLAIN_THEME, now: () => Date.now() }));
  try {
    let frame = '';
    for (let i = 0; i < 3000 && !frame.includes('@@'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      frame = app.lastFrame() ?? '';
    }
    return frame;
  } finally {
    app.unmount();
  }
}
