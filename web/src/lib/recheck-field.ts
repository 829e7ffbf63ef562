import type { FieldValues, Path, UseFormGetFieldState, UseFormTrigger } from 'react-hook-form';

/**
 * Checks a field again after another one it depends on changed (a password's confirmation, an end date after
 * its start date): once the field has been filled in, or while it shows an error. Cleared to empty, a field is
 * no longer "dirty", yet its old "must match" has to go when what it had to match is cleared too.
 */
export function recheckField<T extends FieldValues>(
  getFieldState: UseFormGetFieldState<T>,
  trigger: UseFormTrigger<T>,
  name: Path<T>,
): void {
  const state = getFieldState(name);
  if (state.isDirty || state.invalid) void trigger(name);
}
