/**
 * The platform's error bodies: `{"message": "..."}`, `{"message": {"field": ["..."]}}`,
 * `{"message": ["..."]}`, and `{"error": "..."}` for parameter validation.
 */
export type ErrorBody =
  | { message: string | string[] | Record<string, string[]> }
  | { error: string; [extra: string]: unknown };

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof (body as { message?: unknown }).message === 'string'
      ? (body as { message: string }).message
      : JSON.stringify(body));
  }
}

const reasons: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  414: 'URI Too Long',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
};

/** `{"message": "404 Project Not Found"}` style: the status, then what. */
export function statusError(status: number, what?: string): HttpError {
  const text = what ? `${status} ${what}` : `${status} ${reasons[status] ?? 'Error'}`;
  return new HttpError(status, { message: text });
}

export const badRequest = (detail?: string) =>
  new HttpError(400, { message: detail ? `400 Bad request - ${detail}` : '400 Bad request' });
export const unauthorized = () => statusError(401);
export const forbidden = (detail?: string) =>
  new HttpError(403, { message: detail ? `403 Forbidden - ${detail}` : '403 Forbidden' });
/** `notFound('Project')` answers `404 Project Not Found`. */
export const notFound = (what?: string) => statusError(404, what ? `${what} Not Found` : 'Not found');
export const conflict = (message: string) => new HttpError(409, { message });
/** Grape's parameter errors: `{"error": "name is missing"}`. */
export const paramError = (message: string) => new HttpError(400, { error: message });
/** Model validation errors: `{"message": {"field": ["..."]}}`. */
export const validationError = (fields: Record<string, string[]>) =>
  new HttpError(400, { message: fields });
