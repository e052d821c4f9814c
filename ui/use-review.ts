// Runs the review state machine inside React: keys and kernel answers go through step(), effects go to the kernel.
import { useApp } from 'ink';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReviewKernel } from '../lib/review/types.js';
import { initialState, step, type Effect, type Event, type ReviewState } from './review-state.js';

export type KernelFactory = (progress: (message: string) => void) => ReviewKernel;

export interface ReviewHook {
  state: ReviewState;
  dispatch: (event: Event) => void;
  /** True once q was pressed: the app draws its closing summary, then exits. */
  closing: boolean;
}

export function useReview(createKernel: KernelFactory, branch?: string): ReviewHook {
  const { exit } = useApp();
  const start = useMemo(() => initialState(branch), []);
  const current = useRef<ReviewState>(start.state);
  const [state, setState] = useState<ReviewState>(start.state);
  const [closing, setClosing] = useState(false);
  const dispatchRef = useRef<(event: Event) => void>(() => {});
  const kernel = useMemo(() => createKernel((message) => dispatchRef.current({ type: 'progress', message })), []);

  const run = useCallback(
    (effect: Effect) => {
      const fail = (error: unknown) => {
        const e = error as { code?: string; message?: string; hint?: string };
        dispatchRef.current({ type: 'failed', effect: effect.type, error: { code: e.code, message: e.message ?? String(error), hint: e.hint } });
      };
      switch (effect.type) {
        case 'quit':
          setClosing(true);
          return;
        case 'list':
          kernel.list().then((results) => dispatchRef.current({ type: 'listed', results }), fail);
          return;
        case 'open':
          kernel.open(effect.branch).then((result) => dispatchRef.current({ type: 'opened', result }), fail);
          return;
        case 'undo':
          kernel.undo(effect.entry).then((outcome) => dispatchRef.current({ type: 'outcome', effect: 'undo', outcome }), fail);
          return;
        case 'replay':
          kernel.replay(effect.result).then((outcome) => dispatchRef.current({ type: 'outcome', effect: 'replay', outcome }), fail);
          return;
        case 'verify':
          kernel.verify(effect.result, effect.decisions).then((outcome) => dispatchRef.current({ type: 'outcome', effect: 'verify', outcome }), fail);
          return;
        default:
          kernel[effect.type](effect.result, effect.decisions, effect.confirmIncomplete ? { confirmIncomplete: true } : undefined).then(
            (outcome) => dispatchRef.current({ type: 'outcome', effect: effect.type, outcome }),
            fail,
          );
      }
    },
    [kernel],
  );

  const dispatch = useCallback(
    (event: Event) => {
      const next = step(current.current, event);
      current.current = next.state;
      setState(next.state);
      if (next.effect) run(next.effect);
    },
    [run],
  );
  dispatchRef.current = dispatch;

  useEffect(() => {
    if (start.effect) run(start.effect);
  }, []);
  useEffect(() => {
    if (closing) setTimeout(() => exit(), 0);
  }, [closing]);

  return { state, dispatch, closing };
}
