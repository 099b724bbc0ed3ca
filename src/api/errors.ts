/** What went wrong, for a screen to say so and decide whether a retry can help. */
export type ApiErrorKind = 'http' | 'network' | 'parse' | 'timeout' | 'aborted';

export class ApiError extends Error {
  readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly kind: ApiErrorKind = 'http',
    readonly fieldErrors?: Readonly<Record<string, string[]>>,
    /** Seconds to wait before retrying, from `Retry-After` on a 429 or 503. */
    readonly retryAfter?: number,
    /** The parsed error body, for callers that read more than the message (e.g. `error_code`). */
    readonly body?: unknown,
  ) {
    super(message);
  }

  /** Network failures, 5xx and 429 may pass; other 4xx will not. */
  get retryable(): boolean {
    return this.kind === 'network' || this.kind === 'timeout' || this.status === 429 || this.status >= 500;
  }
}

const humanField = (field: string) => field.replace(/_/g, ' ').replace(/\./g, ' ');

/**
 * Readable text from the platform's four error shapes: `{"message": "..."}`,
 * `{"message": {"field": ["..."]}}`, `{"message": ["..."]}` and `{"error": "..."}`.
 */
export function describeErrorBody(body: unknown, status: number): { message: string; fieldErrors?: Record<string, string[]> } {
  if (body && typeof body === 'object') {
    const { message, error, error_description: description } = body as Record<string, unknown>;
    if (typeof message === 'string' && message.trim()) return { message };
    if (Array.isArray(message) && message.length) return { message: message.map(String).join('; ') };
    if (message && typeof message === 'object') {
      const fieldErrors: Record<string, string[]> = {};
      const lines: string[] = [];
      for (const [field, problems] of Object.entries(message as Record<string, unknown>)) {
        const list = (Array.isArray(problems) ? problems : [problems]).map(String);
        fieldErrors[field] = list;
        lines.push(`${field === 'base' ? '' : `${humanField(field)} `}${list.join(', ')}`.trim());
      }
      if (lines.length) return { message: lines.join('; '), fieldErrors };
    }
    if (typeof description === 'string' && description.trim()) return { message: description };
    if (typeof error === 'string' && error.trim()) return { message: error };
  }
  if (typeof body === 'string' && body.trim() && body.length < 300 && !/^\s*</.test(body)) return { message: body.trim() };
  return { message: `The server answered ${status} without an explanation.` };
}

/** `expires_at` as the platform's full messages begin: "Expires at". */
const sentenceField = (field: string) => {
  const words = humanField(field);
  return words.charAt(0).toUpperCase() + words.slice(1);
};
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Splits a sentence-style error into the fields it names. Some services (service
 * accounts, tokens, hooks) answer model errors as one string ("400 Bad request - Username has already been taken and Email
 * has already been taken", "Expires at must be before 2027-01-01"), not as a field hash.
 */
export function messageFieldErrors(message: string, fields: readonly string[]): { fieldErrors: Record<string, string[]>; unplaced: string[] } {
  const names = new Map(fields.map((field) => [sentenceField(field), field]));
  // longest first, so "Username" is not read as "User" when both are fields
  const alternatives = [...names.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
  const text = message.replace(/^\d{3} [A-Za-z ]+ - /, '').trim();
  const fieldErrors: Record<string, string[]> = {};
  const unplaced: string[] = [];
  if (!alternatives) return { fieldErrors, unplaced: text ? [text] : [] };
  // Rails joins full messages with to_sentence (", ", " and ", ", and ") or ". ": split only before a field's name
  const clauses = text.split(new RegExp(`(?:,? and |, |\\. )(?=(?:${alternatives}) )`));
  for (const clause of clauses) {
    const named = [...names.keys()].sort((a, b) => b.length - a.length).find((name) => clause.startsWith(`${name} `));
    if (named) (fieldErrors[names.get(named)!] ??= []).push(clause.replace(/\.$/, ''));
    else if (clause.trim()) unplaced.push(clause.trim());
  }
  return { fieldErrors, unplaced };
}
