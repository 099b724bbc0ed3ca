import type { ReferenceContext, ReferenceHref } from '../lib/markdown.ts';
import { chunk, lazyPart } from './lazy-part.ts';

export type { MarkdownReference, ReferenceContext, ReferenceHref } from '../lib/markdown.ts';

export type TaskToggle = (index: number, checked: boolean, edited: string) => boolean;

export interface MarkdownProps {
  /** The text as the user wrote it (a description, a note). */
  source: string;
  /** The connection's instance URL: relative links resolve there, and images are shown only from its origin. */
  instanceUrl: string;
  /** Where `#12`, `!3`, `@user` and `~label` point: the text's project or group, and the console path for each. */
  references?: { context: ReferenceContext; href: ReferenceHref };
  /**
   * Makes task list checkboxes editable: called with the task's index in document order, its new
   * state and the source with that task changed (as `toggleTask` in src/lib/markdown.ts makes it).
   * Returns whether the change was taken: a box whose change was not goes back to what the text says.
   * Without it they are read-only.
   */
  onToggleTask?: TaskToggle;
  /** A tick is being saved: the boxes say so (`aria-disabled`, keeping the focus) and take no change meanwhile. */
  tasksBusy?: boolean;
}

// the parser, the sanitizer and their rules are a chunk of their own, loaded by the first screen that shows Markdown
/** GitLab Flavored Markdown, parsed and sanitized: the one way user-written Markdown reaches the page. */
export const Markdown = lazyPart(
  chunk(() => import('./markdown-view.tsx')),
  (module) => module.default,
  <div className="markdown markdown--pending" role="status">
    Loading…
  </div>,
);
