import { cn } from './cn';

const RING = 'size-5 animate-spin rounded-full border-2 border-current border-t-transparent';

/** A spinning ring announced as `label`; `label={null}` when the text beside it already says it. */
export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string | null }) {
  if (label === null) return <span aria-hidden="true" className={cn(RING, className)} />;
  return (
    <span role="status" className={cn('inline-flex items-center', className)}>
      <span aria-hidden="true" className={RING} />
      <span className="sr-only">{label}</span>
    </span>
  );
}
