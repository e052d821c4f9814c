// The review body: files on the left, the diff (or a failed check's output) on the right, split to fit the width.
import { Box } from 'ink';
import type { ReviewState } from './review-state.js';
import { DiffPane } from './DiffPane.js';
import { FilesPane } from './FilesPane.js';
import { IncompletePanel } from './IncompletePanel.js';
import { VerificationPanel } from './VerificationPanel.js';

export function filesPaneWidth(width: number): number {
  return Math.max(16, Math.min(40, Math.floor(width * 0.3)));
}

export function ReviewPanes({ state, width, height }: { state: ReviewState; width: number; height: number }) {
  const left = filesPaneWidth(width);
  const right = Math.max(10, width - left);
  return (
    <Box flexDirection="row" height={height}>
      <FilesPane state={state} width={left} height={height} />
      {state.verification ? (
        <VerificationPanel verification={state.verification} width={right} height={height} />
      ) : state.confirm ? (
        <IncompletePanel incomplete={state.confirm.incomplete} action={state.confirm.action} width={right} height={height} />
      ) : (
        <DiffPane state={state} width={right} height={height} />
      )}
    </Box>
  );
}
