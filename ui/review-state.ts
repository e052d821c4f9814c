// The review TUI's behaviour as a pure state machine: keys and kernel answers in, next state and the effect to run out.
import { clamp, firstGroupFile, neighbourGroup, neighbourHunk } from './navigation.js';
import type { ActionOutcome, Decisions, IncompleteSubset, ResultSummary, ReviewResult, UndoEntry, VerificationView } from '../lib/review/types.js';

/** The parts of ink's `Key` the review reads (so tests can build keys without ink). */
export interface KeyInfo {
  upArrow?: boolean;
  downArrow?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  return?: boolean;
  escape?: boolean;
  tab?: boolean;
  shift?: boolean;
  ctrl?: boolean;
}

export type Action = 'verify' | 'commit' | 'merge' | 'apply';

export type Effect =
  | { type: 'list' }
  | { type: 'open'; branch: string }
  | { type: Action; result: ReviewResult; decisions: Decisions; confirmIncomplete?: boolean }
  | { type: 'undo'; entry: UndoEntry }
  | { type: 'replay'; result: ReviewResult }
  | { type: 'quit' };

export type Event =
  | { type: 'key'; input: string; key: KeyInfo }
  | { type: 'listed'; results: ResultSummary[] }
  | { type: 'opened'; result: ReviewResult }
  | { type: 'outcome'; effect: Effect['type']; outcome: ActionOutcome }
  | { type: 'failed'; effect: Effect['type']; error: { code?: string; message: string; hint?: string } }
  | { type: 'progress'; message: string };

export interface Message {
  tone: 'info' | 'ok' | 'error';
  text: string;
}

export interface ReviewState {
  screen: 'list' | 'review';
  help: boolean;
  results: ResultSummary[] | null;
  listCursor: number;
  result: ReviewResult | null;
  decisions: Decisions;
  focus: 'files' | 'diff';
  file: number;
  /** Change group under the cursor in the current file; -1 when the file has none. */
  group: number;
  busy: string | null;
  message: Message | null;
  /** The checks of the last failed verification, shown until a key is pressed. */
  verification: VerificationView | null;
  undo: UndoEntry[];
  /** Lines printed when the TUI closes: what was committed, merged, applied or undone. */
  log: string[];
  /** Whether a result list exists to go back to. */
  canGoBack: boolean;
  /** A commit, merge or apply the kernel refused as an incomplete subset: `y` sends it again, confirmed. */
  confirm: { action: Action; decisions: Decisions; incomplete: IncompleteSubset } | null;
}

export interface Step {
  state: ReviewState;
  effect?: Effect;
}

export function initialState(branch?: string): Step {
  const state: ReviewState = {
    screen: branch ? 'review' : 'list',
    help: false,
    results: null,
    listCursor: 0,
    result: null,
    decisions: [],
    focus: 'diff',
    file: 0,
    group: -1,
    busy: branch ? `opening ${branch}` : 'reading tug/ branches',
    message: null,
    verification: null,
    undo: [],
    log: [],
    canGoBack: !branch,
    confirm: null,
  };
  return { state, effect: branch ? { type: 'open', branch } : { type: 'list' } };
}

/** Every change group starts accepted: the result was verified as a whole; the review drops what it rejects. */
export function acceptAll(result: ReviewResult): Decisions {
  return result.files.map((f) => f.diff.groups.map(() => true));
}

export function step(state: ReviewState, event: Event): Step {
  switch (event.type) {
    case 'listed':
      return { state: { ...state, busy: null, results: event.results, listCursor: clamp(state.listCursor, event.results.length) } };
    case 'opened':
      return { state: opened(state, event.result) };
    case 'progress':
      return { state: state.busy ? { ...state, busy: event.message } : state };
    case 'outcome':
      return { state: afterOutcome(state, event.effect, event.outcome) };
    case 'failed': {
      const text = `${event.error.code ? `${event.error.code}: ` : ''}${event.error.message}${event.error.hint ? ` (${event.error.hint})` : ''}`;
      const back = event.effect === 'open' && state.result === null && state.canGoBack ? { screen: 'list' as const } : {};
      return { state: { ...state, ...back, busy: null, message: { tone: 'error', text } } };
    }
    case 'key':
      return onKey(state, event.input, event.key);
  }
}

function opened(state: ReviewState, result: ReviewResult): ReviewState {
  const first = firstGroupFile(result);
  return {
    ...state,
    screen: 'review',
    busy: null,
    result,
    decisions: acceptAll(result),
    file: first,
    group: result.files[first]?.diff.groups.length ? 0 : -1,
    focus: 'diff',
    verification: null,
  };
}

function afterOutcome(state: ReviewState, effect: Effect['type'], outcome: ActionOutcome): ReviewState {
  let next: ReviewState = { ...state, busy: null, message: { tone: outcome.ok ? 'ok' : 'error', text: outcome.message } };
  if (outcome.verification?.status === 'failed') next.verification = outcome.verification;
  if (!outcome.ok && outcome.incomplete && effect !== 'verify' && effect !== 'undo' && effect !== 'replay' && effect !== 'list' && effect !== 'open' && effect !== 'quit') {
    next.confirm = { action: effect, decisions: state.decisions, incomplete: outcome.incomplete };
    next.message = { tone: 'error', text: `y keeps this incomplete subset anyway, any other key cancels: ${outcome.incomplete.message}` };
  }
  if (outcome.result) {
    const keep = { file: state.file, focus: state.focus };
    next = opened(next, outcome.result);
    next.file = Math.min(keep.file, Math.max(0, outcome.result.files.length - 1));
    next.group = outcome.result.files[next.file]?.diff.groups.length ? 0 : -1;
    next.focus = keep.focus;
  }
  if (outcome.ok && effect === 'undo') next.undo = state.undo.slice(0, -1);
  if (outcome.undo) next.undo = [...next.undo, outcome.undo];
  if (outcome.ok && effect !== 'verify') next.log = [...state.log, outcome.message];
  return next;
}

function onKey(state: ReviewState, input: string, key: KeyInfo): Step {
  if (state.help) return { state: { ...state, help: false } };
  if (state.verification) return { state: { ...state, verification: null } };
  if (state.confirm && !state.busy) {
    const { action, decisions } = state.confirm;
    if (input !== 'y' || !state.result) return { state: { ...state, confirm: null, message: { tone: 'info', text: `cancelled: the incomplete subset was not ${action === 'commit' ? 'committed' : action === 'merge' ? 'merged' : 'applied'}` } } };
    return { state: { ...state, confirm: null, busy: `${action === 'commit' ? 'committing' : action === 'merge' ? 'merging' : 'applying'} the incomplete subset, as confirmed`, message: null }, effect: { type: action, result: state.result, decisions, confirmIncomplete: true } };
  }
  if (input === '?') return { state: { ...state, help: true } };
  if (state.busy) {
    return { state: { ...state, message: { tone: 'info', text: `busy: ${state.busy} (ctrl-c aborts)` } } };
  }
  if (input === 'q') return { state, effect: { type: 'quit' } };
  return state.screen === 'list' ? onListKey(state, input, key) : onReviewKey(state, input, key);
}

function onListKey(state: ReviewState, input: string, key: KeyInfo): Step {
  const results = state.results ?? [];
  if (input === 'j' || key.downArrow) return { state: { ...state, listCursor: clamp(state.listCursor + 1, results.length) } };
  if (input === 'k' || key.upArrow) return { state: { ...state, listCursor: clamp(state.listCursor - 1, results.length) } };
  if (key.return || input === 'l' || key.rightArrow || input === ' ') {
    const chosen = results[state.listCursor];
    if (!chosen) return { state: { ...state, message: { tone: 'info', text: 'no tug/ branches yet: run `tug rename … ` or `tug apply-patchset …` first' } } };
    return { state: { ...state, busy: `opening ${chosen.branch}`, message: null }, effect: { type: 'open', branch: chosen.branch } };
  }
  if (input === 'r') return { state: { ...state, busy: 'reading tug/ branches' }, effect: { type: 'list' } };
  return { state };
}

function onReviewKey(state: ReviewState, input: string, key: KeyInfo): Step {
  const result = state.result;
  if (!result) return { state };
  if (key.escape) {
    if (!state.canGoBack) return { state: { ...state, message: { tone: 'info', text: 'q quits' } } };
    return { state: { ...state, screen: 'list', busy: 'reading tug/ branches', result: null }, effect: { type: 'list' } };
  }
  if (key.tab) return { state: { ...state, focus: state.focus === 'files' ? 'diff' : 'files' } };
  if (input === 'h' || key.leftArrow) return { state: { ...state, focus: 'files' } };
  if (input === 'l' || key.rightArrow || (key.return && state.focus === 'files')) return { state: { ...state, focus: 'diff' } };
  const down = input === 'j' || key.downArrow;
  const up = input === 'k' || key.upArrow;
  if (down || up) {
    if (state.focus === 'files') return { state: moveToFile(state, state.file + (down ? 1 : -1)) };
    return { state: moveTo(state, neighbourGroup(result, state.file, state.group, down ? 1 : -1)) };
  }
  if (input === 'n') return { state: moveTo(state, neighbourHunk(result, state.file, state.group, 1)) };
  if (input === 'p') return { state: moveTo(state, neighbourHunk(result, state.file, state.group, -1)) };
  if (input === ' ') {
    if (state.focus === 'files') return { state: setFile(state, state.file, !fileFully(state, state.file, true)) };
    if (state.group < 0) return { state: { ...state, message: { tone: 'info', text: 'this file has no change to decide on' } } };
    const decisions = updateGroup(state.decisions, state.file, state.group, (v) => !v);
    return { state: { ...state, decisions, message: null } };
  }
  if (input === 'r') {
    // A branch whose base HEAD has moved on from: its operations are redone on the current tree as a new branch.
    if (!result.stale) return { state: { ...state, message: { tone: 'info', text: 'the base has not moved: nothing to replay' } } };
    return { state: { ...state, busy: `replaying ${result.branch} on the moved base`, message: null }, effect: { type: 'replay', result } };
  }
  if (input === 'a') return { state: setFile(state, state.file, true) };
  if (input === 'd') return { state: setFile(state, state.file, false) };
  if (input === 'u') {
    const entry = state.undo[state.undo.length - 1];
    if (!entry) return { state: { ...state, message: { tone: 'info', text: 'nothing to undo yet (u takes back a commit, merge or apply made here)' } } };
    return { state: { ...state, busy: `undoing ${entry.label}`, message: null }, effect: { type: 'undo', entry } };
  }
  const action = ({ v: 'verify', c: 'commit', m: 'merge', x: 'apply' } as const)[input as 'v' | 'c' | 'm' | 'x'];
  if (action) {
    const what = { verify: 'verifying the accepted changes', commit: 'verifying and committing the accepted changes', merge: 'merging', apply: 'applying to the working tree' }[action];
    return { state: { ...state, busy: what, message: null }, effect: { type: action, result, decisions: state.decisions } };
  }
  return { state };
}

function moveTo(state: ReviewState, target: [number, number] | null): ReviewState {
  if (!target) return { ...state, message: { tone: 'info', text: 'no more changes that way' } };
  return { ...state, file: target[0], group: target[1], message: null };
}

function moveToFile(state: ReviewState, file: number): ReviewState {
  const files = state.result!.files;
  const next = Math.max(0, Math.min(files.length - 1, file));
  return { ...state, file: next, group: files[next]?.diff.groups.length ? 0 : -1, message: null };
}

function fileFully(state: ReviewState, file: number, value: boolean): boolean {
  return (state.decisions[file] ?? []).every((v) => v === value);
}

function setFile(state: ReviewState, file: number, value: boolean): ReviewState {
  const decisions = state.decisions.map((groups, i) => (i === file ? groups.map(() => value) : groups));
  return { ...state, decisions, message: null };
}

function updateGroup(decisions: Decisions, file: number, group: number, change: (v: boolean) => boolean): Decisions {
  return decisions.map((groups, i) => (i === file ? groups.map((v, g) => (g === group ? change(v) : v)) : groups));
}

export function keptCount(state: ReviewState): { kept: number; total: number } {
  const flat = state.decisions.flat();
  return { kept: flat.filter(Boolean).length, total: flat.length };
}
