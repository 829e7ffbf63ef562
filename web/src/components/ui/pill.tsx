import { Link, type LinkProps } from 'react-router';
import { cn } from './cn';

export function pillClasses(active: boolean, className?: string) {
  return cn(
    'inline-flex h-9 shrink-0 items-center rounded-full border px-4 text-sm font-medium whitespace-nowrap transition-colors',
    active
      ? 'border-accent bg-accent text-accent-fg'
      : 'border-border bg-surface-raised text-fg hover:border-accent hover:text-accent',
    className,
  );
}

/** A rounded filter link; the active one is filled and announced as the current page. */
export function PillLink({ active = false, className, ...props }: LinkProps & { active?: boolean }) {
  return <Link aria-current={active ? 'page' : undefined} className={pillClasses(active, className)} {...props} />;
}
