import { useEffect, useLayoutEffect, useRef } from 'react';
import { useRouter } from '@tanstack/react-router';
import type { HLJSApi } from 'highlight.js';
import { highlightedLineNodes, languageForFence, loadHighlighter, type HighlightNode } from '../lib/highlight.ts';
import type { MarkdownProps } from './markdown.tsx';
import { renderMarkdown } from './markdown-render.ts';
import { toggleTask } from '../lib/markdown.ts';
import './highlight.css';
import './markdown.css';

/** The lazily loaded body of `Markdown`: its nodes are built outside React and put in place whole. */
export default function MarkdownView({ source, instanceUrl, references, onToggleTask, tasksBusy = false }: MarkdownProps) {
  const container = useRef<HTMLDivElement>(null);
  const router = useRouter({ warn: false });
  const latest = useRef({ onToggleTask, source });
  const tasksEditable = Boolean(onToggleTask);
  const context = references?.context;
  const href = references?.href;

  useLayoutEffect(() => {
    latest.current = { onToggleTask, source };
  });

  useLayoutEffect(() => {
    const element = container.current!;
    const referenceHref = context && href ? (reference: Parameters<typeof href>[0]) => href(reference, context) : undefined;
    // a ticked task changes the text, and the text is built again: the focus stays on that task
    const focusedTask = element.contains(document.activeElement) ? (document.activeElement as HTMLElement).dataset.task : undefined;
    element.replaceChildren(renderMarkdown(source, { instanceUrl, consoleOrigin: window.location.origin, referenceHref, tasksEditable }));
    if (focusedTask !== undefined) element.querySelector<HTMLInputElement>(`input[data-task="${focusedTask}"]`)?.focus();
    const controller = new AbortController();
    void highlightCodeBlocks(element, controller.signal);
    return () => controller.abort();
    // the context's fields, not its object: a caller's inline object must not re-render the text
  }, [source, instanceUrl, context?.project, context?.group, href, tasksEditable]);

  // after every render: a rebuilt text has new boxes
  useLayoutEffect(() => {
    for (const box of container.current!.querySelectorAll<HTMLInputElement>('input[data-task]')) {
      if (tasksBusy) box.setAttribute('aria-disabled', 'true');
      else box.removeAttribute('aria-disabled');
    }
  });

  useEffect(() => {
    const element = container.current!;
    const onChange = (event: Event) => {
      const input = event.target;
      if (!(input instanceof HTMLInputElement) || input.dataset.task === undefined) return;
      // the text with that box changed, by the parser already loaded here: the caller's chunk need not carry it
      const { onToggleTask: onToggle, source: text } = latest.current;
      const index = Number(input.dataset.task);
      if (!onToggle?.(index, input.checked, toggleTask(text, index, input.checked))) input.checked = !input.checked;
    };
    // links into the console stay in the single-page app, as its own links do
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!router || !(link instanceof HTMLAnchorElement) || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin || link.getAttribute('href')!.startsWith('#')) return;
      event.preventDefault();
      router.history.push(url.pathname + url.search + url.hash);
    };
    element.addEventListener('change', onChange);
    element.addEventListener('click', onClick);
    return () => {
      element.removeEventListener('change', onChange);
      element.removeEventListener('click', onClick);
    };
  }, [router]);

  return <div ref={container} className="markdown" />;
}

/** Highlights each fenced block whose language highlight.js knows, loading only those grammars. */
async function highlightCodeBlocks(root: HTMLElement, signal: AbortSignal): Promise<void> {
  const blocks = [...root.querySelectorAll<HTMLElement>('pre > code[class*="language-"]')];
  await Promise.all(
    blocks.map(async (code) => {
      const language = languageForFence(/(?:^|\s)language-(\S+)/.exec(code.className)?.[1] ?? '');
      const hljs: HLJSApi | null = language ? await loadHighlighter(language) : null;
      if (!hljs || !language || signal.aborted) return;
      const html = hljs.highlight(code.textContent ?? '', { language, ignoreIllegals: true }).value;
      // highlight.js's markup becomes nodes, never HTML: its text is the block's own
      code.replaceChildren(...toNodes(highlightedLineNodes(html)));
      code.classList.add('hljs');
    }),
  );
}

function toNodes(nodes: readonly HighlightNode[]): Node[] {
  return nodes.map((node) => {
    if (typeof node === 'string') return document.createTextNode(node);
    const span = document.createElement('span');
    span.className = node.className;
    span.append(...toNodes(node.children));
    return span;
  });
}
