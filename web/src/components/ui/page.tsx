import { type ReactNode, useEffect } from 'react';
import { cn } from './cn';

/** Sets the document title and meta description of a page. */
export function useDocumentMeta(title: string, description?: string) {
  useEffect(() => {
    document.title = title ? `${title} · Eventry` : 'Eventry — discover and book events';
    if (description) {
      let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
      if (!meta) {
        meta = document.createElement('meta');
        meta.name = 'description';
        document.head.appendChild(meta);
      }
      meta.content = description;
    }
  }, [title, description]);
}

/** The standard page frame: centred, padded, with a main landmark provided by the layout. */
export function PageContainer({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn('mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:px-8', className)}>{children}</div>;
}
