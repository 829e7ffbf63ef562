import type { ReactNode } from 'react';
import { cn } from './cn';

/**
 * A warning that takes the place of what can no longer be done (an event cancelled: no tickets to choose), with
 * its heading and a sentence or two under it.
 */
export function Notice({
  title,
  titleId,
  headingLevel = 2,
  children,
  className,
}: {
  title: ReactNode;
  /** For the landmark or section the notice names (aria-labelledby). */
  titleId?: string;
  headingLevel?: 2 | 3;
  children?: ReactNode;
  className?: string;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className={cn('flex flex-col gap-2 rounded-2xl border border-red-500/40 bg-red-500/10 p-5 sm:p-6', className)}>
      <Heading id={titleId} className="flex items-center gap-2 text-lg font-bold text-danger sm:text-xl">
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-5 shrink-0"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <circle cx="12" cy="12" r="9" />
          <path strokeLinecap="round" d="M5.7 5.7l12.6 12.6" />
        </svg>
        {title}
      </Heading>
      {children ? <div className="text-sm text-fg-muted">{children}</div> : null}
    </div>
  );
}
