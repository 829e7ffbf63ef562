import { forwardRef, type InputHTMLAttributes, useId, useState } from 'react';
import { messageText } from '../../../../../contracts/i18n/text';
import { cn } from '../../../components/ui/cn';
import { useI18n } from '../../../lib/i18n';

interface PasswordFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: string;
  error?: string;
  /** Outline the input red without a message (the login form's shared error banner). */
  invalid?: boolean;
}

/**
 * A password input with a show/hide toggle ('Show password' / 'Hide password') at its end (the left in Arabic).
 * The password itself is typed left to right, as passwords are Latin letters, digits and symbols.
 */
export const PasswordField = forwardRef<HTMLInputElement, PasswordFieldProps>(function PasswordField(
  { label, error, invalid, className, id, ...props },
  ref,
) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const [visible, setVisible] = useState(false);
  const i18n = useI18n();
  const { t } = i18n;
  const hasError = Boolean(error) || invalid;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={inputId} className={cn('text-sm font-medium', error ? 'text-danger' : 'text-fg')}>
        {label}
      </label>
      <div className="relative">
        <input
          ref={ref}
          id={inputId}
          type={visible ? 'text' : 'password'}
          dir="ltr"
          aria-invalid={hasError ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          // The input is always left to right, so its own start is the left: the room for the toggle, at the
          // page's end, is on its left in Arabic (rtl: follows the page's dir).
          className={cn(
            'w-full rounded-lg border bg-surface py-2.5 ps-3 pe-12 rtl:ps-12 rtl:pe-3 text-fg placeholder:text-fg-muted/70 focus:border-accent focus:outline-none disabled:opacity-60',
            hasError ? 'border-danger' : 'border-border',
          )}
          {...props}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={t(visible ? 'accounts.hidePassword' : 'accounts.showPassword')}
          aria-pressed={visible}
          aria-controls={inputId}
          className="absolute inset-y-0 end-0 grid w-11 place-items-center rounded-e-lg text-fg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="size-5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
            <circle cx="12" cy="12" r="3" />
            {visible ? <path d="M4 4l16 16" /> : null}
          </svg>
        </button>
      </div>
      {error ? (
        <p id={errorId} className="text-sm text-danger">
          {messageText(i18n, error)}
        </p>
      ) : null}
    </div>
  );
});
