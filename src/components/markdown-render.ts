import { findReferences, isConsolePath, markdownToHtml, type MarkdownReference } from '../lib/markdown.ts';
import { sanitizeToFragment, type SanitizeContext } from './markdown-sanitizer.ts';

export interface RenderContext extends SanitizeContext {
  /** A console path for a reference, or null to leave it as text. */
  referenceHref?: (reference: MarkdownReference) => string | null;
  /** Task checkboxes can be changed (otherwise they are disabled). */
  tasksEditable: boolean;
}

function randomMark(): string {
  return Array.from(crypto.getRandomValues(new Uint32Array(4)), (word) => word.toString(36)).join('');
}

/**
 * Markdown as DOM nodes ready for the page: parsed, sanitized, then, still inert, its task
 * checkboxes numbered and labelled, foreign images replaced by their text and references linked.
 */
export function renderMarkdown(source: string, context: RenderContext): DocumentFragment {
  const taskMark = randomMark();
  const fragment = sanitizeToFragment(markdownToHtml(source, taskMark), context);
  prepareTasks(fragment, taskMark, context.tasksEditable);
  replaceBlockedImages(fragment);
  if (context.referenceHref) linkReferences(fragment, context.referenceHref);
  return fragment;
}

function prepareTasks(fragment: DocumentFragment, taskMark: string, editable: boolean): void {
  let index = 0;
  for (const input of fragment.querySelectorAll('input')) {
    // only the parser's checkboxes carry the mark; one written as raw HTML is dropped
    if (input.getAttribute('data-task') !== taskMark || input.type !== 'checkbox') {
      input.remove();
      continue;
    }
    input.setAttribute('data-task', String(index));
    input.disabled = !editable;
    const item = input.closest('li');
    item?.classList.add('task-list-item');
    input.setAttribute('aria-label', taskLabel(item) || `Task ${index + 1}`);
    index += 1;
  }
}

/** The item's own text, without its nested lists: what the checkbox is about. */
function taskLabel(item: HTMLLIElement | null): string {
  if (!item) return '';
  const own = [...item.childNodes].filter((node) => !(node instanceof Element && (node.tagName === 'UL' || node.tagName === 'OL')));
  return own.map((node) => node.textContent ?? '').join('').replace(/\s+/g, ' ').trim();
}

function replaceBlockedImages(fragment: DocumentFragment): void {
  for (const image of fragment.querySelectorAll('img:not([src])')) {
    const alt = image.getAttribute('alt');
    image.replaceWith(...(alt ? [fragment.ownerDocument.createTextNode(alt)] : []));
  }
}

function linkReferences(fragment: DocumentFragment, referenceHref: (reference: MarkdownReference) => string | null): void {
  const document = fragment.ownerDocument;
  const walker = document.createTreeWalker(fragment, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  // text inside links and code stays as written
  for (let node = walker.nextNode(); node; node = walker.nextNode()) if (!node.parentElement?.closest('a, code, pre')) texts.push(node as Text);
  for (const text of texts) {
    const value = text.data;
    const parts: Node[] = [];
    let at = 0;
    for (const found of findReferences(value)) {
      const href = referenceHref(found.reference);
      if (href === null || !isConsolePath(href)) continue;
      const link = document.createElement('a');
      link.setAttribute('href', href);
      link.className = 'gfm-reference';
      link.textContent = found.text;
      parts.push(document.createTextNode(value.slice(at, found.index)), link);
      at = found.index + found.text.length;
    }
    if (parts.length) text.replaceWith(...parts, document.createTextNode(value.slice(at)));
  }
}
