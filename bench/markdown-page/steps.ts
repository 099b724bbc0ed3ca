import { markdownToHtml, type MarkdownReference } from '../../src/lib/markdown.ts';
import { sanitizeToFragment } from '../../src/components/markdown-sanitizer.ts';
import { renderMarkdown } from '../../src/components/markdown-render.ts';

/**
 * Where a render's time goes, each step timed alone and outside React: the parser, DOMPurify on
 * its HTML, the whole of renderMarkdown (both again, plus the task, image and reference passes),
 * then inserting its nodes up to the frame that painted them.
 */
export async function steps(source: string, referenceHref: (reference: MarkdownReference) => string | null, afterNextPaint: () => Promise<void>): Promise<Record<string, number>> {
  const context = { instanceUrl: location.origin, consoleOrigin: location.origin, referenceHref, tasksEditable: true };
  let at = performance.now();
  const lap = () => {
    const now = performance.now();
    const elapsed = now - at;
    at = now;
    return elapsed;
  };
  const html = markdownToHtml(source, 'mark');
  const parse = lap();
  sanitizeToFragment(html, context);
  const sanitize = lap();
  const fragment = renderMarkdown(source, context);
  const render = lap();
  const host = document.body.appendChild(document.createElement('div'));
  host.className = 'markdown';
  host.append(fragment);
  await afterNextPaint();
  const paint = lap();
  host.remove();
  return { markdownToHtml: parse, sanitizeToFragment: sanitize, renderMarkdown: render, 'insert to painted': paint };
}
