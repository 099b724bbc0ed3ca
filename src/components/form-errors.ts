import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { ApiError, messageFieldErrors } from '../api/errors.ts';
import { errorText } from './error-panel.tsx';

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

/**
 * Puts a server error on the fields it names, whether the platform sent a field hash or a
 * sentence ("Email has already been taken"); returns what belongs to no field, for above the form.
 */
export function placeServerErrors<T extends FieldValues>(form: UseFormReturn<T>, error: unknown, fields: readonly FieldPath<T>[]): string | null {
  if (applyServerErrors(form, error, fields)) return null;
  if (error instanceof ApiError && error.kind === 'http') {
    const { fieldErrors, unplaced } = messageFieldErrors(error.message, fields);
    const placed = Object.entries(fieldErrors);
    for (const [field, messages] of placed) form.setError(field as FieldPath<T>, { type: 'server', message: messages.join('; ') });
    if (placed.length) return unplaced.length ? unplaced.join('; ') : null;
  }
  return errorText(error);
}
