import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { Markdown, type MarkdownReference } from '../../src/components/markdown.tsx';
// the console's own styles, so layout and paint cost what they cost on a screen
import '../../src/styles.css';

/**
 * The bench's page (bench/markdown.ts builds it with Vite): the console's `Markdown` component,
 * lazily loaded as on a screen, with references linked and tasks editable as on an issue.
 * `window.markdownBench.show(source)` sets the source and resolves with the milliseconds from
 * then to the frame that painted it.
 */

const referenceHref = (reference: MarkdownReference): string | null =>
  reference.type === 'issue' ? `/projects/7/issues/${reference.iid}`
  : reference.type === 'user' ? `/users/?search=${encodeURIComponent(reference.username)}`
  : reference.type === 'label' ? `/projects/7/issues?label_name=${encodeURIComponent(reference.name)}`
  : null;
const references = { context: { project: 'acme-engineering/frontend/web-app' }, href: referenceHref };
// editable boxes, as on an issue; the bench ticks none
const onToggleTask = () => false;

let setSource: (source: string) => void = () => {
  throw new Error('the page has not rendered yet');
};

function Page() {
  const [source, set] = useState('');
  setSource = set;
  return <Markdown source={source} instanceUrl={window.location.origin} references={references} onToggleTask={onToggleTask} />;
}

/** The next frame's paint is over when a task queued from its animation frame callback runs. */
const afterNextPaint = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

(window as unknown as { markdownBench: unknown }).markdownBench = {
  async show(source: string): Promise<number> {
    const started = performance.now();
    // React renders and commits at once; the view parses, sanitizes and inserts in its layout effect
    flushSync(() => setSource(source));
    const view = document.querySelector('.markdown:not(.markdown--pending)');
    if (!view?.firstChild) throw new Error('the Markdown view was not on the page when its source was set (its chunk not loaded yet?)');
    await afterNextPaint();
    return performance.now() - started;
  },
  /** Where the time goes, outside React (bench/markdown-page/steps.ts, loaded apart so the Markdown chunk stays as the console has it). */
  async steps(source: string): Promise<Record<string, number>> {
    const { steps } = await import('./steps.ts');
    return steps(source, referenceHref, afterNextPaint);
  },
};

createRoot(document.getElementById('root')!).render(<Page />);
