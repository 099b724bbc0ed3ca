import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { ApiError } from '../api/errors.ts';

/** Puts the server's field errors on the form's fields; false when none of them belongs to a field. */
export function applyServerErrors<T extends FieldValues>(form: UseFormReturn<T>, error: unknown, fields: readonly FieldPath<T>[]): boolean {
  if (!(error instanceof ApiError) || !error.fieldErrors) return false;
  let placed = false;
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    if ((fields as readonly string[]).includes(field)) {
      form.setError(field as FieldPath<T>, { type: 'server', message: messages.join(', ') });
      placed = true;
    }
  }
  return placed;
}
