import DOMPurify, { type Config } from 'dompurify';
import { sanitizeInert } from './inert-html.ts';
import { allowedImageSource, allowedLinkHref } from '../lib/markdown.ts';

// GitLab's own allow-list (its Markdown sanitization filter), plus the footnotes' section; no
// forms, media, frames, SVG, MathML or style
const ALLOWED_TAGS = [
  'a', 'abbr', 'b', 'bdo', 'blockquote', 'br', 'caption', 'cite', 'code', 'dd', 'del', 'details', 'dfn', 'div', 'dl', 'dt', 'em',
  'figcaption', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img', 'input', 'ins', 'kbd', 'li', 'mark', 'ol', 'p', 'pre',
  'q', 'rp', 'rt', 'ruby', 's', 'samp', 'section', 'small', 'span', 'strike', 'strong', 'sub', 'summary', 'sup', 'table', 'tbody', 'td',
  'tfoot', 'th', 'thead', 'time', 'tr', 'tt', 'ul', 'var', 'wbr',
  // the body DOMPurify parses into and walks from: only its children are returned. Not allowed, it
  // is a forbidden element whose content DOMPurify keeps by deep-copying all of it once more (a
  // third of the time a 100 KB description takes to sanitize)
  'body',
];
const ALLOWED_ATTR = [
  'href', 'src', 'alt', 'title', 'align', 'colspan', 'rowspan', 'start', 'type', 'checked', 'open', 'datetime', 'id', 'class', 'lang', 'dir',
  'aria-label', 'aria-describedby', 'data-task', 'data-footnotes', 'data-footnote-ref', 'data-footnote-backref',
];
// classes the parser writes (a code block's language, the footnotes' section); a user's own
// classes could dress their text as the console's controls
const ALLOWED_CLASS = /^(?:language-[^\s]+|footnotes|sr-only)$/;

const CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};

export interface SanitizeContext {
  /** The instance's URL: relative links and images resolve there; images come from its origin only. */
  instanceUrl: string;
  /** The console's own origin: links elsewhere get rel="noopener noreferrer nofollow". */
  consoleOrigin: string;
}

// hooks belong to this instance alone, and read the context of the one sanitize call running
const purify = DOMPurify();
let current: SanitizeContext | null = null;

purify.addHook('uponSanitizeAttribute', (_node, data) => {
  if (data.attrName !== 'class') return;
  data.attrValue = data.attrValue.split(/\s+/).filter((name) => ALLOWED_CLASS.test(name)).join(' ');
  data.keepAttr = data.attrValue !== '';
});

purify.addHook('afterSanitizeAttributes', (node) => {
  if (!current) return;
  if (node.nodeName === 'A' && node.hasAttribute('href')) {
    const href = allowedLinkHref(node.getAttribute('href') ?? '', current.instanceUrl);
    // a link the console will not follow stays as its text
    if (href === null) node.removeAttribute('href');
    else {
      node.setAttribute('href', href);
      if (!href.startsWith('#') && new URL(href).origin !== current.consoleOrigin) node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  } else if (node.nodeName === 'IMG') {
    // removed here, in the inert document, so no request ever leaves for a foreign image
    const src = allowedImageSource(node.getAttribute('src') ?? '', current.instanceUrl);
    if (src === null) node.removeAttribute('src');
    else node.setAttribute('src', src);
  }
});

/**
 * HTML cleaned by DOMPurify into a fragment of an inert document: only the allowed elements and
 * attributes, links only to http(s), mailto or in-page targets, images without `src` unless the
 * instance serves them. The fragment goes into the page as nodes: no HTML string is parsed again.
 */
export function sanitizeToFragment(html: string, context: SanitizeContext): DocumentFragment {
  current = context;
  try {
    return sanitizeInert(purify, html, CONFIG);
  } finally {
    current = null;
  }
}
