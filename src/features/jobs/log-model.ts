import Anser from 'anser';

/**
 * A job log as the runner writes it: lines with ANSI colours, `\r` progress rewrites and
 * collapsible sections (`section_start:<unix time>:<name>[options]\r\e[0K<header>` ...
 * `section_end:<unix time>:<name>\r\e[0K`). The structure (lines, sections) is read in one pass;
 * colours are parsed lazily by `LogStyler`, so a 100,000-line log paints its first lines at once.
 * Nothing here produces HTML: lines become spans of text with class names.
 */

export interface LogSection {
  name: string;
  /** Index of the header line (the line `section_start` is on). */
  start: number;
  /** Index of the section's last line; grows while the job runs (no `section_end` yet). */
  end: number;
  startedAt: number;
  endedAt: number | null;
  /** Seconds between the markers; null while the section is still open. */
  duration: number | null;
  /** `[collapsed=true]`: shown folded until opened. */
  collapsedByDefault: boolean;
  hideDuration: boolean;
  depth: number;
  parent: number | null;
}

export interface LogLine {
  /** The line's text with its ANSI codes, markers and overwritten `\r` parts removed. */
  raw: string;
  /** The innermost section the line is in (for a header: the section around it). */
  section: number | null;
  /** The section this line is the header of. */
  header: number | null;
}

export interface LogModel {
  lines: LogLine[];
  sections: LogSection[];
}

const MARKER = /section_(start|end):(\d+):([A-Za-z0-9_.-]+)(?:\[([^\]]*)\])?\r?(?:\x1b\[0?K)?/g;
const SGR = /\x1b\[[0-9;]*m/g;

/**
 * What is left of a line after `\r` rewrites: the last part, as a terminal shows it, keeping the
 * colour codes of the parts it overwrote (they still set the colour of what follows).
 */
function afterCarriageReturns(line: string): string {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  const last = text.lastIndexOf('\r');
  if (last < 0) return text;
  const overwritten = text.slice(0, last).match(SGR)?.join('') ?? '';
  return overwritten + text.slice(last + 1);
}

function parseOptions(options: string | undefined): { collapsed: boolean; hideDuration: boolean } {
  const pairs = new Map((options ?? '').split(',').map((pair) => pair.split('=').map((part) => part.trim()) as [string, string]));
  return { collapsed: pairs.get('collapsed') === 'true', hideDuration: pairs.get('hide_duration') === 'true' };
}

/** Lines and sections of a log; a line holding only markers is not a line of its own. */
export function parseLog(text: string): LogModel {
  const lines: LogLine[] = [];
  const sections: LogSection[] = [];
  const open: number[] = [];
  const rawLines = text.split('\n');
  // a trailing newline ends the last line; it does not start an empty one
  if (rawLines.length > 0 && rawLines[rawLines.length - 1] === '') rawLines.pop();
  for (const rawLine of rawLines) {
    let line = rawLine;
    let header: number | null = null;
    let parentOfHeader: number | null = null;
    let hadMarker = false;
    if (line.includes('section_')) {
      line = line.replace(MARKER, (_match, kind: string, time: string, name: string, options: string | undefined) => {
        hadMarker = true;
        if (kind === 'start') {
          const parent = open.length ? open[open.length - 1] : null;
          const { collapsed, hideDuration } = parseOptions(options);
          sections.push({
            name,
            start: lines.length,
            end: lines.length,
            startedAt: Number(time),
            endedAt: null,
            duration: null,
            collapsedByDefault: collapsed,
            hideDuration,
            depth: open.length,
            parent,
          });
          const index = sections.length - 1;
          open.push(index);
          // the first section opened on a line makes it its header; one opened after it on the same line nests in it
          if (header === null) {
            header = index;
            parentOfHeader = parent;
          }
        } else {
          // an end closes its section and any left open inside it, as the platform's parser does
          const at = open.findLastIndex((index) => sections[index].name === name);
          if (at >= 0) {
            for (const index of open.splice(at)) {
              const section = sections[index];
              section.endedAt = Number(time);
              section.duration = Math.max(0, Number(time) - section.startedAt);
              // the marker closes the section before this line: this line is after it
              section.end = Math.max(section.start, lines.length - 1);
            }
          }
        }
        return '';
      });
    }
    const raw = afterCarriageReturns(line);
    if (
      hadMarker &&
      header === null &&
      raw
        .replace(SGR, '')
        .replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')
        .trim() === ''
    )
      continue;
    for (const index of open) sections[index].end = lines.length;
    lines.push({ raw, section: header !== null ? parentOfHeader : open.length ? open[open.length - 1] : null, header });
  }
  return { lines, sections };
}

/** The indices of the lines in view when the sections in `collapsed` are folded (their headers stay). */
export function visibleLines(model: LogModel, collapsed: ReadonlySet<number>): number[] {
  const visible: number[] = [];
  const { lines, sections } = model;
  for (let index = 0; index < lines.length; index++) {
    visible.push(index);
    const header = lines[index].header;
    if (header !== null && collapsed.has(header)) index = sections[header].end;
  }
  return visible;
}

/** The sections folded when a log opens: those marked `collapsed=true`. */
export function initiallyCollapsed(model: LogModel): Set<number> {
  const collapsed = new Set<number>();
  model.sections.forEach((section, index) => {
    if (section.collapsedByDefault) collapsed.add(index);
  });
  return collapsed;
}

/** The sections around a line (innermost last): opened to show a linked line. */
export function sectionsAround(model: LogModel, lineIndex: number): number[] {
  const chain: number[] = [];
  const line = model.lines[lineIndex];
  if (!line) return chain;
  for (let section = line.section; section !== null; section = model.sections[section].parent) chain.unshift(section);
  return chain;
}

export interface LogSpan {
  text: string;
  /** Class names of the span's colours and decorations (`log-fg-red`, `log-bold`), or ''. */
  className: string;
  /** 256-colour and true-colour values, which have no class. */
  style?: { color?: string; backgroundColor?: string };
}

const BASIC = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

/** xterm's 256-colour palette: 16 system colours (by class), a 6x6x6 cube, 24 greys. */
function paletteColor(index: number): string | { className: string } {
  if (index < 8) return { className: BASIC[index] };
  if (index < 16) return { className: `bright-${BASIC[index - 8]}` };
  if (index < 232) {
    const cube = index - 16;
    const level = (value: number) => (value === 0 ? 0 : 55 + value * 40);
    return `rgb(${level(Math.floor(cube / 36))}, ${level(Math.floor(cube / 6) % 6)}, ${level(cube % 6)})`;
  }
  const grey = 8 + (index - 232) * 10;
  return `rgb(${grey}, ${grey}, ${grey})`;
}

/** One colour of anser's output as a class suffix or a CSS colour. */
function colorOf(value: string | null, truecolor: string | null): string | { className: string } | null {
  if (!value) return null;
  if (value === 'ansi-truecolor') return truecolor && /^\d{1,3}, \d{1,3}, \d{1,3}$/.test(truecolor) ? `rgb(${truecolor})` : null;
  const palette = /^ansi-palette-(\d{1,3})$/.exec(value);
  if (palette) return paletteColor(Math.min(255, Number(palette[1])));
  const named = /^ansi-((?:bright-)?[a-z]+)$/.exec(value);
  return named ? { className: named[1] } : null;
}

/** CSI sequences that are not colours (erase, cursor moves, modes), and other control characters: a log line shows neither. */
const NOT_SGR = /\x1b\[[0-9;?]*[A-Za-ln-z]|\x1b(?!\[)/g;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;

const ANSER_OPTIONS = { json: true, remove_empty: true, use_classes: true } as const;

/**
 * The spans of each line, parsed on first need and in order, so a colour left on at the end of a
 * line carries into the next as a terminal shows it. A line with no escape code costs nothing.
 */
export class LogStyler {
  #anser = new Anser();
  #spans: LogSpan[][] = [];
  /** Whether the style left at the end of the parsed lines is not the default. */
  #styled = false;

  constructor(private readonly lines: readonly LogLine[]) {}

  spans(index: number): LogSpan[] {
    while (this.#spans.length <= index && this.#spans.length < this.lines.length) this.#spans.push(this.#parse(this.lines[this.#spans.length].raw));
    return this.#spans[index] ?? [];
  }

  #parse(raw: string): LogSpan[] {
    // escape codes other than colours (cursor moves, erase) show nothing; anser would also drop the colour of the text after them
    const text = raw.includes('\x1b') ? raw.replace(NOT_SGR, '') : raw;
    if (!this.#styled && !text.includes('\x1b')) return text ? [{ text: text.replace(CONTROL, ''), className: '' }] : [];
    // SGR 10 (primary font) changes nothing: anser then gives the first text the style carried from the line before
    const entries = this.#anser.ansiToJson(`\x1b[10m${text}`, ANSER_OPTIONS);
    const spans: LogSpan[] = [];
    for (const entry of entries) {
      const classes: string[] = [];
      const style: { color?: string; backgroundColor?: string } = {};
      const fg = colorOf(entry.fg, entry.fg_truecolor);
      const bg = colorOf(entry.bg, entry.bg_truecolor);
      if (typeof fg === 'string') style.color = fg;
      else if (fg) classes.push(`log-fg-${fg.className}`);
      if (typeof bg === 'string') style.backgroundColor = bg;
      else if (bg) classes.push(`log-bg-${bg.className}`);
      for (const decoration of entry.decorations) classes.push(`log-${decoration}`);
      const content = entry.content.replace(CONTROL, '');
      if (!content) continue;
      const className = classes.join(' ');
      const previous = spans[spans.length - 1];
      if (previous && previous.className === className && !previous.style && !style.color && !style.backgroundColor) previous.text += content;
      else spans.push({ text: content, className, ...(style.color || style.backgroundColor ? { style } : {}) });
    }
    const state = this.#anser as unknown as { fg: unknown; bg: unknown; decorations: unknown[] };
    this.#styled = Boolean(state.fg || state.bg || state.decorations.length);
    return spans;
  }
}

/** The plain text of a line, for search and copying. */
export function lineText(spans: readonly LogSpan[]): string {
  return spans.map((span) => span.text).join('');
}
