import { type ReactNode, type SelectHTMLAttributes, useId } from 'react';
import { messageText } from '../../../../contracts/i18n/text';
import { useI18n } from '../../lib/i18n';
import { cn } from './cn';

/** A labelled <select> with its error below; the label and border turn red on error (like TextField). */
export function SelectField({
  label,
  error,
  className,
  id,
  children,
  ...props
}: { label: ReactNode; error?: string; className?: string } & SelectHTMLAttributes<HTMLSelectElement>) {
  const autoId = useId();
  const selectId = id ?? autoId;
  const errorId = `${selectId}-error`;
  const i18n = useI18n();
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={selectId} className={cn('text-sm font-medium', error ? 'text-danger' : 'text-fg')}>
        {label}
      </label>
      <select
        id={selectId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={cn(
          'h-[46px] w-full rounded-lg border bg-surface px-3 text-fg focus:border-accent focus:outline-none disabled:opacity-60',
          error ? 'border-danger' : 'border-border',
        )}
        {...props}
      >
        {children}
      </select>
      {error ? (
        <p id={errorId} className="text-sm text-danger">
          {messageText(i18n, error)}
        </p>
      ) : null}
    </div>
  );
}
