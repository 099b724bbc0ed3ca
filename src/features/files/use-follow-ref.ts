import { useEffect, useRef } from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { defaultTargetBranch } from './commit-fields.tsx';
import type { FilesContext } from './use-files-context.ts';

/** When the ref switcher moves the screen to another branch, an untouched target branch follows it; a typed one stays. */
export function useFollowRef<T extends FieldValues & { branch: string }>(form: UseFormReturn<T>, context: FilesContext, username: string | undefined) {
  const shownRef = useRef(context.gitRef);
  useEffect(() => {
    if (shownRef.current === context.gitRef) return;
    shownRef.current = context.gitRef;
    const field = 'branch' as Path<T>;
    if (!form.getFieldState(field).isDirty) form.setValue(field, defaultTargetBranch(context.gitRef, context.access, username) as PathValue<T, Path<T>>);
  }, [context.gitRef, context.access, form, username]);
}
