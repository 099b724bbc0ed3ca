import { micromark, parse, postprocess, preprocess, type Options } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

type HtmlExtension = NonNullable<Options['htmlExtensions']>[number];

// built once: micromark's extensions are plain tables, shared by every render
const SYNTAX = [gfm()];
const GFM_HTML = gfmHtml();

/**
 * HTML for GitLab Flavored Markdown as users write it: CommonMark with GFM's tables, task lists,
 * strikethrough, autolinks and footnotes. Raw HTML passes through for the sanitizer to judge, so
 * this output must never reach a page unsanitized. Task checkboxes carry `data-task="<taskMark>"`,
 * a value the caller keeps secret, so a checkbox written as raw HTML cannot pass for a task.
 */
export function markdownToHtml(source: string, taskMark: string): string {
  // replaces GFM's opening of the checkbox; its closing (`checked`, `/>`) stays
  const taskCheckbox = {
    enter: {
      taskListCheck(this: { tag(markup: string): void }) {
        this.tag(`<input type="checkbox" data-task="${taskMark}" `);
      },
    },
  } as HtmlExtension;
  return withoutEventHandlers(micromark(source, { allowDangerousHtml: true, extensions: SYNTAX, htmlExtensions: [GFM_HTML, taskCheckbox] }));
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
  const events = postprocess(parse({ extensions: SYNTAX }).document().write(preprocess()(source, undefined, true)));
  let seen = -1;
  for (const [kind, token] of events) {
    const type: string = token.type;
    if (kind !== 'enter' || (type !== 'taskListCheckValueChecked' && type !== 'taskListCheckValueUnchecked')) continue;
    if (++seen < index) continue;
    const at = token.start.offset;
    return source.slice(0, at) + (checked ? 'x' : ' ') + source.slice(at + 1);
  }
  return source;
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
