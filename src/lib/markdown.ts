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
  return micromark(source, { allowDangerousHtml: true, extensions: SYNTAX, htmlExtensions: [GFM_HTML, taskCheckbox] });
}

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
