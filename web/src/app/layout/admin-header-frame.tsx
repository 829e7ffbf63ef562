import type { ReactNode } from 'react';
import { Brand } from './brand';

/**
 * The admin header's frame (same height and brand) while the session or the admin header's chunk loads. A
 * module of its own: the public header draws it before that chunk arrives, and the admin header inside it.
 */
export function AdminHeaderFrame({ children }: { children?: ReactNode }) {
  return (
    <header className="border-b border-border bg-surface-raised">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:gap-4 sm:px-6 lg:px-8">
        {/* A phone's width holds the admin's name, the mailbox and Logout only without the brand's name. */}
        <Brand to="/admin" compact />
        {children}
      </div>
    </header>
  );
}
