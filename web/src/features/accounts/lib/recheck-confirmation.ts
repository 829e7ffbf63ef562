import type { FieldValues, Path, UseFormGetFieldState, UseFormTrigger } from 'react-hook-form';

/**
 * The onChange of a password field: checks its confirmation again once that has been typed in, or while it
 * shows an error. Cleared to empty, the confirmation is no longer "dirty", yet its old "must match" has to
 * go when the password is cleared too.
 */
export function recheckConfirmation<T extends FieldValues>(
  getFieldState: UseFormGetFieldState<T>,
  trigger: UseFormTrigger<T>,
  confirmation: Path<T>,
): () => void {
  return () => {
    const state = getFieldState(confirmation);
    if (state.isDirty || state.invalid) void trigger(confirmation);
  };
}
