import * as z from 'zod/mini';

/** spec 1, 4.1.8: a boolean field may be null, and null means false. */
export const flag = z.pipe(z.nullish(z.boolean()), z.transform((value) => value ?? false));

/** Objects keep fields the schema does not name: newer platform versions add fields. */
export const loose = z.looseObject;

/** An issue's or merge request's `references`: `#12`, `group/project#12` relative to where it is shown, and in full. */
export const referencesSchema = z.nullish(z.looseObject({ short: z.string(), relative: z.string(), full: z.string() }));

/** `YYYY-MM-DD` */
export const isoDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

/** URLs from the API become links only when they are http(s); anything else renders as text. */
export function safeHttpUrl(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}
