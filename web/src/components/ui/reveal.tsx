import type { ReactNode } from 'react';
import { cn } from './cn';

/**
 * Shows `skeleton` over `children` for the first `delayMs`, then the content. The timing lives in CSS
 * (`.reveal-*` in index.css), so a server-rendered page keeps it before any JavaScript runs, and the
 * content underneath loads (images included) while the placeholder shows. The content sets the layout
 * throughout, so nothing moves when it appears. The switch is by opacity (see index.css): the skeleton
 * takes the clicks while it shows and is hidden from assistive technology, which reads the content at once;
 * a keyboard user who tabs into the content within the delay sees it at once.
 */
export function Reveal({
  skeleton,
  children,
  delayMs,
  className,
}: {
  skeleton: ReactNode;
  children: ReactNode;
  /** How long the skeleton shows, counted from when this is first drawn. */
  delayMs: number;
  className?: string;
}) {
  const style = { animationDelay: `${Math.max(0, Math.round(delayMs))}ms` };
  return (
    <div className={cn('reveal', className)}>
      <div className="reveal-content" style={style}>
        {children}
      </div>
      <div aria-hidden="true" className="reveal-skeleton absolute inset-0 overflow-hidden" style={style}>
        {skeleton}
      </div>
    </div>
  );
}
