import type { HTMLAttributes } from 'react';
import { cn } from './cn';

/** A raised surface with a border: the base of event cards, panels and forms. */
export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('rounded-2xl border border-border bg-surface-raised shadow-lg', className)} {...props} />;
}
