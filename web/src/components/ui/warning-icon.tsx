import { cn } from './cn';

/** A warning triangle, decorative (the text beside it says what is wrong). */
export function WarningIcon({ className }: { className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={cn('shrink-0', className)}
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
    >
      <path d="M12 4 2.5 20h19L12 4Zm0 6v4.5m0 3v.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
