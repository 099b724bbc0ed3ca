import { ApiError } from '../../api/errors.ts';
import { isStaleEditError } from '../../api/files.ts';

export type FileFormField = 'file_path' | 'branch' | 'commit_message' | 'content';

/** Which field a refusal of a file commit is about, when it names one (the platform answers in sentences). */
export function fileErrorField(error: unknown): FileFormField | null {
  if (!(error instanceof ApiError) || error.kind !== 'http' || error.status >= 500) return null;
  const message = error.message;
  if (/file with this name|directory with this name|file_path|file path|directory traversal|invalid path/i.test(message)) return 'file_path';
  if (/branch|push into/i.test(message)) return 'branch';
  if (/commit_message/i.test(message)) return 'commit_message';
  if (/no changes were made/i.test(message)) return 'content';
  return null;
}

/** The sentence shown when the branch moved under an edit: what happened and that the text is kept. */
export function staleEditMessage(branch: string): string {
  return `Someone committed to this file on ${branch} after you opened it, so your change was not saved (it would have overwritten theirs). Your text is still in the editor: copy it, open the latest version, and apply your change there.`;
}

export { isStaleEditError };
