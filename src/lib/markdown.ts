import { Marked, Tokenizer, type Token, type Tokens } from 'marked';
import markedFootnote from 'marked-footnote';

// Block quotes and lists nested deeper than this show the rest of their text as preformatted
// text: each level re-reads the text inside it, so time grows with the size times the depth
// (faster than linearly in the depth: 1 MB of quotes alternating between depths takes 8 s at 32
// levels, 1.3 s at 16 on this machine), and marked overflows the stack near 10,000 levels. Sixteen
// levels of lists and quotes is far beyond what people write.
const MAX_NESTING = 16;
const CONTAINER_START = { blockquote: /^ {0,3}>/, list: /^ {0,3}(?:[*+-]|\d{1,9}[.)])(?:[ \t]|\n|$)/ };
let nesting = 0;

function nestingLimited(kind: 'blockquote' | 'list') {
  return function (this: Tokenizer, src: string): Tokens.Blockquote | Tokens.List | Tokens.Code | undefined {
    if (nesting >= MAX_NESTING) return CONTAINER_START[kind].test(src) ? { type: 'code', raw: src, text: src.replace(/\n+$/, '') } : undefined;
    nesting += 1;
    try {
      return (Tokenizer.prototype[kind] as (src: string) => Tokens.Blockquote | Tokens.List | undefined).call(this, src);
    } finally {
      nesting -= 1;
    }
  };
}

// the mark of the render running (renders are synchronous): see markdownToHtml
let taskMark = '';

/** CommonMark with GFM (tables, task lists, strikethrough, autolinks) and footnotes. */
function createParser(): Marked {
  return new Marked({ gfm: true, async: false })
    .use(markedFootnote({ prefixId: 'user-content-fn-' }))
    .use({
      // marked types each override as returning its own kind of token; past the cap these return a code block
      tokenizer: { blockquote: nestingLimited('blockquote'), list: nestingLimited('list') } as never,
      renderer: {
        checkbox: ({ checked }: Tokens.Checkbox) => `<input type="checkbox" data-task="${taskMark}"${checked ? ' checked=""' : ''} /> `,
      },
    });
}

// one parser for every render; a new one after a failure, since the footnotes' state may be left half-way
let parser = createParser();

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * HTML for GitLab Flavored Markdown as users write it: CommonMark with GFM's tables, task lists,
 * strikethrough, autolinks and footnotes. Raw HTML passes through for the sanitizer to judge, so
 * this output must never reach a page unsanitized. Task checkboxes carry `data-task="<taskMark>"`,
 * a value the caller keeps secret, so a checkbox written as raw HTML cannot pass for a task.
 */
export function markdownToHtml(source: string, mark: string): string {
  taskMark = mark;
  try {
    return withoutEventHandlers((parser.parse(source) as string).trimEnd());
  } catch {
    // the parser gave up (it asks to be told so): the text stays readable, as written
    parser = createParser();
    return `<p><em>This text could not be read as Markdown; it is shown as written.</em></p>\n<pre>${escapeHtml(source)}</pre>`;
  } finally {
    taskMark = '';
  }
}

// elements whose content the HTML parser reads as text up to their end tag
const TEXT_ELEMENTS = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes']);

/**
 * `html` without its `on…` attributes, read with the HTML tokenizer's rules (quotes, `/`
 * separators, comments, script and style text). Chromium reports a Content-Security-Policy
 * violation as soon as its parser meets an event-handler attribute, even in an inert document
 * where nothing runs; DOMPurify removes them only after parsing, so they go before. A case read
 * differently here costs a violation report, not safety: DOMPurify still removes what is left.
 */
export function withoutEventHandlers(html: string): string {
  let out = '';
  let at = 0;
  // copies html[at, end) to the output and moves on
  const keep = (end: number) => {
    out += html.slice(at, end);
    at = end;
  };
  const find = (pattern: RegExp, from: number) => {
    pattern.lastIndex = from;
    return pattern.exec(html);
  };
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open === -1) break;
    keep(open);
    const tag = find(TAG_OPEN, at);
    if (!tag) {
      keep(endOfNonTag(html, at));
      continue;
    }
    keep(at + tag[0].length);
    while (at < html.length && html[at] !== '>') {
      keep(at + find(ATTRIBUTE_GAP, at)![0].length);
      if (at >= html.length || html[at] === '>') break;
      const attribute = find(ATTRIBUTE, at)!;
      // an event handler goes, name and value
      if (/^on/i.test(attribute[1])) at += attribute[0].length;
      else keep(at + attribute[0].length);
    }
    keep(Math.min(at + 1, html.length));
    const element = tag[2].toLowerCase();
    if (!tag[1] && TEXT_ELEMENTS.has(element)) {
      const close = new RegExp(`</${element}[\\t\\n\\f\\r />]`, 'ig');
      keep(find(close, at)?.index ?? html.length);
    }
  }
  return out + html.slice(at);
}

/** Where a `<` that opens no tag ends: a comment, a bogus comment (`<!…>`, `<?…>`, `</ …>`) up to `>`, or the `<` alone, as text. */
function endOfNonTag(html: string, at: number): number {
  if (html.startsWith('<!--', at)) {
    // `<!-->` and `<!--->` end at once
    const abrupt = /^-?>/.exec(html.slice(at + 4, at + 6));
    if (abrupt) return at + 4 + abrupt[0].length;
    COMMENT_CLOSE.lastIndex = at + 4;
    const close = COMMENT_CLOSE.exec(html);
    return close ? close.index + close[0].length : html.length;
  }
  if (!BOGUS_OPEN.test(html.slice(at, at + 2))) return at + 1;
  const close = html.indexOf('>', at);
  return close === -1 ? html.length : close + 1;
}

// the HTML tokenizer's states, as sticky patterns (https://html.spec.whatwg.org/#tokenization)
const TAG_OPEN = /<(\/?)([A-Za-z][^\t\n\f\r />]*)/y;
const COMMENT_CLOSE = /--!?>/g;
const BOGUS_OPEN = /^<[!?/]/;
const ATTRIBUTE_GAP = /[\t\n\f\r /]*/y;
// a name (which may start with `=`), then optionally `=` and a quoted or unquoted value
const ATTRIBUTE = /(=?[^\t\n\f\r />=]*)(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"[^"]*"?|'[^']*'?|[^\t\n\f\r >]*))?/y;

/**
 * The source with its `index`-th task (in document order, as rendered) checked or unchecked. Found
 * by the same parser that renders, so a `[ ]` in code or in a paragraph is never taken for a task.
 */
export function toggleTask(source: string, index: number, checked: boolean): string {
  const at = taskOffsets(source)[index];
  return at === undefined ? source : source.slice(0, at + 1) + (checked ? 'x' : ' ') + source.slice(at + 2);
}

/**
 * Where each task's `[ ]` or `[x]` starts in the source, in the order the tasks render. marked's
 * tokens carry their text but no offsets, and inside block quotes and list items that text has
 * lost its line prefixes (`> `, indentation); so the tokens are followed through the source line by
 * line, each line found as what is left of it once its prefix is gone.
 */
export function taskOffsets(source: string): number[] {
  let tokens: Token[];
  try {
    tokens = parser.lexer(source);
  } catch {
    parser = createParser();
    return [];
  }
  // as a render does: the footnotes' section moves to the end, and the extension's state is reset
  const walk = parser.defaults.walkTokens;
  if (walk) parser.walkTokens(tokens, walk);
  const offsets: number[] = [];
  const footnotes: Tokens.Generic[] = [];
  followTokens(tokens, new SourceReader(source, 0), offsets, footnotes);
  // a footnote's tasks render in the section at the end, in the order of the first references
  for (const section of footnotes) {
    for (const footnote of section.items as Tokens.Generic[]) {
      const definition = firstLine(footnote.raw);
      followTokens(footnote.content as Token[], new SourceReader(source, Math.max(0, source.indexOf(definition))), offsets, []);
    }
  }
  return offsets;
}

const TASK_BOX = /\[[ xX]\]/;
const firstLine = (text: string) => text.slice(0, (text.indexOf('\n') + 1 || text.length + 1) - 1);

function followTokens(tokens: readonly Token[], reader: SourceReader, offsets: number[], footnotes: Tokens.Generic[]): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'list':
        followTokens((token as Tokens.List).items, reader, offsets, footnotes);
        break;
      case 'list_item': {
        const item = token as Tokens.ListItem;
        // the item's first line starts with its bullet; the first box after it is the task's, as marked reads it
        if (item.task) {
          const line = firstLine(item.raw).trimStart();
          const at = reader.find(line);
          if (at !== -1) {
            const box = at + line.search(TASK_BOX);
            offsets.push(box);
            reader.at = box + 3;
          }
        }
        followTokens(item.tokens, reader, offsets, footnotes);
        break;
      }
      case 'blockquote':
        followTokens((token as Tokens.Blockquote).tokens, reader, offsets, footnotes);
        break;
      case 'footnotes':
        footnotes.push(token as Tokens.Generic);
        break;
      case 'checkbox':
        break;
      default:
        reader.pass(token.raw);
    }
  }
}

/** Reads the source forward, finding the lines of tokens in the order they come. */
class SourceReader {
  constructor(
    readonly source: string,
    public at: number,
  ) {}

  /** Where `text` (a line without its prefix) next starts, moving past it; -1 (not moving) if it is not there. */
  find(text: string): number {
    if (!text) return -1;
    const found = this.source.indexOf(text, this.at);
    if (found !== -1) this.at = found + text.length;
    return found;
  }

  /** Moves past the lines of a token's text (a loose task's first paragraph starts with its box, read already). */
  pass(raw: string): void {
    for (const line of raw.split('\n')) this.find(line.trimStart().replace(/^\[[ xX]\][ \t]+/, ''));
  }
}

/** A reference GitLab links in text: `#12`, `!3`, `@user`, `~label`, `~"label with spaces"`. */
export type MarkdownReference =
  | { type: 'issue'; iid: number }
  | { type: 'merge_request'; iid: number }
  | { type: 'user'; username: string }
  | { type: 'label'; name: string };

/** Where a text's references point: its project and group (full paths or ids). */
export interface ReferenceContext {
  project?: string;
  group?: string;
}

/** A console path for a reference in its context, or null to leave it as text. */
export type ReferenceHref = (reference: MarkdownReference, context: ReferenceContext) => string | null;

// After a start, a space or punctuation only: mail@example.com, a#1 and path/#3 are no references.
// Unquoted labels and usernames do not end in punctuation, so "see ~bug." links `~bug`.
const REFERENCE =
  /(?<![\p{L}\p{N}_/&])(?:#(\d+)|!(\d+)|@([A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?)|~"([^"\n]+)"|~([\p{L}\p{N}_](?:[\p{L}\p{N}_&?.:-]*[\p{L}\p{N}_&-])?))/gu;

export interface FoundReference {
  index: number;
  text: string;
  reference: MarkdownReference;
}

/** The references in a run of plain text, in order. */
export function findReferences(text: string): FoundReference[] {
  return [...text.matchAll(REFERENCE)].map((match) => {
    const [whole, issue, mergeRequest, username, quotedLabel, label] = match;
    const reference: MarkdownReference =
      issue !== undefined ? { type: 'issue', iid: Number(issue) }
      : mergeRequest !== undefined ? { type: 'merge_request', iid: Number(mergeRequest) }
      : username !== undefined ? { type: 'user', username }
      : { type: 'label', name: quotedLabel ?? label };
    return { index: match.index, text: whole, reference };
  });
}

/** A console-internal path (`/users/?search=x`), not a protocol-relative `//host` one. */
export const isConsolePath = (href: string): boolean => /^\/(?![/\\])/.test(href);

const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

function parseUrl(url: string, base?: string): URL | null {
  try {
    return new URL(url, base);
  } catch {
    return null;
  }
}

/**
 * A link's target if the console may follow it: http(s) and mailto, relative ones resolved
 * against `base`, and in-page `#fragment`s (footnotes). Null for anything else (javascript:,
 * data:, vbscript:, file:…), parsed as browsers parse it, so tabs or entities in a scheme hide nothing.
 */
export function allowedLinkHref(href: string, base: string): string | null {
  const trimmed = href.trim();
  if (!trimmed) return null;
  if (/^#[^\s]*$/.test(trimmed)) return trimmed;
  const url = parseUrl(trimmed, base);
  return url && LINK_PROTOCOLS.has(url.protocol) ? url.href : null;
}

/** An image's source if it comes from the instance's own origin (relative ones resolved against `base`), else null. */
export function allowedImageSource(src: string, base: string): string | null {
  const url = src.trim() ? parseUrl(src.trim(), base) : null;
  const instance = parseUrl(base);
  return url && instance && (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === instance.origin ? url.href : null;
}
