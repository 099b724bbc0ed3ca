import { RANGE_LINES, rangeEnd, rangeIndexOf, rangeStart } from '../../api/first-requests.ts';
import { isPastEndOfFile, type BlameCommit, type BlameGroup, type BlameRangeAnswer } from '../../api/blame.ts';

/** Requests in flight at most: the rest wait their turn, so one screen never floods the instance. */
export const MAX_IN_FLIGHT = 4;


/** One commit's run of consecutive lines inside a loaded range. */
export interface LineGroup {
  commit: BlameCommit;
  /** First line, 1-based, in the whole file. */
  start: number;
  length: number;
}

/** A range (or the first view) as the screen reads it: its lines and, per line, the group it belongs to. */
export interface LoadedRange {
  start: number;
  lines: string[];
  groups: LineGroup[];
  /** Index into `groups` for each line of `lines`. */
  groupOfLine: Uint16Array;
  /** UTF-8 bytes of its lines with their newlines: with the file's size, an estimate of its line count. */
  bytes: number;
}

/** UTF-8 length counted from the UTF-16 code units, without encoding: thousands of lines per range. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (unit < 0x80) continue;
    // a surrogate pair is 2 units and 4 bytes; other units past 0x7ff are 3 bytes
    if (unit >= 0xd800 && unit <= 0xdbff && at + 1 < text.length && (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00) {
      bytes += 2;
      at++;
    } else bytes += unit < 0x800 ? 1 : 2;
  }
  return bytes;
}

/** The platform's groups of the lines from `start`, laid out on line numbers: they come in order, each after the last. */
export function toLoadedRange(start: number, groups: readonly BlameGroup[]): LoadedRange {
  const lines: string[] = [];
  const lineGroups: LineGroup[] = [];
  const groupOfLine: number[] = [];
  let bytes = 0;
  for (const group of groups) {
    if (!group.lines.length) continue;
    lineGroups.push({ commit: group.commit, start: start + lines.length, length: group.lines.length });
    for (const line of group.lines) {
      lines.push(line);
      groupOfLine.push(lineGroups.length - 1);
      bytes += utf8Length(line) + 1;
    }
  }
  return { start, lines, groups: lineGroups, groupOfLine: Uint16Array.from(groupOfLine), bytes };
}

export interface PlanInput {
  /** First and last line on screen (1-based). */
  firstLine: number;
  lastLine: number;
  /** A line the user asked for (`#L40000`): its range goes first. */
  focusLine?: number | null;
  /** The last line that can exist: the known line count, or one before the first range found past the end. */
  lineLimit: number;
}

/**
 * Which ranges to load, most needed first: the asked-for line's range, the ranges on screen top to
 * bottom, then the one below and the one above. Only what the screen needs, not the whole file: a
 * deep link to line 40,000 costs a few requests instead of twenty-five.
 */
export function planRanges({ firstLine, lastLine, focusLine, lineLimit }: PlanInput): number[] {
  const order: number[] = [];
  const add = (index: number) => {
    if (index >= 0 && rangeStart(index) <= lineLimit && !order.includes(index)) order.push(index);
  };
  if (focusLine) add(rangeIndexOf(focusLine));
  const first = rangeIndexOf(firstLine);
  const last = rangeIndexOf(Math.max(firstLine, lastLine));
  for (let index = first; index <= last; index++) add(index);
  add(last + 1);
  add(first - 1);
  return order;
}

/** What is known about the file's length so far. */
export interface LineCountFacts {
  /** The file's size in bytes, from the answers' headers. */
  sizeBytes: number | null;
  loadedLines: number;
  loadedBytes: number;
  /** The last line of any loaded range: the file has at least this many. */
  atLeast: number;
  /** The first line of a range the platform found past the end: the file has fewer. */
  pastEndStart: number;
  /** Set once a range came back short, or a range past the end follows a loaded one. */
  exact: number | null;
  /** The first view's lines and bytes: the average line until a range is loaded. */
  firstViewLines: number;
  firstViewBytes: number;
}

export const NO_FACTS: LineCountFacts = { sizeBytes: null, loadedLines: 0, loadedBytes: 0, atLeast: 0, pastEndStart: Number.POSITIVE_INFINITY, exact: null, firstViewLines: 0, firstViewBytes: 0 };

/** The facts after one more range arrived. */
export function factsWithRange(facts: LineCountFacts, range: LoadedRange, sizeBytes: number | null): LineCountFacts {
  const lastLine = range.start + range.lines.length - 1;
  const next: LineCountFacts = {
    ...facts,
    sizeBytes: sizeBytes ?? facts.sizeBytes,
    loadedLines: facts.loadedLines + range.lines.length,
    loadedBytes: facts.loadedBytes + range.bytes,
    atLeast: Math.max(facts.atLeast, lastLine),
    pastEndStart: facts.pastEndStart,
    exact: facts.exact,
  };
  // the platform cuts the end of a range to the file: a short range ends where the file does
  if (range.lines.length < RANGE_LINES) next.exact = lastLine;
  else if (facts.pastEndStart === lastLine + 1) next.exact = lastLine;
  // every line from the first is loaded and their bytes make the whole file: a full last range ends it too
  else if (next.sizeBytes !== null && next.loadedLines === next.atLeast && next.loadedBytes >= next.sizeBytes) next.exact = next.atLeast;
  return next;
}

/** The facts after the first view arrived: `asked` lines from its start, cut short where the file ends. */
export function factsWithFirstView(facts: LineCountFacts, view: LoadedRange, asked: number, sizeBytes: number | null): LineCountFacts {
  const lastLine = view.start + view.lines.length - 1;
  return {
    ...facts,
    sizeBytes: sizeBytes ?? facts.sizeBytes,
    atLeast: Math.max(facts.atLeast, lastLine),
    exact: view.lines.length < asked ? lastLine : facts.exact,
    firstViewLines: view.lines.length,
    firstViewBytes: view.bytes,
  };
}

/** The facts after a range's start turned out to be past the end of the file. */
export function factsWithPastEnd(facts: LineCountFacts, start: number): LineCountFacts {
  const pastEndStart = Math.min(facts.pastEndStart, start);
  const exact = facts.exact ?? (pastEndStart === 1 || facts.atLeast === pastEndStart - 1 ? pastEndStart - 1 : null);
  return { ...facts, pastEndStart, exact };
}

/**
 * The line count the list is sized to: exact when known; otherwise the size in bytes over the
 * average line of the ranges seen, kept between what is known to exist and what is known not to.
 */
export function estimateLineCount(facts: LineCountFacts): { count: number; exact: boolean } {
  if (facts.exact !== null) return { count: facts.exact, exact: true };
  const [lines, bytes] = facts.loadedLines > 0 ? [facts.loadedLines, facts.loadedBytes] : [facts.firstViewLines, facts.firstViewBytes];
  const byBytes = facts.sizeBytes !== null && lines > 0 ? Math.round(facts.sizeBytes / (bytes / lines)) : facts.atLeast + RANGE_LINES;
  return { count: Math.max(facts.atLeast, Math.min(byBytes, facts.pastEndStart - 1)), exact: false };
}

/** The last line that may exist, for planning: requests past it would only be refused. */
export function lineLimitOf(facts: LineCountFacts): number {
  return facts.exact ?? facts.pastEndStart - 1;
}

/** Lines `start` to `end`, 1-based and inclusive. */
export interface LineSpan {
  start: number;
  end: number;
}

export type RangeState = { state: 'loading' } | { state: 'loaded'; range: LoadedRange } | { state: 'failed'; error: unknown } | { state: 'past-end' };

export type FetchRange = (request: { start: number; end: number; ref: string }, signal: AbortSignal) => Promise<BlameRangeAnswer>;
/** The file's size in bytes at a ref, for when the blame answers do not say. */
export type FetchSize = (ref: string, signal: AbortSignal) => Promise<number | null>;

/**
 * Loads ranges in the order the screen asks for, at most MAX_IN_FLIGHT at once. The first answer
 * pins the ref to its commit (X-Gitlab-Commit-Id), so every later range blames the same snapshot
 * even if the branch moves meanwhile; until then one request goes alone.
 */
export class BlameRangeLoader {
  private readonly states = new Map<number, RangeState>();
  private wanted: number[] = [];
  private inFlight = 0;
  private pinnedRef: string | null = null;
  private controller = new AbortController();
  private readonly listeners = new Set<() => void>();
  private snapshot = 0;
  facts: LineCountFacts = NO_FACTS;

  private sizeAsked = false;
  /** The screen's first lines (`firstBlameLines`), asked before any range, and what became of them. */
  private firstViewLines: LineSpan | null = null;
  private firstViewState: RangeState | undefined;

  constructor(
    private readonly fetchRange: FetchRange,
    private readonly ref: string,
    private readonly maxInFlight = MAX_IN_FLIGHT,
    private readonly fetchSize?: FetchSize,
  ) {}

  /**
   * Asks for the screen's first lines, alone, before any range: the list can show them sooner than
   * a whole range. Lines past the end give way to the next ones asked for; a failure waits for Retry.
   */
  openAt(lines: LineSpan): void {
    if (this.ready || (this.firstViewState && this.firstViewState.state !== 'past-end')) return;
    if (this.firstViewLines?.start === lines.start && this.firstViewLines.end === lines.end) return;
    this.firstViewLines = lines;
    this.startFirstView();
  }

  /** The first lines can be shown (or a range is loaded). */
  get ready(): boolean {
    return this.firstViewState?.state === 'loaded' || this.facts.loadedLines > 0;
  }

  get firstView(): RangeState | undefined {
    return this.firstViewState;
  }

  retryFirstView = (): void => {
    if (this.firstViewState?.state === 'failed') this.startFirstView();
  };

  /** One line as the screen shows it: from its range, else from the first view, else null while neither holds it. */
  lineAt = (line: number): BlameLine | null => lineIn(this.states.get(rangeIndexOf(line)), line) ?? lineIn(this.firstViewState, line);

  /** Replaces the wish list (most needed first); what is already loading keeps loading. */
  want(order: readonly number[]): void {
    this.wanted = [...order];
    this.pump();
  }

  /** Asks again for a range that failed, ahead of everything else. */
  retry = (index: number): void => {
    if (this.states.get(index)?.state !== 'failed') return;
    this.states.delete(index);
    this.wanted = [index, ...this.wanted.filter((wanted) => wanted !== index)];
    this.changed();
    this.pump();
  };

  get(index: number): RangeState | undefined {
    return this.states.get(index);
  }

  /** The commit every range after the first is blamed at (null until the first answer). */
  get commitId(): string | null {
    return this.pinnedRef;
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Changes with every state change, for useSyncExternalStore. */
  getSnapshot = (): number => this.snapshot;

  /** Stops every request; `activate` starts again (React mounts twice in development). */
  dispose(): void {
    this.controller.abort();
  }

  activate(): void {
    if (!this.controller.signal.aborted) return;
    this.controller = new AbortController();
    this.inFlight = 0;
    for (const [index, state] of this.states) if (state.state === 'loading') this.states.delete(index);
    if (this.firstViewState?.state === 'loading') this.startFirstView();
    this.changed();
    this.pump();
  }

  private changed(): void {
    this.snapshot++;
    for (const listener of this.listeners) listener();
  }

  private pump(): void {
    if (this.controller.signal.aborted) return;
    const cap = this.pinnedRef === null ? 1 : this.maxInFlight;
    const limit = lineLimitOf(this.facts);
    for (const index of this.wanted) {
      if (this.inFlight >= cap) break;
      if (this.states.has(index) || rangeStart(index) > limit) continue;
      this.start(index);
    }
  }

  private start(index: number): void {
    this.states.set(index, { state: 'loading' });
    this.load({ start: rangeStart(index), end: rangeEnd(index) }, (state) => this.states.set(index, state), factsWithRange);
  }

  private startFirstView(): void {
    const lines = this.firstViewLines!;
    this.firstViewState = { state: 'loading' };
    this.load(lines, (state) => (this.firstViewState = state), (facts, view, sizeBytes) => factsWithFirstView(facts, view, lines.end - lines.start + 1, sizeBytes));
  }

  /** One request for `lines`; `put` keeps what became of it, `withLines` learns from its lines. */
  private load(lines: LineSpan, put: (state: RangeState) => void, withLines: (facts: LineCountFacts, range: LoadedRange, sizeBytes: number | null) => LineCountFacts): void {
    this.inFlight++;
    this.changed();
    const request = { ...lines, ref: this.pinnedRef ?? this.ref };
    const signal = this.controller.signal;
    this.fetchRange(request, signal).then(
      (answer) => {
        if (signal.aborted) return;
        this.pinnedRef ??= answer.commitId ?? this.ref;
        const range = toLoadedRange(request.start, answer.groups);
        if (range.lines.length) {
          this.facts = withLines(this.facts, range, answer.sizeBytes);
          put({ state: 'loaded', range });
          if (this.facts.sizeBytes === null && this.facts.exact === null) this.askSize(signal);
        } else {
          // an empty answer is the other way an instance may say the lines are past the end
          this.facts = factsWithPastEnd({ ...this.facts, sizeBytes: answer.sizeBytes ?? this.facts.sizeBytes }, request.start);
          put({ state: 'past-end' });
        }
        this.settle();
      },
      (error: unknown) => {
        if (signal.aborted) return;
        if (isPastEndOfFile(error)) {
          put({ state: 'past-end' });
          this.facts = factsWithPastEnd(this.facts, request.start);
        } else {
          put({ state: 'failed', error });
        }
        this.settle();
      },
    );
  }

  /** Once: a HEAD on the file, outside the range requests' budget (it carries no body). */
  private askSize(signal: AbortSignal): void {
    if (this.sizeAsked || !this.fetchSize) return;
    this.sizeAsked = true;
    this.fetchSize(this.pinnedRef ?? this.ref, signal).then(
      (sizeBytes) => {
        if (signal.aborted || sizeBytes === null) return;
        this.facts = { ...this.facts, sizeBytes };
        this.changed();
      },
      () => {
        // without a size the list grows a range at a time: slower to scroll, still right
      },
    );
  }

  private settle(): void {
    this.inFlight--;
    this.changed();
    this.pump();
  }
}

/** One line as the screen shows it, or null while its range is not loaded. */
export interface BlameLine {
  text: string;
  group: LineGroup;
}

/** A line of a range's (or the first view's) lines, or null while they are not loaded or do not hold it. */
export function lineIn(state: RangeState | undefined, line: number): BlameLine | null {
  if (state?.state !== 'loaded') return null;
  const offset = line - state.range.start;
  if (offset < 0 || offset >= state.range.lines.length) return null;
  return { text: state.range.lines[offset], group: state.range.groups[state.range.groupOfLine[offset]] };
}

/**
 * Whether a line opens a commit group: its commit differs from the line above. A group cut by a
 * range boundary stays one group; above an unloaded range, the line shows its commit to be safe.
 */
export function startsGroup(lineAt: (line: number) => BlameLine | null, line: number): boolean {
  if (line <= 1) return true;
  const current = lineAt(line);
  const above = lineAt(line - 1);
  return !current || !above || above.group.commit.id !== current.group.commit.id;
}
