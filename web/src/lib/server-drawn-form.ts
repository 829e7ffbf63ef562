import { type RefObject, useLayoutEffect, useSyncExternalStore } from 'react';
import type { FieldValues, Path, UseFormSetValue } from 'react-hook-form';

const noSubscription = () => () => {};

/**
 * False in the server's HTML of a page and while React takes that page over, true from then on (and at once
 * for a page drawn in the browser). The forms the server draws (server/web-app/page-head.ts) disable their
 * submit button until then, so that an early click or Enter does not send the bare HTML form. Those forms say
 * method="post" too: a browser that restores the button's state on reload (Firefox) or a password manager can
 * still send one, and a GET would put what was typed, a password included, in the address. The server answers
 * such a POST by loading the page again (server/app.ts).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * What was typed into a server-drawn form, or filled in by the browser or a password manager, before React took
 * it over is only in the page, not in a controlled form's state: on mount, hands each named text field's value
 * to `adopt` (nothing for a form drawn in the browser, whose fields start empty). Not needed with
 * react-hook-form's `register`, which reads the fields' values itself.
 */
export function useValuesTypedEarly(
  form: RefObject<HTMLFormElement | null>,
  adopt: (name: string, value: string) => void,
): void {
  // In the commit that takes the page over, before the next render can write the (still empty) state into the
  // fields: useHydrated turns true in that commit's layout effects too, and both land in one render.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for what the server's HTML collected
  useLayoutEffect(() => {
    for (const field of Array.from(form.current?.elements ?? [])) {
      const text =
        field instanceof HTMLTextAreaElement ||
        (field instanceof HTMLInputElement && !['checkbox', 'radio', 'file', 'hidden'].includes(field.type));
      if (text && field.name && field.value !== '') adopt(field.name, field.value);
    }
  }, []);
}

/**
 * A form checked live (react-hook-form, mode onChange) whose fields were filled in before React took the page
 * over: each of them is checked once it has, as if it had just been typed ('ab' in a name shows its hint at once,
 * not after the next keystroke).
 */
export function useCheckTypedEarly<T extends FieldValues>(
  form: RefObject<HTMLFormElement | null>,
  setValue: UseFormSetValue<T>,
): void {
  useValuesTypedEarly(form, (name, value) => {
    setValue(name as Path<T>, value as T[Path<T>], { shouldValidate: true, shouldDirty: true, shouldTouch: true });
  });
}
