import { type ComponentProps, type ReactNode, type TextareaHTMLAttributes, useId } from 'react';
import { messageText } from '../../../../contracts/i18n/text';
import { useI18n } from '../../lib/i18n';
import { cn } from './cn';

const control =
  'w-full rounded-lg border bg-surface px-3 py-2.5 text-fg placeholder:text-fg-muted/70 focus:border-accent focus:outline-none disabled:opacity-60 aria-invalid:border-danger';

interface FieldProps {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  className?: string;
}

/** A labelled input with its error below; the label and border turn red on error. */
export function TextField({
  label,
  error,
  hint,
  className,
  id,
  ...props
}: FieldProps & Omit<ComponentProps<'input'>, 'className'>) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ');
  const i18n = useI18n();
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={inputId} className={cn('text-sm font-medium', error ? 'text-danger' : 'text-fg')}>
        {label}
      </label>
      <input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={cn(control, error ? 'border-danger' : 'border-border')}
        {...props}
      />
      {hint ? <div id={hintId}>{hint}</div> : null}
      {error ? (
        <p id={errorId} className="text-sm text-danger">
          {messageText(i18n, error)}
        </p>
      ) : null}
    </div>
  );
}

export function TextAreaField({
  label,
  error,
  className,
  id,
  ...props
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const i18n = useI18n();
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={inputId} className={cn('text-sm font-medium', error ? 'text-danger' : 'text-fg')}>
        {label}
      </label>
      <textarea
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={cn(control, 'min-h-32', error ? 'border-danger' : 'border-border')}
        {...props}
      />
      {error ? (
        <p id={errorId} className="text-sm text-danger">
          {messageText(i18n, error)}
        </p>
      ) : null}
    </div>
  );
}
