import { type ReactNode, useEffect } from 'react';
import { cn } from './cn';

/**
 * web/index.html's own description. Not read from the page: the server replaces it with the first page's
 * own (server/web-app/web-html.ts), which must not outlive a client-side navigation to a page without one.
 */
const DEFAULT_DESCRIPTION = 'Discover events near you and book tickets in seconds with Eventry.';

/** Sets the document title and meta description of a page (the site's default description when none). */
export function useDocumentMeta(title: string, description?: string) {
  useEffect(() => {
    document.title = title ? `${title} · Eventry` : 'Eventry — discover and book events';
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.appendChild(meta);
    }
    meta.content = description || DEFAULT_DESCRIPTION;
  }, [title, description]);
}

/** The standard page frame: centred, padded, with a main landmark provided by the layout. */
export function PageContainer({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn('mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:px-8', className)}>{children}</div>;
}
