import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { ApiError } from '../../api/errors.ts';
import { messageFieldErrors } from '../../api/service-accounts.ts';
import { errorText } from '../../components/error-panel.tsx';
import { applyServerErrors } from '../../components/form-errors.ts';

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
