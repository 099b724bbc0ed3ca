import type { CleanupField, CleanupReason, CleanupRules, CleanupTag } from '../../lib/registry-cleanup.ts';

/** The messages between the preview and its worker (preview.worker.ts). */

/** Reasons by code: one byte per tag crosses back. */
export const REASON_CODES: readonly CleanupReason[] = ['latest', 'protected', 'not-matched', 'kept-by-regex', 'newest-n', 'younger', 'deleted'];

export type PreviewRequest =
  | { type: 'tags'; version: number; tags: CleanupTag[] }
  | { type: 'plan'; id: number; rules: CleanupRules; now: number };

export interface PreviewAnswer {
  id: number;
  /** The tags the plan ran over: an answer for older tags is dropped. */
  tagsVersion: number;
  errors: Partial<Record<CleanupField, string>>;
  warnings: Partial<Record<CleanupField, string>>;
  /** A code of REASON_CODES per tag, in the tags' order; null when the rules have errors. */
  reasons: Uint8Array | null;
  deleted: number;
  /** The worker's time for this plan. */
  ms: number;
}
